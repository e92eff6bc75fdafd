// `eevdf-check mutate`: the mutation analysis of a tree's fair.c. Every mutant of one
// schemata build (kernel_src/mutate/schemata.h) runs the campaign of `run
// --kernel-tree` (the tree judged alone by its mirror) with a fixed seed and trace
// count, stopping at its first violation; a mutant no property kills is run in
// lockstep against the unmutated code (`diff`'s tree-against-tree comparison) on the
// same campaign: no difference makes it a suspected equivalent, a difference a
// survivor, reported with that difference shrunk (the missing property).
//
// Each mutant runs in a child process of its own: a mutant may crash the process or
// loop forever, which the parent sees as a kill by crash (a signal, or no answer
// within the timeout). Available when the build has kernel-src.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "runner/options.h"
#include "runner/tree_diff.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/tree_build.h"
#endif

namespace eevdf::runner {

enum class Verdict { killed, crashed, survived, not_reached, equivalent };
const char* verdict_name(Verdict v);

struct MutantOutcome {
  Verdict verdict = Verdict::survived;
  // killed: the property; crashed: the crash ("NULL pick: ...", "signal 11", "no answer
  // within 60 s").
  std::string by;
  std::uint64_t trace = 0;        // killed, crashed: the campaign's trace index of the kill
  std::uint64_t traces_run = 0;   // until the kill, or the campaign's
  std::uint64_t events = 0;       // events run until the kill
  unsigned long reached = 0;      // executions of the mutated statement
  double ms = 0;                  // wall time of the mutant's analysis (not deterministic)
  // The campaign stopped at the time budget before its last trace: the verdict then
  // depends on the machine's speed (MutationOptions::budget_s).
  bool budget_reached = false;
  // survived: where its state first differs from the unmutated code's, and that trace
  // shrunk (its text).
  std::uint64_t diff_trace = 0;
  int diff_line = 0;
  std::string difference;
  std::string shrunk;
};

struct MutationOptions {
  Options run;                  // the campaign (kernel_tree_alone, jobs 1)
  TreeDiffOptions diff;         // the lockstep of the mutants no property kills
  int jobs = 1;                 // child processes at once; the outcomes do not depend on it
  double timeout_s = 120;       // per mutant
  double shrink_seconds = 10;   // per survivor
  // Seconds of campaign per mutant, on top of the trace count (0: the count alone, the
  // report then depends on the seed alone). A mutant still alive at the budget stops
  // there; its lockstep runs over the traces its campaign ran.
  double budget_s = 0;
};

// The properties (and known findings) the unmutated code violates on the campaign:
// they kill no mutant.
struct Baseline {
  std::set<std::string> properties;
  std::set<std::string> findings;
};

#ifdef EEVDF_HAVE_KERNEL_SRC
Baseline run_baseline(const Options& run);

// Every mutant of `tree` (selected: replay::select_built_tree), in order;
// `done(index, outcome)` is called as each finishes (any order).
std::vector<MutantOutcome> analyse_mutants(const kernel_src::MutantTree& tree, const MutationOptions& options,
                                           const Baseline& baseline,
                                           const std::function<void(std::size_t, const MutantOutcome&)>& done = {});
#endif

}  // namespace eevdf::runner
