// CheckedRun::copy_state_from: a run continued from a copy judges every later event
// as the run it was copied from would. Generated traces (with historical bugs
// switched on, so that there are violations to compare) are replayed straight by
// one run and, event by event, by two runs that each take the other's state before
// applying the next event; the violations, measures and evaluated counts must match.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "generator/generator.h"
#include "model/arith_kernel.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"

namespace {

using eevdf::model::KernelArith;

struct Record final : eevdf::properties::Sink {
  std::vector<std::string> lines;
  void violation(const eevdf::properties::Violation& v) override {
    lines.push_back(fmt::format("{} line {} cpu {} task {}: {}", v.property, v.line, v.cpu, v.task, v.values));
  }
  void measure(std::string_view name, const std::string& n, const std::string& d) override {
    lines.push_back(fmt::format("measure {} {}/{}", name, n, d));
  }
};

template <class Run>
std::vector<std::string> evaluated(const Run& run) {
  std::vector<std::string> out;
  run.checker().for_each([&](const auto& p) { out.push_back(fmt::format("{} {}", p.name(), p.evaluated())); });
  return out;
}

eevdf::generator::Options small(int seed, const char* profile) {
  eevdf::generator::Options o;
  o.profile = profile;
  o.topology.sockets = 1;
  o.topology.cores_per_socket = 3;
  o.tasks_min = 2;
  o.tasks_max = 5;
  o.busy_cpus_max = 3;
  o.events_min = 20;
  o.events_max = 120;
  o.random_features = true;
  static const char* const kInjections[] = {"", "reweight_unscaled_lag", "buddy_accepts_delayed", "iowait_dec_new_rq",
                                            "parity_ignores_min_slice"};
  const std::string inject = kInjections[seed % 5];
  if (!inject.empty()) o.injections = {inject};
  return o;
}

template <class P>
void copies_judge_alike(const char* profile) {
  using Run = eevdf::replay::CheckedRun<KernelArith, P>;
  int with_violations = 0;
  for (int seed = 1; seed <= 200; ++seed) {
    const eevdf::trace::Trace t = eevdf::generator::generate_trace(static_cast<std::uint64_t>(seed), small(seed, profile));
    const auto config = eevdf::replay::make_config(t.header, {}, "generated");
    const auto specs = eevdf::replay::make_task_specs(t.header);
    Record straight_sink, a_sink, b_sink;
    Run straight(config, specs, straight_sink, {});
    Run a(config, specs, a_sink, {}), b(config, specs, b_sink, {});
    Run* from = &a;
    Run* to = &b;
    for (const auto& statement : t.body) {
      const auto* event = std::get_if<eevdf::trace::Event>(&statement);
      if (event == nullptr) continue;
      const auto& e = *event;
      CHECK(straight.apply(e).empty());
      to->copy_state_from(*from);
      CHECK(to->apply(e).empty());
      std::swap(from, to);
    }
    straight.finish();
    from->finish();
    std::vector<std::string> copied = a_sink.lines;
    copied.insert(copied.end(), b_sink.lines.begin(), b_sink.lines.end());
    std::vector<std::string> expected = straight_sink.lines;
    std::sort(copied.begin(), copied.end());
    std::sort(expected.begin(), expected.end());
    INFO("seed " << seed);
    CHECK(copied == expected);
    CHECK(evaluated(*from) == evaluated(straight));
    with_violations += straight_sink.lines.empty() ? 0 : 1;
  }
  CHECK(with_violations >= 20);  // the comparison saw violations, not only clean runs
}

}  // namespace

TEST_CASE("a run continued from a copy judges as the run copied (6.18)", "[copy_state]") {
  copies_judge_alike<eevdf::model::profile_6_18>("6.18");
}
TEST_CASE("a run continued from a copy judges as the run copied (6.12)", "[copy_state]") {
  copies_judge_alike<eevdf::model::profile_6_12>("6.12");
}
