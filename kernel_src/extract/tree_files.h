// Which files of a kernel tree kernel-src reads, and the repository files that bound
// the extraction (closure.h): one list for the build-time default tree and for
// `--kernel-tree`.
#pragma once

#include <array>
#include <string_view>

namespace eevdf::kernel_src::extract {

// Extracted from, in this order (callees of the rbtree code first).
inline constexpr std::array<std::string_view, 5> kTreeFiles = {
    "include/linux/rbtree_types.h", "include/linux/rbtree.h", "include/linux/rbtree_augmented.h",
    "lib/rbtree.c", "kernel/sched/fair.c"};
// Read for facts only: struct shapes, the sched_features' defaults.
inline constexpr std::array<std::string_view, 2> kTreeHeaders = {"include/linux/sched.h", "kernel/sched/features.h"};
// Relative to the repository's kernel_src/: the shim (the boundary) and the harness.
inline constexpr std::array<std::string_view, 2> kShimFiles = {"shim/types.h", "shim/kernel.h"};
inline constexpr std::string_view kHarnessFile = "harness.c";

}  // namespace eevdf::kernel_src::extract
