// Pass 3, fewer CPUs.
//
// Tries, in this order, each as a topology `1xN` (only the CPU count matters to the
// model: it scales the base slice, docs/MODEL.md §2):
//   1. every CPU folded onto CPU 0 (topology 1x1);
//   2. the CPUs the trace names renumbered 0..k-1 in their order (topology 1xk);
//   3. a CPU folded into each lower one, lowest first, the highest CPU first and
//      then the next lower ones (the CPUs above it shift down: one CPU fewer),
//      repeated while one is accepted. The highest first is the contract's
//      1-minimality; the others find the smaller machine when the failure needs a
//      lone CPU that happens to have the highest number.
// A fold maps `cpu=`, `tick <cpu>` and the declarations' `cpu=`. Each candidate is
// tried with the header's `base_slice` as it is, then (if different) with the
// `base_slice` that keeps the scaled slice the same on the smaller machine, when
// one exists: a failure that needs the slice of a big machine is kept on a small one.
// Keeps: the first candidate that still fails at each step.
// Terminates: every accepted candidate has fewer CPUs, so at most ncpus steps, each
// trying at most ncpus^2 / 2 folds (ncpus is small by then: step 2 renumbered).
#pragma once

#include <optional>  // the compensating base slice
#include <vector>    // CPU maps

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kReduceCpusPass = "reduce_cpus";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool reduce_cpus_pass(Search& search, Work& w, PassStats& stats);

// `w` with every CPU c named mapped to map[c], on a `1x<ncpus>` topology (the
// base slice untouched). Every map[c] must be below ncpus.
Work fold_cpus(const Work& w, const std::vector<int>& map, int ncpus);

// The `base_slice` (normalized, ns) that gives a machine of `ncpus` CPUs the scaled
// base slice `header` has; nullopt when none does exactly. Absent from the header
// (nullopt inside) when that is the default.
std::optional<std::optional<std::uint64_t>> compensating_base_slice(const trace::Header& header, int ncpus);

}  // namespace eevdf::shrinkers
