// Whether a property is judged at all by one replay, campaign or shrink: a `--check
// P`, an `expect violation P` or an `expect finding` of P that nothing judges is bad
// input (exit 2) naming what to add, never a clean result that checked nothing.
// Every command asks unjudged(); none decides it on its own.
#pragma once

#include <string>       // reasons
#include <string_view>  // names
#include <vector>       // judged system properties

#include "properties/kernel_src_judged.h"  // TreeTraits

namespace eevdf::properties {

// What one replay, campaign or shrink judges.
struct Judging {
  std::string_view profile = "6.18";  // the kernel profile the checks run under
  bool kernel_arith = true;           // the per-event checks in the kernel arithmetic
  bool ideal_arith = false;           // ... in the ideal arithmetic
  // The whole-system properties (catalogue: Exact::system) it judges: a
  // differential with its second implementation (fast_matches_reference,
  // ideal_tracks_kernel, kernel_matches_reference).
  std::vector<std::string_view> system;
  // The real code (kernel-src) is the system under test: the per-event checks judge
  // its mirror where the harness shows them what they read (kernel_src_judged.h);
  // with `reference_lockstep` the others run on the 6.12 reference in lockstep with
  // it (the default tree: valid while kernel_matches_reference holds). Without it (a
  // tree of --kernel-tree) the tree is judged by its mirror alone: what `tree` leaves
  // unjudged (tree_gaps) is not judged at all.
  bool kernel_src = false;
  bool reference_lockstep = false;
  TreeTraits tree;
};

// Whose flags a hint names.
enum class Asker { replay, run, shrink, explore };

// "" when `name` is judged under `j` (or is not a catalogued name: the caller's
// parser rejects those); else why not, and what to add to judge it.
std::string unjudged(std::string_view name, const Judging& j, Asker asker);

}  // namespace eevdf::properties
