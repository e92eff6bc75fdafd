// Whether the SIMD build of the fast model runs on this CPU (fast_machine.h), and
// what both builds share, compiled once for the baseline instruction set.
#include "model/fast/fast_machine.h"
#include "model/fast/fast_tick_all.h"

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

void TickLanes::pad(u64 now) {
  for (int k = n; k % kLanes != 0; ++k) {
    const auto i = static_cast<std::size_t>(k);
    exec_start[i] = now;
    sum_exec_runtime[i] = vruntime[i] = deadline[i] = vprot[i] = factor[i] = 0;
    min_vruntime[i] = tree_min[i] = has_tree[i] = avg_load[i] = avg_vruntime[i] = not_alone[i] = 0;
  }
}

int TickLanes::padded() const { return (n + kLanes - 1) / kLanes * kLanes; }

}  // namespace eevdf::model::fast
