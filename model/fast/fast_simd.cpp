// The fast model built with the 4-lane scans: its one instantiation
// (docs/FAST_MODEL.md). With EEVDF_FAST_AVX2 the fast model's own code below is
// compiled for AVX2 by a target pragma, and only that code: everything it shares with
// other translation units (the standard library, the model's headers) is included
// first, compiled for the baseline ISA, so that the linker can never hand the
// baseline callers a copy that needs AVX2. Callers use this build only where
// simd_runs_here() says the CPU has AVX2.
#include <algorithm>
#include <string>
#include <vector>

#include "base/assert.h"
#include "model/fast/fast_machine.h"
#include "model/flags.h"
#include "model/kernel_int.h"
#include "model/tunables.h"

#if EEVDF_FAST_AVX2
#include <immintrin.h>
#pragma GCC push_options
#pragma GCC target("avx2")
#define EEVDF_FAST_AVX2_CODE 1  // the lane code of fast_vec.h, fast_scan.h, fast_tick_all.h
#endif

#include "model/fast/fast_core-inl.h"
#include "model/fast/fast_fair-inl.h"

namespace eevdf::model::fast {

template class FastMachine<true>;

}  // namespace eevdf::model::fast

#if EEVDF_FAST_AVX2
#pragma GCC pop_options
#endif
