// The properties exact only in the ideal arithmetic (catalogue: Exact::ideal, today
// lag_bound_steady) on a sample of a campaign's traces: each sampled trace is
// replayed again in the ideal arithmetic with just those properties, so that a
// default `run` judges them too (Options::steady_every).
#pragma once

#include <cstdint>  // index, seed
#include <string>   // names
#include <vector>   // names

#include "properties/property.h"
#include "runner/options.h"
#include "runner/tally.h"

namespace eevdf::runner {

// The ideal-only properties the selection keeps, in catalogue order.
std::vector<std::string> ideal_only_properties(const properties::Selection& selection);

// Whether trace `index`, steady or not, gets the ideal-arithmetic replay.
bool ideal_only_sampled(const Options& options, std::uint64_t index, bool steady);

// Regenerates the trace of `seed` and replays it in the ideal arithmetic with the
// ideal-only properties: violations to `sink`, measures and evaluated counts to `t`.
void replay_ideal_only(const Options& options, std::uint64_t seed, Tally& t, properties::Sink& sink);

}  // namespace eevdf::runner
