// One trace of a campaign: generate it from its seed, replay it event by event in
// the kernel arithmetic with every selected property and the coverage probes, and
// tally what happened.
#pragma once

#include <cstdint>  // index, digest

#include "runner/options.h"
#include "runner/tally.h"

namespace eevdf::runner {

struct TraceOutcome {
  Tally tally;               // this trace alone
  std::uint64_t digest = 0;  // FNV-1a of its event texts and its violations
};

// Trace `index` of the campaign; the same (options.seed, index, generator options)
// gives the same outcome on any thread or shard.
TraceOutcome run_trace(const Options& options, std::uint64_t index);

// FNV-1a, 64 bits: the run digest folds per-trace digests in index order.
std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes);
inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;

}  // namespace eevdf::runner
