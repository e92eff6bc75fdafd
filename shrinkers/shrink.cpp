// The shrink driver: rounds of the passes, coarse to fine, to a fixed point or the
// end of the budget; see shrink.h.
#include "shrinkers/shrink.h"

#include <array>    // the pass table
#include <variant>  // std::holds_alternative

#include "base/assert.h"
#include "shrinkers/candidate.h"
#include "shrinkers/delete_events.h"
#include "shrinkers/delete_tasks.h"
#include "shrinkers/drop_settings.h"
#include "shrinkers/normalize.h"
#include "shrinkers/reduce_cpus.h"
#include "shrinkers/search.h"
#include "shrinkers/shorten_gaps.h"
#include "shrinkers/simplify_values.h"

namespace eevdf::shrinkers {
namespace {

// Every accepted candidate of a round is smaller in the order (events, tasks, CPUs,
// settings, values, times) or is the one canonical renumbering, so a shrink reaches
// its fixed point in far fewer rounds; this bound only guards against a pass that
// reports progress without making any.
constexpr std::uint64_t kRoundsMax = 10000;

using PassFn = bool (*)(Search&, Work&, PassStats&);
struct Pass {
  const char* name;
  PassFn run;
};

// Coarse to fine: what removes the most per replay first; values only once the
// trace is small, so their many small searches replay short traces.
constexpr std::array<Pass, 7> kPasses{{
    {kDeleteEventsPass, delete_events_pass},
    {kDeleteTasksPass, delete_tasks_pass},
    {kReduceCpusPass, reduce_cpus_pass},
    {kDropSettingsPass, drop_settings_pass},
    {kSimplifyValuesPass, simplify_values_pass},
    {kShortenGapsPass, shorten_gaps_pass},
    {kNormalizePass, normalize_pass},
}};
// The first four delete (events, tasks, CPUs, settings); the rest change values.
constexpr std::size_t kStructuralPasses = 4;

std::uint64_t event_count(const trace::Trace& t) {
  std::uint64_t n = 0;
  for (const trace::BodyStatement& s : t.body)
    if (std::holds_alternative<trace::Event>(s)) ++n;
  return n;
}

// Runs pass k once, with its statistics. True iff it accepted a candidate.
bool run_pass(Search& search, Work& w, Stats& stats, std::size_t k) {
  PassStats& ps = stats.passes[k];
  const std::size_t events = w.events.size();
  const double start = search.seconds();
  const bool progress = kPasses[k].run(search, w, ps);
  ps.seconds += search.seconds() - start;
  EEVDF_ASSERT(w.events.size() <= events, "no pass adds events");
  ps.events_removed += events - w.events.size();
  return progress;
}

// Runs rounds until one accepts nothing; returns why it stopped. Each round first
// repeats the structural passes (what deletes events, tasks, CPUs and settings) to
// their own fixed point, then runs the value passes once: a value simplified while
// events could still go may commit the trace to a larger local minimum.
std::string run_rounds(Search& search, Work& w, Stats& stats) {
  stats.passes.clear();
  for (const Pass& p : kPasses) stats.passes.push_back(PassStats{p.name, 0, 0, 0, 0});
  for (stats.rounds = 0; stats.rounds < kRoundsMax;) {
    ++stats.rounds;
    bool progress = false;
    // Every structural round that accepts removes an event, task, CPU or setting.
    for (std::uint64_t inner = 0; inner < kRoundsMax && !search.spent(); ++inner) {
      bool structural = false;
      for (std::size_t k = 0; k < kStructuralPasses && !search.spent(); ++k) structural |= run_pass(search, w, stats, k);
      progress |= structural;
      if (!structural) break;
    }
    for (std::size_t k = kStructuralPasses; k < kPasses.size() && !search.spent(); ++k)
      progress |= run_pass(search, w, stats, k);
    if (search.spent()) return search.spent_because();
    if (!progress) return "fixed point";
  }
  return "budget: rounds";
}

}  // namespace

trace::Trace shrink(const trace::Trace& failing, const Judge& judge, const Budget& budget, Stats* stats) {
  Stats local;
  Stats& s = stats != nullptr ? *stats : local;
  s = Stats{};
  s.events_before = event_count(failing);
  Search search(judge, budget);
  Work w = strip_expectations(failing);
  PassStats input{"input", 0, 0, 0, 0};
  const auto keep_crash = [&] {
    s.internal_error = search.crash_reason();
    s.internal_error_trace = search.crash();
  };
  if (!search.accepts_as_is(w, input)) {
    keep_crash();
    s.candidates = search.candidates();
    s.events_after = s.events_before;
    s.stopped_because = search.spent() ? search.spent_because() : "input does not fail";
    s.seconds = search.seconds();
    return failing;
  }
  s.stopped_because = run_rounds(search, w, s);
  s.candidates = search.candidates();
  s.accepted = search.accepted();
  s.events_after = w.events.size();
  s.seconds = search.seconds();
  keep_crash();
  EEVDF_ASSERT(s.events_after <= s.events_before, "a shrink never adds events");
  EEVDF_ASSERT(s.accepted >= 1, "the input itself was accepted");
  return to_trace(w);
}

trace::Trace shrink(const trace::Trace& failing, const Target& target, const Budget& budget, Stats* stats) {
  return shrink(failing, judge(target), budget, stats);
}

trace::Trace shrink(const trace::Trace& failing, const Predicate& still_fails, const Budget& budget, Stats* stats) {
  return shrink(failing, judge(still_fails), budget, stats);
}

}  // namespace eevdf::shrinkers
