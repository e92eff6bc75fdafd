// `--kernel-tree DIR`: which kernel tree's fair.c the kernel-src model runs in this
// process (kernel_src/tree_build.h), chosen once by the command line.
#pragma once

#include <optional>
#include <string>

#include "properties/kernel_src_judged.h"  // TreeTraits

namespace eevdf::replay {

struct KernelTreeChoice {
  std::string version;   // the tree's release
  std::string hash;      // its build's content hash
  bool from_cache = false;
  std::string error;     // "" when loaded; else "where: message" (bad input, exit 2)
};

// Builds or finds the tree's kernel-src model and selects it for every kernel-src
// machine made afterwards.
KernelTreeChoice select_kernel_tree(const std::string& dir);

#ifdef EEVDF_HAVE_KERNEL_SRC
}  // namespace eevdf::replay
namespace eevdf::kernel_src {
struct Tree;
}
namespace eevdf::replay {
// Selects a tree built by the caller (a mutant build, kernel_src/tree_build.h
// load_mutant_tree; it outlives every machine) as select_kernel_tree does.
KernelTreeChoice select_built_tree(const kernel_src::Tree& tree);
#endif

// The directory of the selected tree ("": the built-in default, or none selected).
std::string selected_kernel_tree();
// A tree selected by select_kernel_tree (any tree given, even a copy of the default):
// judged by its mirror alone, by the forms of its shape (kernel_src_tree_run.h).
struct TreeJudgedAlone {
  std::string dir;
  std::string version;
  std::string forms;              // "6.12", "6.18"; "" when the mirror has none for its shape
  std::string no_forms;           // then why (the shape), for an exit 2
  properties::TreeTraits traits;  // reference_lockstep false
};
// nullopt: the built-in default tree (the reference lockstep).
std::optional<TreeJudgedAlone> tree_judged_alone();

// The reference's profile whose rules a release follows ("6.18.2", "linux-source-6.12
// 6.12.117-1"): "6.12" for 6.12, else the newest, "6.18".
std::string profile_for_release(const std::string& release);

}  // namespace eevdf::replay
