// Pass 6, shorter times.
//
// Tries, for each event left to right, shortening the gap before it (from time 0
// for the first event, so the first try of the first gap re-bases the trace to 0):
// every event from it on moves earlier by the same amount, so the order and every
// other gap stay. The gap tries 0 first, then bisects on the roundest values
// (values.h) toward the smallest gap that still fails; long runs between events are
// what the lag and overflow bugs need, and the search finds how long is enough.
// Keeps: the first gap value of each search that still fails; the search goes on
// from it.
// Terminates: one bisection per gap (kBisectionStepsMax replays at the most); the
// events only move earlier, never past the one before.
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kShortenGapsPass = "shorten_gaps";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool shorten_gaps_pass(Search& search, Work& w, PassStats& stats);

}  // namespace eevdf::shrinkers
