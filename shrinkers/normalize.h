// Pass 7, the canonical form a reader expects.
//
// Tries one candidate: tasks renumbered 1..n in the order of their first event (the
// declarations sorted by the new ids), and times re-based so that the first event
// is at 0 (the writer prints them in readable units, trace/units.h). Task ids can
// break ties in the model, so the candidate is judged like any other.
// Keeps: the candidate if it still fails.
// Terminates: one replay, and none when the trace is already canonical (so a round
// of only this pass never counts as progress twice).
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kNormalizePass = "normalize";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool normalize_pass(Search& search, Work& w, PassStats& stats);

// `w` in canonical form (no replay): what normalize_pass tries.
Work normalized(const Work& w);

}  // namespace eevdf::shrinkers
