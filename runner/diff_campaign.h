// The fast_matches_reference campaign: generated traces over every topology shape,
// random feature sets, some unphysical or steady, some with an injection, each run
// through the reference and the fast model (scalar and SIMD builds) side by side
// (replay/fast_diff.h). Deterministic: trace k's knobs and events derive from
// (seed, k) only. Behind the hidden `eevdf-check diff-campaign`.
#pragma once

#include <cstdint>  // seeds, counts
#include <string>   // the report

#include "generator/generator.h"

namespace eevdf::runner {

struct DiffCampaignOptions {
  std::uint64_t seed = 1;
  std::uint64_t first = 0;   // traces first .. first + traces - 1
  std::uint64_t traces = 1000;
  bool scalar = true;        // check the scalar build
  bool simd = true;          // check the SIMD build
};

struct DiffCampaignResult {
  std::uint64_t traces = 0;
  std::uint64_t events = 0;             // events compared (both builds count once)
  std::uint64_t overflow_stops = 0;     // traces where the reference reported an overflow
  std::uint64_t overflow_seen_fast = 0; // ... and the fast model detected one in that event
  std::uint64_t mismatches = 0;
  std::uint64_t first_mismatch_index = 0;
  std::string first_mismatch;           // "trace K (seed S, scalar): line L (event N): ..."
};

// The generator knobs of trace `index` (drawn from its own seed).
generator::Options diff_trace_options(std::uint64_t trace_seed);

DiffCampaignResult run_diff_campaign(const DiffCampaignOptions& options);

}  // namespace eevdf::runner
