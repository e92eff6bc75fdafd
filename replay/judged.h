// What one replay judges (properties/judging.h), from its flags and the trace's
// header, and the refusal (exit 2) of what it cannot judge: a --check, an `expect
// violation` or the property of an `expect finding` that no pass of this replay
// evaluates is bad input naming the flag that judges it, never a pass.
#pragma once

#include <string>  // file names

#include "properties/judging.h"
#include "replay/replay.h"
#include "trace/trace.h"

namespace eevdf::replay {

// What a replay with `options` of a trace with `header` judges over all its passes;
// `arith` is the replay's arithmetic (`both`: a kernel and an ideal pass).
properties::Judging judging(const Options& options, const trace::Header& header, trace::Arith arith);

// The property each trace-wide expectation of `header` needs judged: every `expect
// violation P`, and the property of every `expect finding` (properties/findings.h).
std::vector<std::string> expected_properties(const trace::Header& header);

// Throws trace::TraceError (exit 2) naming `file` when a --check, or (in a replay that
// judges expectations: not the differential modes, which judge only their own
// property) a trace-wide expectation, names a property this replay does not judge
// and Options::judged_elsewhere does not list.
void require_judged(const Options& options, const trace::Header& header, trace::Arith arith, const std::string& file);

// One replay of a trace that `corpus check` runs, or why it cannot run in this
// build (a missing engine: the trace is then skipped, never passed).
struct PlannedReplay {
  Options options;
  std::string missing;  // "" when it can run
};

// The replays that together judge every trace-wide expectation of `header`, each
// with the engine it needs: the plain replay in the arithmetic its expectations need
// (when the header names none), or --model=kernel-src for kernel_matches_reference
// (it judges the rest too); --diff for fast_matches_reference and --diff=ideal for
// ideal_tracks_kernel beside the plain replay, which leaves them to those.
// `kernel_src`: whether this build's kernel-src engine may be used (corpus check
// --without-kernel-src plans as a build without it would).
std::vector<PlannedReplay> plan_replays(const trace::Header& header, bool kernel_src = have_kernel_src());

}  // namespace eevdf::replay
