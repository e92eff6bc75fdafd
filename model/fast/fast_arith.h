// The kernel arithmetic in native 64-bit integers (docs/MODEL.md §1), each
// operation the no_overflow catalogue lists checked with the compiler's overflow
// builtins: the result is the two's-complement wrap the kernel computes, and the
// overflow is reported to the runqueue, as the reference's KernelArith does.
#pragma once

#include <array>    // the per-nice factors
#include <cstdint>  // INT32_MAX, ...

#include "model/calc_delta.h"
#include "model/fast/fast_state.h"
#include "model/kernel_int.h"
#include "model/weights.h"

namespace eevdf::model::fast {

// §1.2 the scaled-down weight of a nice level (the table entry itself).
inline u64 weight_of(int nice) { return sched_prio_to_weight[static_cast<std::size_t>(nice - NICE_MIN)]; }
// §1.2 the full (scaled-up) weight, as cfs_rq->load sums it.
inline u64 full_weight_of(int nice) { return weight_of(nice) << SCHED_FIXEDPOINT_SHIFT; }

// §1.3 calc_delta_fair() of a task: floor(delta * F_n / 2^S_n) with the table inverse,
// delta itself at nice 0. Tasks always carry the table inverse (a renice restores it
// before anything converts time), so one factor per nice level is exact.
struct DeltaFactors {
  std::array<std::uint32_t, NICE_WIDTH> fact{};
  std::array<int, NICE_WIDTH> shift{};
  DeltaFactors() {
    for (int nice = NICE_MIN; nice <= NICE_MAX; ++nice) {
      const delta_factor f = calc_delta_fair_factor(nice);
      fact[static_cast<std::size_t>(nice - NICE_MIN)] = narrow_u32(f.fact);
      shift[static_cast<std::size_t>(nice - NICE_MIN)] = f.shift;
    }
  }
};

inline u64 calc_delta_fair(const DeltaFactors& f, u64 delta, int nice, const Runqueue& rq) {
  if (nice == 0) return delta;
  const std::size_t i = static_cast<std::size_t>(nice - NICE_MIN);
  const u128 product = (u128{delta} * f.fact[i]) >> f.shift[i];
  if ((product >> 64) != 0) rq.report("__calc_delta result exceeds u64");
  return static_cast<u64>(product);
}

inline s64 checked_mul(s64 a, s64 b, const Runqueue& rq, const char* expression) {
  s64 r = 0;
  if (__builtin_mul_overflow(a, b, &r)) rq.report(expression);
  return r;
}
inline s64 checked_add(s64 a, s64 b, const Runqueue& rq, const char* expression) {
  s64 r = 0;
  if (__builtin_add_overflow(a, b, &r)) rq.report(expression);
  return r;
}
inline s64 checked_sub(s64 a, s64 b, const Runqueue& rq, const char* expression) {
  s64 r = 0;
  if (__builtin_sub_overflow(a, b, &r)) rq.report(expression);
  return r;
}

// A u64 that the kernel uses as s64 (a weight sum, a slice in virtual time).
inline s64 as_s64(u64 x, const Runqueue& rq, const char* expression) {
  if (x > static_cast<u64>(INT64_MAX)) rq.report(expression);
  return static_cast<s64>(x);
}

// §1.1 the kernel's (s64)(a - b) of two u64 virtual times: wraps by design.
inline s64 wrap_diff(u64 a, u64 b) { return static_cast<s64>(a - b); }
inline u64 wrap_add(u64 a, s64 b) { return a + static_cast<u64>(b); }

// §1.1 div_s64(): truncation toward zero with an s32 divisor; a wider divisor is
// reported and truncated as the kernel's (s32) would.
inline s64 div_s64(s64 dividend, u64 divisor_u, const Runqueue& rq, const char* expression) {
  s64 divisor = static_cast<s64>(divisor_u);
  if (divisor_u > static_cast<u64>(INT32_MAX)) {
    rq.report(expression);
    divisor = static_cast<std::int32_t>(static_cast<std::uint32_t>(divisor_u));
  }
  if (divisor == 0) {  // the kernel would take a divide error here
    rq.report("division by zero after the s32 truncation");
    return dividend;
  }
  if (dividend == INT64_MIN && divisor == -1) {
    rq.report(expression);
    return INT64_MIN;
  }
  return dividend / divisor;
}

// §4.1 floor(avg / load) as the kernel writes it ("left bias").
inline s64 floor_div(s64 avg, u64 load, const Runqueue& rq) {
  if (avg < 0) avg = checked_sub(avg, static_cast<s64>(load - 1), rq, "avg - (load - 1) in avg_vruntime");
  return div_s64(avg, load, rq, "load as div_s64 divisor in avg_vruntime");
}

}  // namespace eevdf::model::fast
