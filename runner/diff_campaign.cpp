// The fast_matches_reference campaign; see diff_campaign.h.
#include "runner/diff_campaign.h"

#include <fmt/format.h>

#include <array>

#include "base/assert.h"
#include "generator/prng.h"
#include "model/injections.h"
#include "replay/fast_diff.h"
#include "replay/model_config.h"
#include "runner/options.h"

namespace eevdf::runner {
namespace {

// The topology shapes drawn: one CPU (every event on one queue), small machines, the
// default 2x64 and a partial LLC (1x12).
constexpr std::array<std::array<int, 2>, 6> kShapes{{{1, 1}, {1, 2}, {1, 4}, {1, 12}, {2, 64}, {2, 4}}};
// The injections the model implements (stale_min_slice is not).
constexpr std::array<const char*, 5> kInjections{"reweight_unscaled_lag", "reweight_unclamped_lag",
                                                 "parity_ignores_min_slice", "buddy_accepts_delayed",
                                                 "iowait_dec_new_rq"};

// Runs one trace through one build; returns false at a mismatch (reported in `r`).
template <bool Simd>
bool diff_one(const generator::Options& o, std::uint64_t seed, std::uint64_t index, DiffCampaignResult& r,
              bool count_events) {
  generator::Generator gen(seed, o);
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<generated>");
  replay::FastDiff<Simd> diff(config, replay::make_task_specs(gen.header()));
  while (auto e = gen.next()) {
    const auto step = diff.apply(*e);
    using Step = typename replay::FastDiff<Simd>::Step;
    EEVDF_ASSERT(step != Step::illegal, "the generator wrote an illegal event: " + diff.illegal_reason());
    if (count_events) ++r.events;
    if (step == Step::kernel_warn) return true;  // both stop at the same condition
    if (step == Step::overflow) {
      if (count_events) {
        ++r.overflow_stops;
        if (diff.fast_saw_overflow()) ++r.overflow_seen_fast;
      }
      return true;
    }
    if (step == Step::mismatch) {
      if (r.mismatches++ == 0) {
        r.first_mismatch_index = index;
        r.first_mismatch = fmt::format("trace {} (seed {}, {} build): {}", index, seed, Simd ? "SIMD" : "scalar",
                                       diff.mismatch().message());
      }
      return false;
    }
  }
  return true;
}

}  // namespace

generator::Options diff_trace_options(std::uint64_t trace_seed) {
  generator::Prng prng(generator::Prng::split(trace_seed, 0xd1ff));
  generator::Options o = default_generator_options();
  const auto& shape = kShapes[prng.range_inclusive(0, kShapes.size() - 1)];
  o.topology.sockets = shape[0];
  o.topology.cores_per_socket = shape[1];
  o.busy_cpus_max = std::min(shape[0] * shape[1], 8);
  o.tasks_max = static_cast<int>(prng.range_inclusive(2, prng.chance({1, 4}) ? 64 : 16));
  o.events_max = prng.chance({1, 8}) ? 2000 : 500;
  o.unphysical = prng.chance({1, 8});
  if (prng.chance({1, 8})) o.injections.push_back(kInjections[prng.range_inclusive(0, kInjections.size() - 1)]);
  return o;
}

DiffCampaignResult run_diff_campaign(const DiffCampaignOptions& options) {
  DiffCampaignResult r;
  for (std::uint64_t index = options.first; index < options.first + options.traces; ++index) {
    const std::uint64_t seed = trace_seed(options.seed, index);
    const generator::Options o = diff_trace_options(seed);
    ++r.traces;
    const bool simd = options.simd && model::fast::simd_runs_here();
    if (simd) diff_one<true>(o, seed, index, r, true);
    if (options.scalar) diff_one<false>(o, seed, index, r, !simd);
  }
  return r;
}

}  // namespace eevdf::runner
