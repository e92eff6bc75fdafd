// Pass 5, plainer values.
//
// Tries, for each task declaration in header order, then for each event in trace
// order:
//   nice (declaration, `renice`)  toward 0 by halving steps: 0 first;
//   slice (declaration `slice=`, `setslice`)  none (0) first, then the roundest
//     smaller custom slice down to the 0.1 ms minimum, by bisection;
//   `sleep ... io=noacct`  a plain sleep, then `io`; `sleep ... io`  a plain sleep;
//   `cpu=` (declaration, `fork`, `wake`)  dropped, so the default CPU is used;
//   a `renice` or `setslice` of a task not forked yet, or forked at the same time,
//     its value moved into the task's declaration (one event fewer, tried first).
// Keeps: the first candidate of each value that still fails (the next candidates
// are then searched from it); an accepted repair that drops events ends the search
// of that value.
// Terminates: the event count only falls; every value has finitely many candidates (toward: at most 65;
// bisection: kBisectionStepsMax), one value at a time, each tried once per run.
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kSimplifyValuesPass = "simplify_values";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool simplify_values_pass(Search& search, Work& w, PassStats& stats);

}  // namespace eevdf::shrinkers
