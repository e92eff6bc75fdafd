// Pass 1, delta debugging over events (Zeller's ddmin, in the one-sided form
// Hypothesis uses for spans).
//
// Tries: deleting a block of consecutive events together with its dependents (a
// deleted `fork T` takes every event naming T; the judge's repair then skips every
// later event the deletion made illegal, such as the wake of a deleted sleep), block
// sizes from half the events down to 1, halving; within one size, blocks left to
// right; then, on traces of at most 200 events, windows of 2 and 3 consecutive
// events at every start (blocks the halving never aligns).
// Keeps: every candidate that still fails, at once; the block index then stays where
// it is (the next block slid into its place), so success costs no more than failure.
// Terminates: at each step either the index advances (by the block size, or by one
// for a window) or the trace loses at least one event; sizes only halve. A run that accepts nothing at size 1
// leaves a trace where deleting any one event (with its dependents) does not fail:
// 1-minimal for this pass. Coarse first because one accepted half removes as much
// as n/2 accepted single events, at the price of one replay.
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kDeleteEventsPass = "delete_events";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool delete_events_pass(Search& search, Work& w, PassStats& stats);

}  // namespace eevdf::shrinkers
