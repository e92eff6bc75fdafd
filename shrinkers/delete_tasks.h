// Pass 2, whole tasks.
//
// Tries: for each declared task, in header order, deleting its declaration and every
// event naming it by id (events naming a CPU, the `cpu=` forms of sleep/yield/exit
// and ticks, stay: they do not depend on which task runs).
// Keeps: every candidate that still fails, at once; the next task is then tried on
// the smaller trace.
// Terminates: one attempt per task declared when the pass starts. Catches what
// pass 1 cannot: a task named only before its fork, by `renice`/`setslice` while
// new, whose events are not dependents of any one deletable event.
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kDeleteTasksPass = "delete_tasks";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool delete_tasks_pass(Search& search, Work& w, PassStats& stats);

}  // namespace eevdf::shrinkers
