// `eevdf-check diff`: two implementations of the fair class (kernel-src of two trees,
// or a tree and the reference's matching profile) in lockstep on the generated traces
// of a campaign (the run's generator under the trees' profile, trace k drawn from
// (seed, k) alone), compared after every event (replay/implementation_lockstep.h).
// The first difference (the lowest trace index, whatever --jobs) is shrunk with the
// lockstep as judge (shrinkers/implementations_differ.h) and reported with both
// runqueue dumps at the event where it shows. Available when the build has kernel-src.
#pragma once

#include <cstdint>  // seeds, counts
#include <optional>  // the first difference
#include <string>    // the difference

#include "generator/generator.h"
#include "replay/runqueue_dump.h"
#include "shrinkers/shrink.h"
#include "trace/trace.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/implementation.h"
#endif

namespace eevdf::runner {

struct TreeDiffOptions {
  std::uint64_t seed = 1;
  std::uint64_t traces = 200;
  int jobs = 1;  // threads; the result never depends on it
  // The traces' `kernel` profile: the release of the trees under test (its base
  // slice, and the reference's profile when one side is the reference).
  std::string profile = "6.12";
  // When set, A decides which drawn events are legal (a tree's kernel-src: its
  // decisions differ from the reference's); else the reference of `profile` does.
  generator::OracleFactory oracle;
};

// Where a trace first shows the two implementations differing.
struct FirstDifference {
  std::uint64_t index = 0;  // the campaign's trace index
  std::uint64_t seed = 0;   // that trace's seed
  int line = 0;             // the event after which they differ (0: at the start)
  std::string difference;   // "CPU 0: task 3: vruntime: A 10, B 11"
};

struct TreeDiffResult {
  std::uint64_t traces = 0;
  std::uint64_t events = 0;          // events compared
  std::uint64_t differing_traces = 0;
  std::uint64_t overflow_stops = 0;  // traces whose comparison stopped at a reference's s64 overflow
  std::uint64_t crash_stops = 0;     // ... where both crashed alike
  std::uint64_t refused_stops = 0;   // ... where A refused an event the generator drew
  // Differing traces where A's tree showed a stale augmented slice at or before the
  // difference (ImplementationLockstep::a_augment_stale): against the reference, the
  // difference the reference makes on purpose (docs/MODEL.md §3.3).
  std::uint64_t differing_after_stale_augment = 0;
  std::optional<FirstDifference> first;
};

// What a replay of one trace through both shows: the first difference, the event it
// follows, and both runqueue dumps of the CPU it is about, after that event.
struct DifferenceReport {
  bool differ = false;
  int line = 0;
  std::string event;  // the event's text ("" at the start)
  std::string difference;
  int cpu = -1;  // the CPU dumped (the difference's, else the event's, else 0)
  replay::RunqueueDump a, b;
  std::string stop;  // why the comparison ended early without a difference ("": it did not)
  std::uint64_t events = 0;
};

// The generator settings of the campaign: run's defaults without what the real code
// cannot run (kernel_src_generator_options), under `profile`.
generator::Options tree_diff_generator_options(const TreeDiffOptions& options);

#ifdef EEVDF_HAVE_KERNEL_SRC
TreeDiffResult run_tree_diff(const TreeDiffOptions& options, const replay::ImplementationFactory& a,
                             const replay::ImplementationFactory& b);

// `t` through both, compared after every event. Throws trace::TraceError when `a`
// refuses an event (named by its line).
DifferenceReport replay_difference(const trace::Trace& t, const std::string& file,
                                   const replay::ImplementationFactory& a, const replay::ImplementationFactory& b);

struct ShrunkDifference {
  trace::Trace trace;
  shrinkers::Stats stats;
};
// Regenerates trace `first.index` of the campaign `options` and shrinks it to a minimal
// trace on which `a` and `b` still differ.
ShrunkDifference shrink_difference(const TreeDiffOptions& options, const FirstDifference& first,
                                   const replay::ImplementationFactory& a,
                                   const replay::ImplementationFactory& b, double seconds_max);
#endif

}  // namespace eevdf::runner
