// Mutant schemata: one build of a tree holds every mutant, each behind a run-time
// switch. For each mutated function D (the name it is defined under: the kernel's,
// or ksrc_real_<name> behind a harness wrapper) the extraction emits the original as
// `(D)` and one copy per mutant, ksrc_mut<id>_D, and every call `D(...)` becomes a
// call through a table indexed by the installed machine's mutant (shim/kernel.h
// ksrc_mutant_slot). A use of D that is not a call (a function pointer) reaches the
// original: its mutants are not reached. Each copy starts with `#line 1
// "ksrc-mutant-<id>"`, so that a compile error names the mutant that caused it.
//
// Only functions of kernel/sched/fair.c are mutated.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kernel_src/extract/closure.h"
#include "kernel_src/mutate/mutants.h"

namespace eevdf::kernel_src::mutate {

inline constexpr const char* kMutatedFile = "kernel/sched/fair.c";
inline constexpr const char* kMutantFilePrefix = "ksrc-mutant-";

struct Selection {
  std::set<std::string> functions;  // empty: every function of the mutated file
  std::set<Operator> operators;     // empty: every operator
  std::set<std::string> excluded;   // mutant ids left out (they do not compile)
};

// One mutant of a build: its run-time id is its index + 1 (0: the unmutated code).
struct Built {
  Mutant mutant;
  std::string id;
  std::string diff;  // one_line_diff (kernel text: printed, never stored in the repository)
};

class Schemata {
 public:
  explicit Schemata(Selection selection) : selection_(std::move(selection)) {}
  // The extraction's rewriter (closure.h Request::rewrite); the Schemata outlives it.
  extract::Rewriter rewriter();
  const std::vector<Built>& mutants() const { return mutants_; }

 private:
  std::optional<extract::Rewritten> rewrite(const std::string& name, const std::string& path, const std::string& text,
                                            std::size_t name_at, const std::string& defined_as);
  Selection selection_;
  std::vector<Built> mutants_;
};

}  // namespace eevdf::kernel_src::mutate
