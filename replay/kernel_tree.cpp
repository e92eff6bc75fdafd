// The tree choice of kernel_tree.h.
#include "replay/kernel_tree.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/tree_build.h"
#endif

namespace eevdf::replay {

#ifdef EEVDF_HAVE_KERNEL_SRC
KernelTreeChoice select_kernel_tree(const std::string& dir) {
  KernelTreeChoice out;
  try {
    const kernel_src::Tree& tree = kernel_src::load_tree(dir);
    kernel_src::select_tree(tree);
    out.version = tree.version;
    out.hash = tree.hash;
    out.from_cache = tree.from_cache;
  } catch (const kernel_src::TreeError& e) {
    out.error = e.where + ": " + e.message;
  }
  return out;
}
#else
KernelTreeChoice select_kernel_tree(const std::string& dir) {
  KernelTreeChoice out;
  out.error = dir + ": this build has no kernel-src model (linux-source-6.12 was not installed): run `bash ci/setup`, "
                    "then configure and build again";
  return out;
}
#endif

}  // namespace eevdf::replay
