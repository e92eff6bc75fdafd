// Tests that a campaign reports what its properties judged and measured: each
// measure's per-trace value (worst, percentiles, the trace that gave the worst),
// per property the events at which it actually judged, lag_bound_steady judged on
// the ideal-arithmetic sample of a default campaign, and the list of what a
// campaign leaves unjudged.
#include <catch2/catch.hpp>

#include <algorithm>

#include "runner/campaign.h"
#include "runner/judged.h"
#include "runner/measures.h"
#include "runner/saved_trace.h"
#include "runner/trace_run.h"

using namespace eevdf;

namespace {

runner::Options defaults(std::uint64_t traces) {
  runner::Options o;  // the campaign's defaults but for the budget
  o.seed = 42;  // its 200 traces sample 11 steady ones, some with qualifying stretches
  o.traces_max = traces;
  o.seconds_max = 0;
  o.generator = runner::default_generator_options();
  return o;
}

std::uint64_t count(const std::map<std::string, std::uint64_t>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

bool has_unjudged(const std::vector<runner::Unjudged>& v, const std::string& name, const std::string& how) {
  return std::any_of(v.begin(), v.end(),
                     [&](const runner::Unjudged& u) { return u.property == name && u.how.find(how) != std::string::npos; });
}

}  // namespace

TEST_CASE("a measure's summary: the worst with its trace, nearest-rank p50 and p99") {
  runner::MeasureSamples samples;
  // Values 1..100 added out of order; 100 twice, in traces 7 and 3: the lower index is the worst.
  for (std::uint64_t v = 1; v <= 99; ++v)
    runner::add_sample(samples, runner::make_sample(std::to_string((v * 37) % 99 + 1), "1", 100 + v, v));
  runner::MeasureSamples other;
  runner::add_sample(other, runner::make_sample("200", "2", 7, 70));
  runner::add_sample(other, runner::make_sample("100", "1", 3, 30));
  runner::merge_samples(samples, other);
  const runner::MeasureSummary s = runner::summarize(samples);
  CHECK(s.traces == 101);
  CHECK(s.worst.value == 100);
  CHECK(s.worst.index == 3);
  CHECK(s.worst.seed == 30);
  CHECK(s.worst.exact == "100");
  // Ascending: 1..99, 100, 100. Rank ceil(0.5 * 101) = 51 -> 51; ceil(0.99 * 101) = 100 -> 100.
  CHECK(s.p50 == 51);
  CHECK(s.p99 == 100);
  CHECK(runner::make_sample("1", "4", 0, 0).value == 0.25);
  CHECK(runner::make_sample("1", "4", 0, 0).exact == "1/4");
}

TEST_CASE("a default campaign tallies every measure, once per trace") {
  const runner::Result r = runner::run_campaign(defaults(200));
  REQUIRE(r.tally.internal_error.empty());
  const auto& m = r.tally.measures;
  REQUIRE(m.count("iowait_visibility") == 1);
  REQUIRE(m.count("lag_bound") == 1);
  CHECK(m.at("iowait_visibility").size() == 200);
  CHECK(m.at("lag_bound").size() == 200);
  // lag_bound_steady: measured on the ideal-arithmetic sample only.
  REQUIRE(r.tally.ideal_only_checked > 0);
  REQUIRE(m.count("lag_bound_steady") == 1);
  CHECK(m.at("lag_bound_steady").size() == r.tally.ideal_only_checked);
}

TEST_CASE("iowait_visibility is positive exactly in the traces where an io sleep was hidden by delay") {
  const runner::Options o = defaults(0);
  const auto hidden = static_cast<std::size_t>(runner::Probe::io_sleep_hidden_by_delay);
  int with_hidden = 0, without = 0;
  for (std::uint64_t index = 0; index < 200 && (with_hidden < 3 || without < 3); ++index) {
    const runner::TraceOutcome out = runner::run_trace(o, index);
    const runner::MeasureSamples& s = out.tally.measures.at("iowait_visibility");
    REQUIRE(s.size() == 1);
    CHECK(s.front().index == index);
    if (out.tally.coverage[hidden] != 0) {
      ++with_hidden;
      CHECK(s.front().value > 0);  // a delayed io sleeper is uncounted from its sleep on
    } else if (out.tally.coverage[static_cast<std::size_t>(runner::Probe::io_sleep_counted)] != 0) {
      ++without;
    }
  }
  CHECK(with_hidden >= 3);
}

TEST_CASE("each property's count is the events at which it judged, not the campaign's events") {
  const runner::Result r = runner::run_campaign(defaults(200));
  const auto& e = r.tally.evaluated;
  const std::uint64_t events = r.tally.events;
  // Judged at picks on a queue with another entity only.
  CHECK(count(e, "pick_eligible") > 0);
  CHECK(count(e, "pick_eligible") < events);
  // Judged on every touched runqueue: every event but a `tick all` on an idle machine.
  CHECK(count(e, "sums_consistent") > count(e, "pick_eligible"));
  CHECK(count(e, "sums_consistent") <= events);
  // Judged in the ideal-arithmetic replay of sampled steady traces, within their stretches.
  CHECK(count(e, "lag_bound_steady") > 0);
  CHECK(count(e, "lag_bound_steady") < r.tally.ideal_only_events);
  // The model's own kernel checks run at every event of a faithful campaign.
  CHECK(count(e, "kernel_warn") == events);
  for (const auto& [name, n] : e) CHECK(n <= events);
}

TEST_CASE("the properties a campaign judges and the ones it lists as not judged") {
  runner::Options o = defaults(10);
  const std::vector<std::string> judged = runner::judged_properties(o);
  CHECK(std::find(judged.begin(), judged.end(), "lag_bound_steady") != judged.end());
  CHECK(std::find(judged.begin(), judged.end(), "pick_eligible") != judged.end());
  const std::vector<runner::Unjudged> left = runner::not_judged(o);
  CHECK(has_unjudged(left, "fast_matches_reference", "--diff-every"));
  CHECK(has_unjudged(left, "ideal_tracks_kernel", "--ideal-every"));
  CHECK(has_unjudged(left, "kernel_matches_reference", "--model kernel-src"));
  CHECK(has_unjudged(left, "deterministic", "test suite"));
  CHECK_FALSE(has_unjudged(left, "lag_bound_steady", ""));
  CHECK(left.size() + judged.size() == properties::kCatalogue.size());
  o.steady_every = 0;
  o.diff_every = 3;
  o.selection.skip = {"pick_eligible"};
  const std::vector<runner::Unjudged> now = runner::not_judged(o);
  CHECK(has_unjudged(now, "lag_bound_steady", "--steady-every"));
  CHECK(has_unjudged(now, "pick_eligible", "--skip"));
  CHECK_FALSE(has_unjudged(now, "fast_matches_reference", ""));
}

TEST_CASE("a failure of the ideal-arithmetic sample is shrunk in the ideal arithmetic") {
  runner::FirstViolation v;
  v.property = "lag_bound_steady";
  CHECK(runner::shrink_target(v).arith == trace::Arith::ideal);
  v.property = "lag_bound";
  CHECK(runner::shrink_target(v).arith == trace::Arith::kernel);
}
