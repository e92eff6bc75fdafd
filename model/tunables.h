// Tunables and constants (docs/MODEL.md §2): the tick length, the CPU-scaled base slice
// and the clamp on a custom slice (sched_attr.sched_runtime).
#pragma once

#include <cstdint>  // std::uint32_t, std::uint64_t
#include <limits>   // std::numeric_limits

namespace eevdf::model {

inline constexpr std::uint64_t NSEC_PER_SEC = 1'000'000'000;
inline constexpr std::uint64_t NSEC_PER_MSEC = 1'000'000;

/// §2 TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ (include/vdso/jiffies.h): the tick rounded to
/// the nearest nanosecond. Asserts 1 <= hz <= NSEC_PER_SEC (a tick of at least 1 ns).
std::uint64_t tick_nsec(std::uint64_t hz);

/// §2 sysctl_sched_tunable_scaling: how the base slice grows with the CPU count
/// (SCHED_TUNABLESCALING_NONE / LOG / LINEAR); LOG is the kernel default.
enum class sched_tunable_scaling { none, log, linear };

/// §2 get_update_sysctl_factor(): the kernel counts at most 8 CPUs, so big machines do not
/// get ever longer slices.
inline constexpr int SYSCTL_FACTOR_CPUS_MAX = 8;

/// §2 get_update_sysctl_factor(): 1 (none), 1 + ilog2(min(ncpus, 8)) (log) or
/// min(ncpus, 8) (linear). Asserts ncpus >= 1.
std::uint32_t get_update_sysctl_factor(int ncpus,
                                       sched_tunable_scaling scaling = sched_tunable_scaling::log);

/// §2 normalized_sysctl_sched_base_slice of the `kernel 6.18` profile (v6.18.2): 0.70 ms,
/// since 2ae891b82695 "sched: Reduce the default slice to avoid tasks getting an extra
/// tick" (v6.15).
inline constexpr std::uint64_t NORMALIZED_BASE_SLICE_6_18_NS = 700'000;
/// §0/§2 the `kernel 6.12` profile is Debian's 6.12.117, which has the back-ported 0.70 ms.
inline constexpr std::uint64_t NORMALIZED_BASE_SLICE_6_12_NS = 700'000;
/// §2 mainline stable v6.12.19 still has the 0.75 ms of v6.6-v6.14.
inline constexpr std::uint64_t NORMALIZED_BASE_SLICE_6_12_19_NS = 750'000;

/// §2: the kernel keeps sysctl_sched_base_slice = factor * normalized in an `unsigned int`
/// and the factor is at most 8 (linear), so a larger normalized slice would wrap there.
inline constexpr std::uint64_t NORMALIZED_BASE_SLICE_MAX_NS =
    std::numeric_limits<std::uint32_t>::max() / SYSCTL_FACTOR_CPUS_MAX;

/// §2 sysctl_sched_base_slice = factor * normalized_sysctl_sched_base_slice, as set by
/// update_sysctl() at boot and on every CPU online/offline. Asserts
/// 1 <= normalized_ns <= NORMALIZED_BASE_SLICE_MAX_NS and ncpus >= 1.
std::uint64_t sched_base_slice(std::uint64_t normalized_ns, int ncpus,
                               sched_tunable_scaling scaling = sched_tunable_scaling::log);

/// §2 __setparam_fair(): the bounds of a custom slice, a tenth of a 1000 HZ tick and ten
/// ticks at 100 HZ (NSEC_PER_MSEC/10 and NSEC_PER_MSEC*100 in the kernel).
inline constexpr std::uint64_t CUSTOM_SLICE_MIN_NS = NSEC_PER_MSEC / 10;
inline constexpr std::uint64_t CUSTOM_SLICE_MAX_NS = NSEC_PER_MSEC * 100;

/// §2 __setparam_fair(): se.slice for a non-zero sched_runtime, clamped to
/// [CUSTOM_SLICE_MIN_NS, CUSTOM_SLICE_MAX_NS]. Asserts sched_runtime_ns != 0 (0 means
/// "no custom slice": the caller uses sched_base_slice instead).
std::uint64_t clamp_custom_slice(std::uint64_t sched_runtime_ns);

}  // namespace eevdf::model
