// The one source of randomness (own PRNG, integers only: the same draws on every standard library). No <random>
// distributions: their output differs between standard libraries, and the same seed
// must give the same bytes on every machine. xoshiro256** seeded through splitmix64.
#pragma once

#include <array>    // state
#include <cstdint>  // 64-bit words

#include "base/assert.h"

namespace eevdf::generator {

// A probability as a ratio of integers, so that no floating point enters.
struct Ratio {
  std::uint64_t numerator;
  std::uint64_t denominator;
};

class Prng {
 public:
  explicit Prng(std::uint64_t seed);
  // A seed for stream `index` of run `seed`: trace k of a run is Prng(split(seed, k)),
  // independent of the traces before it, so shards and threads see the same traces.
  static std::uint64_t split(std::uint64_t seed, std::uint64_t index);

  std::uint64_t next();
  // Uniform in [lo, hi], by rejection (no modulo bias).
  std::uint64_t range_inclusive(std::uint64_t lo, std::uint64_t hi);
  std::int64_t range_inclusive_signed(std::int64_t lo, std::int64_t hi);
  bool chance(Ratio r);
  std::uint64_t draws() const { return draws_; }

 private:
  std::array<std::uint64_t, 4> s_{};
  std::uint64_t draws_ = 0;
};

}  // namespace eevdf::generator
