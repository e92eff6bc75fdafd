// A campaign: traces claimed by index from a shared counter by `jobs` threads, each
// generated and checked alone, tallies merged, per-trace digests folded in index
// order, so the result depends on the seed and the number of traces run, never on
// the threads. A time budget only decides how many traces that is: claimed traces
// always finish, so the traces run are a prefix of the shard's sequence.
#pragma once

#include <chrono>      // progress period
#include <cstdint>     // counts
#include <functional>  // progress callback
#include <string>      // reasons
#include <vector>      // properties

#include "runner/options.h"
#include "runner/tally.h"

namespace eevdf::runner {

struct Progress {
  std::uint64_t traces = 0;
  std::uint64_t events = 0;
  std::uint64_t violations = 0;  // findings and consequences apart
  double elapsed_s = 0;
};

struct Result {
  Tally tally;
  std::uint64_t digest = 0;            // FNV-1a over the per-trace digests in index order
  std::vector<std::string> properties;  // judged on each trace (judged_properties)
  std::string stopped_because;          // "trace count" or "time"
  double seconds = 0;
};

using ProgressFn = std::function<void(const Progress&)>;

// Runs the campaign; `progress` (may be empty) is called from the calling thread
// every `period` while it runs. Options must have passed validate().
Result run_campaign(const Options& options, const ProgressFn& progress = {},
                    std::chrono::milliseconds period = std::chrono::milliseconds(250));

// The trace indices of a shard that a count budget allows (tests, documentation).
std::vector<std::uint64_t> shard_indices(const Options& options);

// The violations a run fails on, one per property (the lowest trace index), in
// catalogue order; known findings too with --strict.
std::vector<FirstViolation> failures(const Result& result, bool strict);

}  // namespace eevdf::runner
