// Weighted time conversion (docs/MODEL.md §1.3): the kernel's __calc_delta() and
// calc_delta_fair(), bit for bit, including the fls renormalisation, the 128-bit
// intermediate and the truncation to u64. Real time in, virtual time out.
#pragma once

#include <cstdint>  // std::uint32_t, std::uint64_t

#include "model/weights.h"

namespace eevdf::model {

/// §1.3 steps 1-4: __calc_delta(delta, weight, lw) == floor(delta * fact / 2^shift).
/// fact < 2^32 and 0 <= shift <= 32. For a task this is the exact model's (F_n, S_n).
struct delta_factor {
  std::uint64_t fact;
  int shift;

  bool operator==(const delta_factor&) const = default;
};

/// §1.3 steps 1-4: the multiplier and shift __calc_delta applies to any delta.
/// Asserts weight != 0, lw.weight != 0, and that the kernel would not shift by a negative
/// count (undefined behaviour there; unreachable with real weights).
delta_factor calc_delta_factor(std::uint64_t weight, const load_weight& lw);

/// §1.3 step 5, mul_u64_u32_shr(): floor(a * mul / 2^shift) through a 128-bit product,
/// truncated to u64 (the low 64 bits, as the kernel). Asserts 0 <= shift <= 32.
std::uint64_t mul_u64_u32_shr(std::uint64_t a, std::uint32_t mul, int shift);

/// §1.3 step 5: whether floor(a * mul / 2^shift) fits u64, i.e. mul_u64_u32_shr lost no
/// bit (docs/PROPERTIES.md no_overflow: "each __calc_delta result fits u64").
bool mul_u64_u32_shr_fits(std::uint64_t a, std::uint32_t mul, int shift);

/// §1.3: models the kernel's __calc_delta() (renamed: names starting with two underscores
/// are reserved in C++). ~ delta * weight / lw.weight, using lw's (possibly lazy) inverse.
std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, const load_weight& lw);

/// §1.3: whether calc_delta(delta, weight, lw) is exact, not truncated to 64 bits.
bool calc_delta_fits_u64(std::uint64_t delta, std::uint64_t weight, const load_weight& lw);

/// §1.3 calc_delta_fair(): delta itself at exactly NICE_0_LOAD, else
/// calc_delta(delta, NICE_0_LOAD, lw). Asserts lw.weight != 0.
std::uint64_t calc_delta_fair(std::uint64_t delta, const load_weight& lw);

/// §1.3: (F_n, S_n) of a task at nice n with its table inverse, so that
/// calc_delta_fair(delta) == floor(delta * F_n / 2^S_n). At nice 0 the kernel skips the
/// multiply; the factor (2^31, 31) gives the same result. Asserts -20 <= nice <= 19.
delta_factor calc_delta_fair_factor(int nice);

}  // namespace eevdf::model
