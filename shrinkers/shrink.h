// The shrinkers' entry point: reduce a failing trace to a small one that fails the
// same property (STYLE.md house rule 9: same property or reject; coarse to fine;
// every candidate validated by replay).
//
// The passes, in the order `shrink` runs them, each in its own file:
//   delete_events.h  delta debugging over events: blocks of half the trace, then
//                    halved down to single events (a deleted `fork T` takes every
//                    event naming T with it);
//   delete_tasks.h   whole tasks: the declaration and every event naming the task.
// Both repeat until a round accepts nothing (a fixed point) or the budget runs out.
// Candidates never carry `expect` lines (trace-wide or state queries): the caller
// writes the shrunk trace's `expect violation`. Features and injections are kept.
#pragma once

#include <cstdint>     // budgets, counts
#include <functional>  // the predicate
#include <string>      // property names
#include <vector>      // per-pass statistics

#include "trace/trace.h"

namespace eevdf::shrinkers {

// True when `candidate` is a valid trace that still violates the property at hand.
using Predicate = std::function<bool(const trace::Trace& candidate)>;

struct Budget {
  std::uint64_t candidates_max = 20000;  // replays at the most
  double seconds_max = 30;               // wall-clock limit (the CLI's --budget)
};

// What one pass did over the whole shrink (summed over rounds).
struct PassStats {
  std::string name;              // "delete_events", "delete_tasks"
  std::uint64_t candidates = 0;  // predicate calls made by this pass
  std::uint64_t accepted = 0;    // of which still failed
  std::uint64_t events_removed = 0;
};

struct Stats {
  std::uint64_t candidates = 0;  // predicate calls
  std::uint64_t accepted = 0;    // candidates that still failed
  std::uint64_t events_before = 0;
  std::uint64_t events_after = 0;
  std::uint64_t rounds = 0;      // rounds of all passes run
  // "fixed point", "budget: candidates", "budget: seconds", "budget: rounds",
  // "input does not fail".
  std::string stopped_because;
  std::vector<PassStats> passes;
};

// The standard predicate: replay `candidate` in the kernel arithmetic with the
// features and injections of its own header, all properties checked; true iff it is
// valid (no exit-2 condition, no internal assertion) and `property` is violated (not
// as a consequence). Expect statements are ignored. Throws std::invalid_argument
// for a property name the catalogue does not know.
Predicate violates(const std::string& property);

// Delta debugging over events, then tasks: returns a trace that fails `still_fails`,
// without expectations. If the input (stripped of its expectations) does not fail,
// returns `failing` unchanged. Deterministic when the budget is not reached. `stats`
// may be null.
trace::Trace shrink(const trace::Trace& failing, const Predicate& still_fails, const Budget& budget, Stats* stats);

}  // namespace eevdf::shrinkers
