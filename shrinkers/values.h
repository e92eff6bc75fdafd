// The value orders the simplifying passes search, as pure functions: integers
// toward a target by halving steps (RapidCheck's shrink::towards), and durations
// toward the smallest by bisection on the roundest numbers (so a shrunk time reads
// `3ms`, not `3.538848ms`).
#pragma once

#include <cstdint>   // values
#include <optional>  // "no such value"
#include <vector>    // candidate lists

namespace eevdf::shrinkers {

// `target`, then value - d/2, value - d/4, ... value -+ 1 (d = value - target):
// the first candidates jump furthest. Empty when value == target.
std::vector<std::int64_t> toward(std::int64_t value, std::int64_t target);

// The x with lo < x < hi that has the most trailing decimal zeros, the one nearest
// the middle among those; nullopt when hi - lo < 2.
std::optional<std::uint64_t> roundest_between(std::uint64_t lo, std::uint64_t hi);

// Bisection steps at the most for one value: each roundest_between step at least
// halves the interval or takes a digit off the roundness, so 64-bit values need
// well under 4 * 64.
inline constexpr int kBisectionStepsMax = 256;

// The smallest value in (lo, hi] that `fails` accepts, searched by bisection on
// roundest_between, assuming `fails(hi)` and not `fails(lo)` (a heuristic: the
// predicate need not be monotone; the result always fails). `fails` is called at
// most kBisectionStepsMax times.
template <class Fails>
std::uint64_t bisect_roundest(std::uint64_t lo, std::uint64_t hi, Fails&& fails) {
  for (int step = 0; step < kBisectionStepsMax; ++step) {
    const std::optional<std::uint64_t> x = roundest_between(lo, hi);
    if (!x) break;
    if (fails(*x))
      hi = *x;
    else
      lo = *x;
  }
  return hi;
}

}  // namespace eevdf::shrinkers
