// kernel_matches_reference on generated traces: the reference model's `kernel 6.12`
// profile and kernel-src (Debian's 6.12 fair.c) agree on every state field after
// every event. The traces are small (a 2-CPU and a 2x4 machine, few tasks, short) so
// that 1000 of them stay quick under CI; `eevdf-check run --model=kernel-src` runs
// the full-size campaign. Also: the profile is not trivially equal to kernel-src
// (a deliberately different configuration is caught), and refused inputs exit 2.
#include <catch2/catch.hpp>

#include <sstream>

#include "generator/generator.h"
#include "kernel_src/compare.h"
#include "properties/kernel_src_judged.h"
#include "trace/writer.h"
#include "replay/replay.h"
#include "runner/kernel_src_diff.h"
#include "runner/options.h"

namespace {

using eevdf::runner::diff_generated;
using eevdf::runner::kernel_src_generator_options;

constexpr std::uint64_t kTraces = 1000;  // the CI floor of the issue

eevdf::generator::Options small(eevdf::trace::TopologySpec topology) {
  eevdf::generator::Options o = eevdf::runner::default_generator_options();
  o.topology = topology;
  o.tasks_min = 2;
  o.tasks_max = 8;
  o.busy_cpus_max = 4;
  o.events_min = 20;
  o.events_max = 150;
  return kernel_src_generator_options(o);
}

eevdf::trace::TopologySpec cpus(int sockets, int cores) {
  eevdf::trace::TopologySpec t;
  t.sockets = sockets;
  t.cores_per_socket = cores;
  return t;
}

std::string replay_text(const std::string& text, eevdf::replay::Options options, int& code) {
  std::istringstream in(text);
  std::ostringstream out, err;
  code = static_cast<int>(eevdf::replay::replay(in, "t.trace", options, out, err));
  return out.str() + err.str();
}

}  // namespace

TEST_CASE("the 6.12 profile matches kernel-src on generated traces", "[kernel_src]") {
  REQUIRE(eevdf::runner::kernel_src_available());
  const auto one = small(cpus(1, 2));
  const auto eight = small(cpus(2, 4));
  std::uint64_t events = 0;
  for (std::uint64_t i = 0; i < kTraces; ++i) {
    const auto r = diff_generated(i % 2 == 0 ? one : eight, eevdf::runner::trace_seed(8, i));
    INFO("trace " << i << " line " << r.line << ": " << r.difference);
    REQUIRE(r.difference.empty());
    events += r.events;
  }
  CHECK(events > kTraces * 20);
}

TEST_CASE("the comparison sees a difference", "[kernel_src]") {
  // Same events, the reference with a 0.75 ms base slice (v6.12.19's) and kernel-src
  // with Debian's 0.70 ms: the deadlines differ after the first fork. v0 starts at
  // 2^64 - 2^20 = 18446744073708503040.
  eevdf::model::Config ref_config;
  ref_config.topology = *eevdf::model::Topology::short_form(1, 1).topology;
  ref_config.sysctl_base_slice = 750'000;
  eevdf::model::Config k_config = ref_config;
  k_config.sysctl_base_slice = 700'000;
  const std::vector<eevdf::model::TaskSpec> specs{{1, 0, 0, -1}, {2, 0, 0, -1}};
  eevdf::kernel_src::Reference612 ref(ref_config, specs);
  eevdf::kernel_src::Machine k(k_config, specs);
  CHECK(eevdf::kernel_src::first_difference(ref, k).empty());  // before any event
  CHECK(ref.fork(0, 0, -1).empty());
  CHECK(k.fork(0, 0, -1).empty());
  const std::string d = eevdf::kernel_src::first_difference(ref, k);
  INFO(d);
  // deadline = v0 + slice/2 (PLACE_DEADLINE_INITIAL): 375000 against 350000 past v0.
  CHECK(d.find("task 1: se.deadline: reference 18446744073708878040, kernel-src 18446744073708853040") !=
        std::string::npos);
}

TEST_CASE("a kernel 6.18 trace is not compared against the 6.12 code", "[kernel_src]") {
  const std::string trace =
      "eevdf-trace 1\nkernel 6.18\ntopology 1x1\ntask 1\ntask 2\n@0 fork 1\n@0 fork 2\n@1ms tick 0\n";
  eevdf::replay::Options options;
  options.diff_kernel_src = true;
  int code = 0;
  const std::string out = replay_text(trace, options, code);
  CHECK(code == 2);
  CHECK(out.find("kernel 6.12") != std::string::npos);
}

TEST_CASE("kernel-src refuses injections and RUN_TO_PARITY_WAKEUP", "[kernel_src]") {
  eevdf::replay::Options options;
  options.model = eevdf::replay::Model::kernel_src;
  int code = 0;
  const std::string inject =
      "eevdf-trace 1\nkernel 6.12\ntopology 1x1\ninject iowait_dec_new_rq\ntask 1\n@0 fork 1\n";
  CHECK(replay_text(inject, options, code).find("injections") != std::string::npos);
  CHECK(code == 2);
  const std::string rtpw =
      "eevdf-trace 1\nkernel 6.12\ntopology 1x1\nfeatures RUN_TO_PARITY_WAKEUP\ntask 1\n@0 fork 1\n";
  CHECK(replay_text(rtpw, options, code).find("RUN_TO_PARITY_WAKEUP") != std::string::npos);
  CHECK(code == 2);
}

TEST_CASE("kernel-src's dump is the reference's on a 6.12 trace", "[kernel_src]") {
  // Same JSON shape and values: the views (V without the re-base, lag, eligibility,
  // protection) are computed alike on both sides.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const eevdf::trace::Trace t = eevdf::generator::generate_trace(seed, small(cpus(1, 4)));
    const std::string text = eevdf::trace::to_text(t);
    eevdf::replay::Options options;
    options.dump = eevdf::replay::Dump::full;
    // Not the properties of the real code's own state (kKernelSrcOnly): the
    // reference has no such state to report on.
    for (const auto& only : eevdf::properties::kKernelSrcOnly) options.skip.emplace_back(only.name);
    int ref_code = 0, src_code = 0;
    const std::string ref = replay_text(text, options, ref_code);
    options.model = eevdf::replay::Model::kernel_src;
    const std::string src = replay_text(text, options, src_code);
    INFO("seed " << seed);
    CHECK(ref_code == 0);
    CHECK(src_code == 0);
    // Everything before the closing summary line, which names the implementation.
    CHECK(ref.substr(0, ref.rfind("t.trace:")) == src.substr(0, src.rfind("t.trace:")));
    CHECK(ref.find("\"tasks\"") != std::string::npos);
  }
}
