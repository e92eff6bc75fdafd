// `--kernel-tree DIR` on replay, run, shrink and bench: the kernel tree whose fair.c
// the kernel-src model runs (default: Debian's 6.12, built in).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace eevdf::cli {

void add_kernel_tree_option(CLI::App* cmd, std::string& dir);

// Loads and selects the tree when `dir` is given, saying on stderr which release it
// runs and whether its build came from the cache. 0, or 2 with the error printed.
int select_kernel_tree(const std::string& dir);

// For commands with `--model`: a tree implies --model=kernel-src; asking for another
// model beside it is a usage error (2, printed). Then select_kernel_tree.
int select_kernel_tree(const std::string& dir, const CLI::App& cmd, std::string& model);

}  // namespace eevdf::cli
