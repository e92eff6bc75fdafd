// The property suite on generated traces: RapidCheck draws a seed and the
// generator's knobs (topology, task count, length, random feature sets, steady
// mode); the generator writes a trace valid by construction; it is replayed with
// every property, in the kernel arithmetic and, on shorter traces, the ideal one.
// Only known findings (properties/findings.h) and consequences of an overflow may be
// reported. A failure prints the seed, the trace and the RC_PARAMS line that
// reproduces it (trace/tests/rc_check.h). RapidCheck's own shrinking is off here:
// inside the failing case the deterministic shrinker (shrinkers/) reduces the trace
// toward the same property and the log shows the shrunk trace, so the reproduce line
// replays the unshrunk case and then reruns that shrinker.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <type_traits>

#include "generator/generator.h"
#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/tests/harness.h"
#include "replay/vocabulary.h"
#include "shrinkers/shrink.h"
#include "trace/reader.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

using eevdf::properties::testing::Harness;

namespace {

// The knobs of one generated trace, drawn by RapidCheck (so it shrinks them too);
// `profile`: the kernel profile the trace is drawn under (its `kernel` line).
eevdf::generator::Options draw_options(std::uint64_t events_max, const char* profile) {
  eevdf::generator::Options o;
  o.profile = profile;
  const int shape = *rc::gen::inRange(0, 4);
  o.topology.sockets = shape == 3 ? 2 : 1;
  o.topology.cores_per_socket = std::array<int, 4>{1, 2, 4, 64}[static_cast<std::size_t>(shape)];
  o.busy_cpus_max = std::min(o.topology.sockets * o.topology.cores_per_socket, 8);
  o.tasks_min = 2;
  o.tasks_max = *rc::gen::inRange(2, 17);
  o.events_min = 20;
  o.events_max = events_max;
  o.random_features = true;
  o.steady = *rc::gen::element(eevdf::generator::Ratio{0, 1}, eevdf::generator::Ratio{1, 1});
  return o;
}


struct Failure {
  std::string property;
  std::string text;  // property, line and values
};

// The violations that count: not a known finding, not a consequence.
std::vector<Failure> failures(const eevdf::properties::testing::Capture& sink) {
  std::vector<Failure> out;
  for (const auto& v : sink.violations)
    if (!v.consequence && v.finding.empty())
      out.push_back({std::string(v.property), std::string(v.property) + " at line " + std::to_string(v.line) + ": " + v.values});
  return out;
}

// The shrinker's budget inside a failing case: a generated trace of a few hundred
// events shrinks in well under a second; the bound keeps a pathological one short.
constexpr double kShrinkSecondsMax = 20;

// The failing trace shrunk toward its first failure (same property, not a finding).
template <class A>
std::string shrunk_text(const std::string& text, const std::string& property) {
  const auto arith = std::is_same_v<A, eevdf::model::IdealArith> ? eevdf::trace::Arith::ideal : eevdf::trace::Arith::kernel;
  const eevdf::shrinkers::Target target{property, std::string(), arith};
  eevdf::shrinkers::Budget budget;
  budget.seconds_max = kShrinkSecondsMax;
  eevdf::shrinkers::Stats stats;
  const eevdf::trace::Trace t = eevdf::trace::parse_trace_text(text, "generated", eevdf::replay::vocabulary());
  const eevdf::trace::Trace shrunk = eevdf::shrinkers::shrink(t, target, budget, &stats);
  return "shrunk by shrinkers/ (" + std::to_string(stats.events_before) + " -> " + std::to_string(stats.events_after) +
         " events, " + stats.stopped_because + "):\n" + eevdf::trace::to_text(eevdf::shrinkers::with_expectations(shrunk, target));
}

// Replays `text`; in the ideal arithmetic a trace generated against the kernel one
// may stop being valid (a rounding tie decided otherwise): the replay stops there.
template <class A, class P>
std::vector<Failure> check_text(const std::string& text) {
  Harness<A, P> h(text, {});
  try {
    h.apply_until();
  } catch (const std::runtime_error&) {
    if (std::is_same_v<A, eevdf::model::KernelArith>) throw;
  }
  h.run->finish();
  return failures(h.sink);
}

template <class A, class P = eevdf::model::profile_6_18>
void generated_traces_hold(std::uint64_t events_max) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const eevdf::generator::Options o = draw_options(events_max, P::name.data());
  const std::string text = eevdf::trace::to_text(eevdf::generator::generate_trace(seed, o));
  const std::vector<Failure> found = check_text<A, P>(text);
  if (!found.empty()) {
    RC_LOG() << "generator seed " << seed << ", first failure: " << found.front().text << "\n";
    // The shrinkers replay the 6.18 reference: a 6.12 trace is logged unshrunk.
    if constexpr (std::is_same_v<P, eevdf::model::profile_6_18>) RC_LOG() << shrunk_text<A>(text, found.front().property);
    RC_LOG() << "unshrunk:\n" << text;
    RC_FAIL("a property failed on a generated trace");
  }
}

}  // namespace

TEST_CASE("generated traces hold every property (kernel arithmetic)", "[properties][generated]") {
  eevdf::trace::testing::check("generated-kernel", 300, [] { generated_traces_hold<eevdf::model::KernelArith>(400); },
                               false);
}

TEST_CASE("generated traces hold every property (ideal arithmetic)", "[properties][generated]") {
  eevdf::trace::testing::check("generated-ideal", 60, [] { generated_traces_hold<eevdf::model::IdealArith>(120); },
                               false);
}

// The 6.12 forms on traces drawn under `kernel 6.12` (the generator's validity follows
// that profile's decisions): every property that applies to 6.12.
TEST_CASE("generated 6.12 traces hold every applicable property (kernel arithmetic)", "[properties][generated][6.12]") {
  eevdf::trace::testing::check("generated-6.12-kernel", 200, [] {
    generated_traces_hold<eevdf::model::KernelArith, eevdf::model::profile_6_12>(400);
  });
}

TEST_CASE("generated 6.12 traces hold every applicable property (ideal arithmetic)", "[properties][generated][6.12]") {
  eevdf::trace::testing::check("generated-6.12-ideal", 40, [] {
    generated_traces_hold<eevdf::model::IdealArith, eevdf::model::profile_6_12>(120);
  });
}
