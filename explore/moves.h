// The explorer's alphabet (docs/EXPLORE.md "The alphabet"): the trace verbs a state
// enables, each after a gap of 0..max_gap quanta, and which two of them commute.
#pragma once

#include <array>    // verbs
#include <cstdint>  // times
#include <vector>   // moves

#include "model/machine.h"
#include "trace/trace.h"

namespace eevdf::explore {

// What the explorer may do from a state: the bounds of the alphabet.
struct Alphabet {
  std::uint64_t quantum_ns = 100'000;
  int max_gap = 2;                       // gaps 0, 1 .. max_gap quanta
  std::vector<int> nices;                // `renice` values (a task's current nice is left out)
  std::vector<std::uint64_t> slices;     // `setslice` values, 0: the default slice
  std::array<bool, 9> verbs{true, true, true, true, true, true, true, true, true};  // by trace::Verb
  bool io = true;                        // `sleep io` and `sleep io=noacct` besides `sleep`
  bool tick_all = false;                 // `tick all` besides `tick CPU`
  bool has(trace::Verb v) const { return verbs[static_cast<std::size_t>(v)]; }
};

// One transition: a verb with its operands (a task index, not an id), after `gap`
// quanta. Small, so that a node of the search is a parent index and a move.
struct Move {
  trace::Verb verb = trace::Verb::tick;
  trace::Io io = trace::Io::none;
  std::int8_t task = -1;   // task index, -1: the verb names a CPU
  std::int8_t cpu = -1;    // cpu= or the ticked CPU, -1: none (`tick all`: -2)
  std::int8_t nice = 0;
  std::uint8_t gap = 0;
  std::uint32_t slice_us = 0;  // setslice, in us (0: the default slice)
  bool operator==(const Move&) const = default;
};

// The trace event of `move` at time `t`; `ids`: the task ids by index.
trace::Event to_event(const std::vector<int>& ids, const Move& move, std::uint64_t t, int line);

// The task ids by index, as the machines built from `specs` number them.
std::vector<int> task_ids(const std::vector<model::TaskSpec>& specs);

// The moves enabled in `m`'s state, in a fixed order (task by task, then the CPUs):
// every verb the state's tasks allow (docs/TRACE_FORMAT.md, which verb is legal in
// which state), each with every gap. A tick of an idle CPU changes nothing and a
// renice to the current nice is a no-op: both are left out.
template <class M>
void enabled_moves(const M& m, const Alphabet& alphabet, std::vector<Move>& out);

// The CPUs a move can change (its task's CPU, its `cpu=`, a wakeup's sleep CPU), as
// a bit mask; every CPU for `tick all`.
template <class M>
std::uint64_t footprint(const M& m, const Move& move);

// Partial-order reduction: `next` after `last` at the same instant (gap 0) is left
// out when the two change disjoint CPUs and name different tasks and `next` sorts
// first, since the other order reaches the same state by the same number of events.
bool commute_and_sorted_after(const Move& last, std::uint64_t last_footprint, const Move& next,
                              std::uint64_t next_footprint);

}  // namespace eevdf::explore
