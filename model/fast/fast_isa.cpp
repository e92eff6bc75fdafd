// Whether the SIMD build of the fast model runs on this CPU (fast_machine.h).
#include "model/fast/fast_machine.h"

namespace eevdf::model::fast {

bool simd_runs_here() {
#if EEVDF_FAST_AVX2
  return __builtin_cpu_supports("avx2") != 0;
#else
  return true;  // built without AVX2: the SIMD build is the scalar code, auto-vectorized
#endif
}

const char* simd_isa() {
#if EEVDF_FAST_AVX2
  return "AVX2";
#else
  return "auto-vectorized scalar";
#endif
}

}  // namespace eevdf::model::fast
