// kernel_matches_reference on a generated trace (docs/PROPERTIES.md): the trace is drawn
// under the `kernel 6.12` profile (validity depends on its decisions) and replayed
// through the reference's 6.12 profile and kernel-src side by side, every state field
// compared after every event; with a sink, the properties judge the real code where
// it shows them what they read (its mirror, replay/kernel_src_mirror.h) and run on
// the reference in lockstep otherwise (their verdicts are the real code's while the
// two agree: the comparison stops at the first difference). Available when the build
// has kernel-src.
#pragma once

#include <cstdint>  // seeds, counts
#include <map>      // per property
#include <string>   // the difference

#include "generator/generator.h"
#include "properties/property.h"
#include "properties/registry.h"

namespace eevdf::runner {

// Whether this build has kernel-src (the kernel source package was installed).
bool kernel_src_available();

// The generator settings of a kernel-src campaign: `o` under the 6.12 profile, with
// what the real code cannot run (injections, RUN_TO_PARITY_WAKEUP) left out.
generator::Options kernel_src_generator_options(generator::Options o);

struct DiffOutcome {
  std::uint64_t events = 0;
  int line = 0;            // the event after which they first differ (0: none)
  std::uint64_t time_ns = 0;
  std::string difference;  // empty: they agree on the whole trace
  std::uint64_t draws = 0;  // the generator's PRNG draws (the run digest counts them)
  // Where the real kernel would have crashed (a NULL pick after an s64 overflow, where
  // the reference leaves the CPU idle and its properties report it); the comparison
  // stops there. Empty: no crash. The sink has it as a kernel_warn, like every
  // warning of the real code (KernelSrcLockstep::take_kernel_warns).
  std::string oops;
  bool null_pick = false;  // the oops is that NULL pick (the known finding), not another crash
  // The reference reported an s64 overflow before the difference or crash: past it the
  // kernel's rbtree order under wrapped sums is not the reference's exact one (the pick
  // needs the tree's shape, like stale_min_slice), so a difference then is a
  // consequence of the overflow, not a disagreement of the profile.
  bool after_overflow = false;
  // Per property, the events at which it judged, on the mirror or the reference
  // (Property::evaluated);
  // kernel_matches_reference: the events compared.
  std::map<std::string, std::uint64_t> evaluated;
};

// Generates trace `seed` with `o` (already 6.12: kernel_src_generator_options) and
// compares; the `selection` of properties reports to `sink` (none without a sink).
// Requires kernel_src_available().
DiffOutcome diff_generated(const generator::Options& o, std::uint64_t seed, properties::Sink* sink = nullptr,
                           const properties::Selection& selection = {});

}  // namespace eevdf::runner
