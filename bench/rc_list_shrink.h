// The baseline the shrinkers are measured against (docs/BENCHMARKS.md):
// RapidCheck's built-in shrinking of a list, applied to the trace's events.
//
// What it is: rc::shrink::removeChunks (the container shrink behind rc::gen::
// container, and the same subrange order as the seq::subranges of rc::state's
// command sequences: chunk sizes n down to 1, starts left to right), walked the way
// RapidCheck's shrinkTestCase walks shrinks: the first candidate that still fails
// becomes the current value and its shrinks are walked from the start; it ends when
// no shrink of the current value fails. A candidate is judged by the same replay as
// the shrinkers' (no repair: an invalid candidate is discarded, as RapidCheck
// discards a command sequence whose preconditions fail; rc::state would regenerate
// the invalid command instead, which needs the generator's random state).
#pragma once

#include <cstdint>  // counts

#include "shrinkers/shrink.h"
#include "trace/trace.h"

namespace eevdf::bench {

struct RcShrinkResult {
  trace::Trace trace;            // the smallest failing trace found
  std::uint64_t candidates = 0;  // replays
  std::uint64_t accepted = 0;
  double seconds = 0;
  bool finished = false;  // a local minimum was reached within the budget
};

RcShrinkResult rc_list_shrink(const trace::Trace& failing, const shrinkers::Target& target, double seconds_max);

}  // namespace eevdf::bench
