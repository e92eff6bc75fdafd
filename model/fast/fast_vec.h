// The 4 x 64-bit vectors both vector paths use (fast_scan.h: the lanes of one
// runqueue; fast_tick_all.h: one lane per CPU): GCC vector extensions, defined only
// inside fast_simd.cpp's AVX2 region, which defines EEVDF_FAST_AVX2_CODE (GCC does not
// define __AVX2__ under a target pragma; vector signatures change the ABI).
#pragma once

// The helpers of fast_scan.h and fast_tick_all.h are inline and compiled into both
// builds of the fast model, for different instruction sets (fast_simd.cpp). Each set
// gets its own inline namespace, hence its own symbols: the linker cannot merge an
// AVX2 copy with the baseline one and hand it to a CPU without AVX2.
#if defined(EEVDF_FAST_AVX2_CODE)
#define EEVDF_FAST_ISA isa_avx2
#else
#define EEVDF_FAST_ISA isa_baseline
#endif

#if defined(EEVDF_FAST_AVX2_CODE)

#include "model/fast/fast_state.h"  // u64, s64

namespace eevdf::model::fast::inline EEVDF_FAST_ISA::vec {

typedef s64 v4s __attribute__((vector_size(32)));
typedef u64 v4u __attribute__((vector_size(32)));

inline v4u load4(const u64* p) {
  v4u v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(u64* p, v4u v) { __builtin_memcpy(p, &v, sizeof v); }
inline v4s splat(s64 x) { return v4s{x, x, x, x}; }
inline v4u splat(u64 x) { return v4u{x, x, x, x}; }

}  // namespace eevdf::model::fast::EEVDF_FAST_ISA::vec

#endif  // EEVDF_FAST_AVX2_CODE
