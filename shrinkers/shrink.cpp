// The shrink driver: rounds of the passes, coarse to fine, to a fixed point or the
// end of the budget; see shrink.h.
#include "shrinkers/shrink.h"

#include <variant>  // std::holds_alternative

#include "base/assert.h"
#include "shrinkers/candidate.h"
#include "shrinkers/delete_events.h"
#include "shrinkers/delete_tasks.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {
namespace {

// A round that accepts anything removes at least one event or one task, so a shrink
// reaches its fixed point within events + tasks + 1 rounds; this bound is only a
// guard against a pass that reports progress without making any.
constexpr std::uint64_t kRoundsMax = 100000;

std::uint64_t event_count(const trace::Trace& t) {
  std::uint64_t n = 0;
  for (const trace::BodyStatement& s : t.body)
    if (std::holds_alternative<trace::Event>(s)) ++n;
  return n;
}

// Runs rounds of every pass on `w` until one accepts nothing; returns why it stopped.
std::string run_rounds(Search& search, Work& w, Stats& stats) {
  stats.passes = {PassStats{kDeleteEventsPass, 0, 0, 0}, PassStats{kDeleteTasksPass, 0, 0, 0}};
  for (stats.rounds = 0; stats.rounds < kRoundsMax;) {
    ++stats.rounds;
    const std::size_t events = w.events.size();
    const std::size_t tasks = w.header.tasks.size();
    bool progress = delete_events_pass(search, w, stats.passes[0]);
    progress |= delete_tasks_pass(search, w, stats.passes[1]);
    if (search.spent()) return search.spent_because();
    if (!progress) return "fixed point";
    EEVDF_ASSERT(w.events.size() < events || w.header.tasks.size() < tasks, "a productive round shrinks");
  }
  return "budget: rounds";
}

}  // namespace

trace::Trace shrink(const trace::Trace& failing, const Predicate& still_fails, const Budget& budget, Stats* stats) {
  Stats local;
  Stats& s = stats != nullptr ? *stats : local;
  s = Stats{};
  s.events_before = event_count(failing);
  Search search(still_fails, budget);
  Work w = strip_expectations(failing);
  PassStats start{"input", 0, 0, 0};
  const bool input_fails = search.accepts(w, start);
  if (!input_fails) {
    s.candidates = search.candidates();
    s.events_after = s.events_before;
    s.stopped_because = search.spent() ? search.spent_because() : "input does not fail";
    return failing;
  }
  s.stopped_because = run_rounds(search, w, s);
  s.candidates = search.candidates();
  s.accepted = search.accepted();
  s.events_after = w.events.size();
  EEVDF_ASSERT(s.events_after <= s.events_before, "a shrink never adds events");
  EEVDF_ASSERT(s.accepted >= 1, "the input itself was accepted");
  return to_trace(w);
}

}  // namespace eevdf::shrinkers
