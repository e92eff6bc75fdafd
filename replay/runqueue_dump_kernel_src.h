// The runqueue dump of kernel-src (runqueue_dump.h), from the observation interface
// (kernel_src/observation.h): what the tree's own structures hold, whatever its shape.
// Built only with kernel-src (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <string>  // the source's name

#include "kernel_src/machine.h"
#include "replay/runqueue_dump.h"

namespace eevdf::replay {

// The dump of `cpu`; `source` names the build ("": kernel-src and the built-in version).
RunqueueDump runqueue_dump(const kernel_src::Machine& k, int cpu, const std::string& source = "");
// The same from an observation already taken of `k`.
RunqueueDump runqueue_dump(const kernel_src::Machine& k, const kernel_src::Observation& o, const std::string& source);

}  // namespace eevdf::replay
