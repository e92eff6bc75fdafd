// Tunables (docs/MODEL.md §2).
#include "model/tunables.h"

#include <algorithm>  // std::clamp, std::min
#include <cassert>    // assert

#include "model/kernel_int.h"

namespace eevdf::model {

// §2 TICK_NSEC: adding HZ/2 first rounds to nearest (HZ=300 gives 3 333 333, not 3 333 334).
std::uint64_t tick_nsec(std::uint64_t hz) {
  assert(hz >= 1 && hz <= NSEC_PER_SEC && "a tick lasts at least 1 ns");
  const std::uint64_t tick = (NSEC_PER_SEC + hz / 2) / hz;
  assert(tick >= 1 && tick <= NSEC_PER_SEC);
  return tick;
}

// §2 get_update_sysctl_factor(): min(ncpus, 8) caps the growth on large machines.
std::uint32_t get_update_sysctl_factor(int ncpus, sched_tunable_scaling scaling) {
  assert(ncpus >= 1 && "a machine has at least one online CPU");
  const std::uint32_t cpus = to_u32(std::min(ncpus, SYSCTL_FACTOR_CPUS_MAX));
  std::uint32_t factor = 1;
  switch (scaling) {
    case sched_tunable_scaling::none:
      factor = 1;
      break;
    case sched_tunable_scaling::linear:
      factor = cpus;
      break;
    case sched_tunable_scaling::log:
      factor = 1 + to_u32(ilog2(cpus));
      break;
  }
  assert(factor >= 1 && factor <= to_u32(SYSCTL_FACTOR_CPUS_MAX));
  return factor;
}

// §2 update_sysctl(): SET_SYSCTL(sched_base_slice), the normalized value times the factor.
std::uint64_t sched_base_slice(std::uint64_t normalized_ns, int ncpus,
                               sched_tunable_scaling scaling) {
  assert(normalized_ns >= 1 && normalized_ns <= NORMALIZED_BASE_SLICE_MAX_NS &&
         "the kernel's unsigned-int product must not wrap");
  const std::uint64_t slice = get_update_sysctl_factor(ncpus, scaling) * normalized_ns;
  assert(slice >= normalized_ns && slice <= std::numeric_limits<std::uint32_t>::max());
  return slice;
}

// §2 __setparam_fair(): clamp_t(u64, sched_runtime, NSEC_PER_MSEC/10, NSEC_PER_MSEC*100).
std::uint64_t clamp_custom_slice(std::uint64_t sched_runtime_ns) {
  assert(sched_runtime_ns != 0 && "0 selects the base slice, not a custom one");
  const std::uint64_t slice =
      std::clamp(sched_runtime_ns, CUSTOM_SLICE_MIN_NS, CUSTOM_SLICE_MAX_NS);
  assert(slice >= CUSTOM_SLICE_MIN_NS && slice <= CUSTOM_SLICE_MAX_NS);
  return slice;
}

}  // namespace eevdf::model
