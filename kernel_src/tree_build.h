// `--kernel-tree DIR`: the kernel-src model of any kernel tree, built at run time.
// The tree's EEVDF code is extracted by closure (extract/closure.h), compiled with the
// embedded harness by the system C compiler into a shared library, cached by the
// content hash of everything that went into it, and loaded. An unchanged tree is
// found in the cache: no extraction result differs, so nothing is compiled.
//
// The cache is $EEVDF_CHECK_CACHE, else $XDG_CACHE_HOME/eevdf-check, else
// ~/.cache/eevdf-check; the compiler is $CC, else cc.
#pragma once

#include <string>

#include <vector>

#include "kernel_src/machine.h"  // c::ksrc_api
#include "kernel_src/mutate/schemata.h"

namespace eevdf::kernel_src {

// Why a tree cannot be built: bad input (exit code 2). `where` is a file (and line)
// of the tree when the trouble is there.
struct TreeError {
  std::string where;
  std::string message;
};

struct Tree {
  std::string dir;        // as given
  std::string version;    // the tree's Makefile release, "6.18.2"
  std::string hash;       // the build's content hash (hex)
  std::string library;    // the cached shared library
  bool from_cache = false;
  const c::ksrc_api* api = nullptr;
};

// Builds (or finds in the cache) and loads the tree at `dir`; the same tree is loaded
// once per process. Thread-safe. Throws TreeError.
const Tree& load_tree(const std::string& dir);

// One build of the tree at `dir` holding the selected mutants (mutate/schemata.h),
// found in the cache like any build; not a tree that select_tree() can choose. A
// mutant the C compiler refuses is left out (stillborn) and the rest built again.
// Throws TreeError.
struct MutantTree {
  Tree tree;
  std::vector<mutate::Built> mutants;   // a Machine's set_mutant(index + 1) runs mutants[index]
  std::vector<std::string> stillborn;   // ids left out: they do not compile
};
MutantTree load_mutant_tree(const std::string& dir, const mutate::Selection& selection);

// The build the kernel-src model runs when a Machine is given none: the tree of
// select_tree(), else the default tree built in (Debian's 6.12).
const c::ksrc_api* selected_api();
// Chosen once, by the command line, before any Machine is made.
void select_tree(const Tree& tree);
// The selected tree's release and directory for reports ("" dir: the built-in tree).
std::string selected_version();
std::string selected_dir();

std::string cache_root();

}  // namespace eevdf::kernel_src
