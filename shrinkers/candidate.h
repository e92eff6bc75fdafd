// A trace being shrunk, as the passes edit it: the header without expectations and
// the events alone. Every edit keeps the dependency rule of the passes: a task whose
// `fork` is gone is gone entirely (every event naming it, and its declaration), so a
// candidate never names a task that was never forked but later sleeps or wakes.
// Pure functions; whether a candidate is valid is for the replay to say.
#pragma once

#include <cstddef>  // std::size_t
#include <vector>   // events

#include "shrinkers/shrink.h"
#include "trace/trace.h"

namespace eevdf::shrinkers {

struct Work {
  trace::Header header;              // no trace-wide expects, no initial expects
  std::vector<trace::Event> events;  // the body without its Expect statements
  bool operator==(const Work&) const = default;
};

// `t` without any expectation: the starting point of every shrink.
Work strip_expectations(const trace::Trace& t);

// The trace to replay (and to return): header plus events, no Expect statements;
// each event's `line` is its position (1-based), as in the written text.
trace::Trace to_trace(const Work& w);

// `w` as a verdict on it leaves it: without the events skipped as illegal and the
// events after the failure, and without the declarations no event names any more.
Work kept_by(const Work& w, const Verdict& verdict);

// Drops the declarations of the tasks no event names, keeping header order.
void drop_unnamed_declarations(Work& w);

// `w` without events [first, first + count) (clipped to the end) and their
// dependents: every event naming a task whose `fork` was deleted. Declarations of
// tasks no longer named by any event are dropped.
Work delete_events(const Work& w, std::size_t first, std::size_t count);

// `w` without task `id`: its declaration and every event naming it (`cpu=` forms and
// ticks name no task and stay). Declarations of tasks no longer named are dropped.
Work delete_task(const Work& w, int id);

}  // namespace eevdf::shrinkers
