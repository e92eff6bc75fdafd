// The shared `--kernel-tree` flag (kernel_tree_option.h).
#include "cli/kernel_tree_option.h"

#include <fmt/format.h>

#include <iostream>

#include "replay/kernel_tree.h"

namespace eevdf::cli {

void add_kernel_tree_option(CLI::App* cmd, std::string& dir) {
  cmd->add_option("--kernel-tree", dir,
                  "Run the kernel-src model on the fair.c of this kernel tree (v6.12 to v7.1; built once with the "
                  "system C compiler and cached); implies --model=kernel-src. Default: Debian's linux-source-6.12")
      ->type_name("DIR");
}

int select_kernel_tree(const std::string& dir) {
  if (dir.empty()) return 0;
  const replay::KernelTreeChoice c = replay::select_kernel_tree(dir);
  if (!c.error.empty()) {
    std::cerr << c.error << "\n";
    return 2;
  }
  std::cerr << fmt::format("kernel-src: Linux {} from {} ({} build {})\n", c.version, dir,
                           c.from_cache ? "cached" : "new", c.hash);
  return 0;
}

int select_kernel_tree(const std::string& dir, const CLI::App& cmd, std::string& model) {
  if (dir.empty()) return 0;
  if (cmd.count("--model") != 0 && model != "kernel-src") {
    std::cerr << fmt::format("--kernel-tree runs the kernel-src model: it cannot go with --model={}\n", model);
    return 2;
  }
  model = "kernel-src";
  return select_kernel_tree(dir);
}

}  // namespace eevdf::cli
