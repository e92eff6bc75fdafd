// The runqueue dumps of a `run` failure report (replay/runqueue_dump.h): the shrunk
// trace replayed to the first violation of the failure's property, and the runqueue
// of that violation's CPU after its event. The properties judged on the reference
// dump the reference (kernel arithmetic, the trace's profile); a kernel-src run dumps
// kernel-src, and the reference beside it at a kernel_matches_reference difference.
// The two arithmetics' and the fast model's differentials have reports of their own
// (`replay --diff`): none.
#pragma once

#include <vector>  // the dumps

#include "replay/runqueue_dump.h"
#include "runner/tally.h"
#include "trace/trace.h"

namespace eevdf::runner {

// Empty when `shrunk` does not violate `v.property`, or the property is one of the
// differentials above.
std::vector<replay::RunqueueDump> failure_runqueues(const trace::Trace& shrunk, const FirstViolation& v,
                                                    bool kernel_src);

}  // namespace eevdf::runner
