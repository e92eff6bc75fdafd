// The generator's oracle (generator/oracle.h) for a kernel tree: the tree's kernel-src
// model decides which events are legal next, so that the traces of `run --kernel-tree`
// and `diff --kernel-tree` are valid on the real code under test.
#pragma once

#include "generator/oracle.h"

namespace eevdf::kernel_src::c {
struct ksrc_api;
}

namespace eevdf::runner {

// The build `api` (nullptr: the selected tree, kernel_src/tree_build.h) decides.
// nullptr in builds without kernel-src.
generator::OracleFactory kernel_src_oracle(const kernel_src::c::ksrc_api* api = nullptr);

}  // namespace eevdf::runner
