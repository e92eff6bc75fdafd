// Test helpers: noise to pad a failing trace with, and an independent check of
// 1-minimality (not the shrinker's own candidate code, so the two can disagree).
#pragma once

#include <cstddef>  // counts
#include <string>   // file names

#include "trace/trace.h"

namespace eevdf::shrinkers::testing {

// The corpus trace `name` (under corpus/), parsed.
trace::Trace load_corpus_trace(const std::string& relative_path);

// `t` plus `noise_count` noise events of verbs legal in every state the model can be
// in: six new tasks (ids above every declared one, declared on the last CPU) forked
// first, then ticks, renices and setslices of the noise tasks only. Expect statements
// of the body are dropped (the header's trace-wide ones stay).
// Interleaved: after each original event, a share of the noise at that event's time.
trace::Trace pad_interleaved(const trace::Trace& t, std::size_t noise_count);
// Appended: all the noise after the last event, 1 ms apart.
trace::Trace pad_appended(const trace::Trace& t, std::size_t noise_count);

std::size_t count_events(const trace::Trace& t);

// `t` without its i-th event and, if that is `fork T`, every event naming T; task
// declarations no event names any more are dropped. Expect statements are dropped.
trace::Trace without_event(const trace::Trace& t, std::size_t i);

}  // namespace eevdf::shrinkers::testing
