// What one `run` campaign does: its seed, its budget, how it is split (threads,
// shards), what every trace is generated with and which properties are checked.
// Plain values: the CLI fills them from flags, the tests directly.
#pragma once

#include <cstdint>  // seeds, counts
#include <string>   // names

#include "generator/generator.h"
#include "properties/judging.h"
#include "properties/registry.h"

namespace eevdf::runner {

// Options::steady_every unless --steady-every says otherwise.
inline constexpr std::uint64_t kSteadyEveryDefault = 4;

struct Options {
  std::uint64_t seed = 0;
  // The campaign is traces 0 .. traces_max - 1 (0: no count limit); a shard runs
  // those of its residue. A time budget stops claiming new traces; the traces
  // already claimed finish, so the result is always a prefix of the campaign.
  std::uint64_t traces_max = 2000;
  double seconds_max = 60;  // 0: no time limit
  int jobs = 1;             // threads; the result never depends on it
  std::uint64_t shard_index = 0;
  std::uint64_t shard_count = 1;
  generator::Options generator;  // topology, forced features, injections, modes
  properties::Selection selection;
  bool strict = false;  // known findings fail the run too
  // Every diff_every-th trace (index % diff_every == 0) also runs through the fast
  // model beside the reference (fast_matches_reference); 0: never. The properties are
  // checked on the reference: the fast model has no observer hooks.
  std::uint64_t diff_every = 0;
  // `run --model=kernel-src`: traces under the 6.12 profile, each replayed through the
  // reference's 6.12 profile and kernel-src (kernel_matches_reference); the generator
  // options must come from kernel_src_generator_options (kernel_src_diff.h).
  bool kernel_src = false;
  // With kernel_src: a tree of --kernel-tree, judged by its mirror alone (no reference,
  // no kernel_matches_reference; replay/kernel_src_tree_run.h), its traces drawn under
  // the profile of its forms (generator.profile); `tree` says what it leaves unjudged.
  bool kernel_tree_alone = false;
  properties::TreeTraits tree;
  // Every ideal_every-th trace (index % ideal_every == 0) also runs through the kernel
  // and the ideal arithmetic in lockstep (ideal_tracks_kernel, replay/ideal_diff.h); an
  // unexplained divergence is a violation of that property. 0: never. Expensive (exact
  // rationals), hence a sample.
  std::uint64_t ideal_every = 0;
  // Every steady-mode trace k with k % steady_every == 0 is also replayed in the ideal
  // arithmetic with the properties exact only there (lag_bound_steady: the steady
  // stretches are where it judges); 0: never. Exact rationals cost more than the
  // kernel arithmetic, hence a sample: by default one steady trace in four, about
  // a quarter more CPU time than the campaign without it (docs/RUN.md).
  std::uint64_t steady_every = kSteadyEveryDefault;
};

// The generator settings of `run`: the defaults (2x64, 2 to 16 tasks on up
// to 8 busy CPUs, 50 to 500 events), random feature sets, one trace in eight steady.
generator::Options default_generator_options();

// The seed of trace `index` of a campaign seeded `seed` (generator::Prng::split).
std::uint64_t trace_seed(std::uint64_t seed, std::uint64_t index);

// The properties a run checks per event in the kernel arithmetic, in catalogue order.
// With kernel_src: kernel_matches_reference, the one check on kernel-src so far.
std::vector<std::string> checked_properties(const properties::Selection& selection, bool kernel_src = false);

// The same for a campaign's options: with a tree judged alone, what its mirror judges.
std::vector<std::string> checked_properties(const Options& options);

// What a campaign with `options` judges (properties/judging.h): the per-event checks
// in the kernel arithmetic under its profile, fast_matches_reference with diff_every,
// ideal_tracks_kernel with ideal_every, kernel_matches_reference with kernel_src.
properties::Judging judging(const Options& options);

// Why the options cannot run (an unknown or unimplemented injection, a bad shard,
// a --check of a property the campaign does not judge), or "" when they can.
std::string validate(const Options& options);

}  // namespace eevdf::runner
