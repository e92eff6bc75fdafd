// __calc_delta() and calc_delta_fair() (docs/MODEL.md §1.3).
#include "model/calc_delta.h"

#include <cassert>  // assert

#include "model/kernel_int.h"

namespace eevdf::model {

namespace {

// §1.3 steps 2 and 4: when fact has bits above 32, drop fls(fact >> 32) low bits and as
// many from the shift, so fact fits the 32-bit multiplier; the dropped bits are the
// kernel's (deliberate) rounding error.
delta_factor renormalise(delta_factor f) {
  assert(f.shift >= 0 && f.shift <= WMULT_SHIFT && "shift is in range on entry");
  const std::uint32_t fact_hi = narrow_u32(f.fact >> 32);
  if (fact_hi != 0) {
    const int fs = fls(fact_hi);
    f.fact >>= fs;
    f.shift -= fs;
  }
  assert((f.fact >> 32) == 0 && "fact now fits 32 bits");
  return f;
}

}  // namespace

// §1.3 steps 1-4 of __calc_delta().
delta_factor calc_delta_factor(std::uint64_t weight, const load_weight& lw) {
  assert(weight != 0 && "a zero weight has no virtual time");
  assert(lw.weight != 0 && "calc_delta divides by an entity's load, never an empty one");
  delta_factor f = renormalise({scale_load_down(weight), WMULT_SHIFT});  // steps 1-2
  // Step 3, mul_u32_u32(): 32 x 32 bits, so the u64 product cannot overflow.
  f.fact = std::uint64_t{narrow_u32(f.fact)} * inv_weight_of(lw);
  f = renormalise(f);  // step 4
  assert(f.shift >= 0 && "the kernel would shift by a negative count (undefined)");
  return f;
}

// §1.3 step 5, mul_u64_u32_shr(): the 128-bit product is exact (< 2^96); only the final
// conversion truncates, as the kernel's (u64) cast does.
std::uint64_t mul_u64_u32_shr(std::uint64_t a, std::uint32_t mul, int shift) {
  assert(shift >= 0 && shift <= WMULT_SHIFT && "__calc_delta shifts by 0..32");
  const u128 product = u128{a} * mul;
  assert((product >> 96) == 0 && "a 64 x 32-bit product needs at most 96 bits");
  return truncate_u64(product >> shift);
}

// §1.3 step 5: the no_overflow check on a __calc_delta result.
bool mul_u64_u32_shr_fits(std::uint64_t a, std::uint32_t mul, int shift) {
  assert(shift >= 0 && shift <= WMULT_SHIFT && "__calc_delta shifts by 0..32");
  const u128 quotient = (u128{a} * mul) >> shift;
  return (quotient >> 64) == 0;
}

// §1.3: models __calc_delta(); the factor is computed as the kernel does, then applied.
std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, const load_weight& lw) {
  const delta_factor f = calc_delta_factor(weight, lw);
  const std::uint64_t result = mul_u64_u32_shr(delta, narrow_u32(f.fact), f.shift);
  assert((delta != 0 || result == 0) && "no time, no virtual time");
  return result;
}

// §1.3: the overflow side of calc_delta(), for the no_overflow property.
bool calc_delta_fits_u64(std::uint64_t delta, std::uint64_t weight, const load_weight& lw) {
  const delta_factor f = calc_delta_factor(weight, lw);
  assert(f.fact != 0 || weight == 0);
  return mul_u64_u32_shr_fits(delta, narrow_u32(f.fact), f.shift);
}

// §1.3 calc_delta_fair(): the nice-0 shortcut returns delta exactly, even for a lazily
// computed inverse, where the formula would give (2^32-1)/2^32 of it.
std::uint64_t calc_delta_fair(std::uint64_t delta, const load_weight& lw) {
  assert(lw.weight != 0 && "every entity has a weight");
  if (lw.weight == NICE_0_LOAD) {
    return delta;
  }
  const std::uint64_t vdelta = calc_delta(delta, NICE_0_LOAD, lw);
  // The inverses are within one unit of 2^32/w (less for the lazy ones), so a heavier
  // entity's virtual time never runs faster than real time and a lighter one's never
  // slower (unless the result was truncated to 64 bits).
  assert((lw.weight < NICE_0_LOAD || vdelta <= delta) && "heavier: vruntime runs slower");
  assert((lw.weight > NICE_0_LOAD || vdelta >= delta ||
          !calc_delta_fits_u64(delta, NICE_0_LOAD, lw)) &&
         "lighter: vruntime runs faster");
  return vdelta;
}

// §1.3: the exact model's (F_n, S_n) for a task of nice n.
delta_factor calc_delta_fair_factor(int nice) {
  assert(nice >= NICE_MIN && nice <= NICE_MAX && "nice is -20..19");
  const delta_factor f = calc_delta_factor(NICE_0_LOAD, load_weight_for_nice(nice));
  assert((f.fact >> 32) == 0 && f.shift <= WMULT_SHIFT);
  return f;
}

}  // namespace eevdf::model
