// What a campaign judges and what it does not: the rows of `run`'s table, and the
// list after it of every other catalogued property with the way to judge it, so
// that a clean run never reads as covering what it did not look at.
#pragma once

#include <string>  // names, hints
#include <vector>  // lists

#include "runner/options.h"

namespace eevdf::runner {

// The properties judged on each trace: per event in the kernel arithmetic, and the
// ideal-only ones of the ideal-arithmetic sample (Options::steady_every), in
// catalogue order. The differential checks switched on (--diff-every,
// --ideal-every) are reported apart, kernel_matches_reference last (kernel-src).
std::vector<std::string> judged_properties(const Options& options);

struct Unjudged {
  std::string property;
  std::string how;  // what judges it: a flag of `run`, another command, the tests
};

// Every catalogued property these options leave unjudged, in catalogue order.
std::vector<Unjudged> not_judged(const Options& options);

}  // namespace eevdf::runner
