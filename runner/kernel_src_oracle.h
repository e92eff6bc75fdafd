// The generator's oracle (generator/oracle.h) for a kernel tree: the selected tree's
// kernel-src model (kernel_src/tree_build.h) decides which events are legal next, so
// that the traces of `run --kernel-tree` are valid on the real code under test.
#pragma once

#include "generator/oracle.h"

namespace eevdf::runner {

// nullptr in builds without kernel-src.
generator::OracleFactory kernel_src_oracle();

}  // namespace eevdf::runner
