// The arithmetic behind the SVG timeline (svg.cpp): values to pixels, "nice" axis
// steps and fixed-point labels. Integers only, so that the picture is the same bytes
// on every machine and locale.
#pragma once

#include <cstdint>  // ns
#include <string>   // labels

#include <fmt/format.h>

namespace eevdf::lab::svg {

__extension__ using i128 = __int128;  // a product of a span of ns and a length in px

// Maps the values [lo, hi] linearly onto the pixels [origin, origin + length]
// (length negative: upwards), rounding to the nearest pixel. Values outside are
// clamped, so that nothing is drawn outside its area.
struct Scale {
  std::int64_t lo = 0;
  std::int64_t hi = 1;
  int origin = 0;
  int length = 1;

  int operator()(std::int64_t v) const {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    const i128 span = hi > lo ? i128{hi} - lo : 1;
    const i128 scaled = (i128{v} - lo) * (length < 0 ? -length : length);
    const int px = static_cast<int>((scaled + span / 2) / span);
    return origin + (length < 0 ? -px : px);
  }
};

// The smallest step of the form 1, 2 or 5 x 10^k that is at least `at_least`.
inline std::uint64_t nice_step(std::uint64_t at_least) {
  constexpr std::uint64_t kMantissas[] = {1, 2, 5};
  for (std::uint64_t power = 1;; power *= 10) {
    for (const std::uint64_t m : kMantissas) {
      if (m * power >= at_least) return m * power;
    }
    if (power > UINT64_MAX / 100) return 10 * power;
  }
}

// The decimals that multiples of `step` need when written in units of `unit` (a power
// of ten): 0 when `step` is a multiple of `unit`, else as many as `step` needs.
inline int decimals_for(std::uint64_t step, std::uint64_t unit) {
  int decimals = 0;
  for (std::uint64_t u = unit; u > 1 && step % u != 0; u /= 10) ++decimals;
  return decimals;
}

// `value` in units of `unit` (a power of ten) with `decimals` digits after the point,
// rounded half away from zero: fixed(1234567, 1000000, 3) == "1.235".
inline std::string fixed(std::int64_t value, std::uint64_t unit, int decimals) {
  std::uint64_t quantum = unit;  // what the last written digit counts, in value units
  std::uint64_t scale = 1;
  int digits = 0;  // `decimals`, at most what `unit` has
  for (; digits < decimals && quantum > 1; ++digits) {
    quantum /= 10;
    scale *= 10;
  }
  const bool negative = value < 0;
  const std::uint64_t magnitude =
      negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  const std::uint64_t q = (magnitude + quantum / 2) / quantum;
  const char* sign = negative && q != 0 ? "-" : "";
  if (scale == 1) return fmt::format("{}{}", sign, q);
  return fmt::format("{}{}.{:0{}}", sign, q / scale, q % scale, digits);
}

}  // namespace eevdf::lab::svg
