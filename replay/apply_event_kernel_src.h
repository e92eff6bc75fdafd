// One trace event into kernel-src (kernel_src/machine.h): apply_event.h's bridge,
// with the one thing it needs from kernel-src's views, found by argument-dependent
// lookup. Shared by replay, run and bench; only in builds that have kernel-src
// (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include "kernel_src/machine.h"
#include "replay/apply_event.h"

namespace eevdf::kernel_src {

// The index of the task running on `cpu`, or -1 when it is idle.
inline int task_running_on(const Machine& m, int cpu) { return m.curr_index(cpu); }

}  // namespace eevdf::kernel_src
