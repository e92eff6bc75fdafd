// The tree choice of kernel_tree.h.
#include "replay/kernel_tree.h"

#include <regex>

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/tree_build.h"
#include "replay/kernel_src_tree_run.h"
#endif

namespace eevdf::replay {
namespace {
std::optional<TreeJudgedAlone> alone;  // set once, by the command line
}  // namespace

std::optional<TreeJudgedAlone> tree_judged_alone() { return alone; }

std::string profile_for_release(const std::string& release) {
  static const std::regex version(R"((\d+)\.(\d+))");
  std::smatch m;
  return std::regex_search(release, m, version) && m[1] == "6" && m[2] == "12" ? "6.12" : "6.18";
}

#ifdef EEVDF_HAVE_KERNEL_SRC
KernelTreeChoice select_kernel_tree(const std::string& dir) {
  try {
    return select_built_tree(kernel_src::load_tree(dir));
  } catch (const kernel_src::TreeError& e) {
    KernelTreeChoice out;
    out.error = e.where + ": " + e.message;
    return out;
  }
}

KernelTreeChoice select_built_tree(const kernel_src::Tree& tree) {
  kernel_src::select_tree(tree);
  KernelTreeChoice out;
  out.version = tree.version;
  out.hash = tree.hash;
  out.from_cache = tree.from_cache;
  TreeJudgedAlone a;
  a.dir = tree.dir;
  a.version = tree.version;
  try {
    a.forms = selected_tree_forms();
    a.traits = selected_tree_traits();
  } catch (const UnknownShape& e) {
    a.no_forms = e.what();
  }
  alone = a;
  return out;
}
std::string selected_kernel_tree() { return kernel_src::selected_dir(); }
#else
std::string selected_kernel_tree() { return {}; }
KernelTreeChoice select_kernel_tree(const std::string& dir) {
  KernelTreeChoice out;
  out.error = dir + ": this build has no kernel-src model (linux-source-6.12 was not installed): run `bash ci/setup`, "
                    "then configure and build again";
  return out;
}
#endif

}  // namespace eevdf::replay
