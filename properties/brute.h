// Brute-force recomputations the properties compare the model against: written
// here from docs/MODEL.md, independent of the model's fair.c code (docs/PROPERTIES.md, rules).
#pragma once

#include <algorithm>    // min
#include <bit>          // bit_width: the kernel's fls
#include <cstdint>      // weights
#include <type_traits>  // the arithmetic
#include <vector>       // queued entities

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/kernel_int.h"  // u128
#include "model/task.h"
#include "model/weights.h"  // the nice tables: data, shared with the model

namespace eevdf::properties::brute {

template <class A>
inline constexpr bool kernel_arith = std::is_same_v<A, model::KernelArith>;

// §1.2 scale_load_down, written out again: max(2, w >> 10), 0 stays 0.
inline std::uint64_t weight_of(std::uint64_t full_weight) {
  if (full_weight == 0) return 0;
  const std::uint64_t w = full_weight >> 10;
  return w < 2 ? 2 : w;
}

// Q: the entities queued on a runqueue, in the tree or as an on_rq curr (§3.3).
template <class A>
std::vector<const model::sched_entity<A>*> queued(const model::cfs_rq<A>& cfs) {
  std::vector<const model::sched_entity<A>*> out(cfs.timeline.begin(), cfs.timeline.end());
  if (cfs.curr != nullptr && cfs.curr->on_rq) out.push_back(cfs.curr);
  return out;
}

// floor(a / b) for b > 0 on exact integers; exact division for rationals.
template <class A>
typename A::value floor_div(const typename A::value& a, const typename A::value& b) {
  if constexpr (kernel_arith<A>) {
    typename A::value q = a / b;
    if (a % b != 0 && a < 0) q -= 1;
    return q;
  } else {
    return a / b;
  }
}

// Σ w_i (v_i - v0) and Σ w_i over Q, from each entity's own vruntime.
template <class A>
struct Sums {
  typename A::value weighted_keys{};
  std::uint64_t weights = 0;
};

template <class A>
Sums<A> sums(const model::cfs_rq<A>& cfs) {
  Sums<A> s;
  for (const auto* se : queued(cfs)) {
    const std::uint64_t w = weight_of(se->load.weight);
    s.weighted_keys += (se->vruntime - cfs.min_vruntime) * typename A::value(w);
    s.weights += w;
  }
  return s;
}

// V (§4.1): the weighted mean of Q's vruntimes, floored in the kernel arithmetic
// (v0 + floor(S/W)), exact in the ideal one; v0 on an empty queue.
template <class A>
typename A::value avg_vruntime(const model::cfs_rq<A>& cfs) {
  const Sums<A> s = sums(cfs);
  if (s.weights == 0) return cfs.min_vruntime;
  return cfs.min_vruntime + floor_div<A>(s.weighted_keys, typename A::value(s.weights));
}

// §4.2: eligible iff lag >= 0 against the exact mean: W * (v - v0) <= S.
template <class A>
bool eligible(const model::cfs_rq<A>& cfs, const typename A::value& vruntime) {
  const Sums<A> s = sums(cfs);
  return (vruntime - cfs.min_vruntime) * typename A::value(s.weights) <= s.weighted_keys;
}

// §1.3 the inverse __calc_delta multiplies by. A task carries its nice level's table
// inverse (set_load_weight, reweight_task_fair): looked up here by its weight in the
// nice tables (model/weights.h: data copied from the kernel, the one thing this file
// shares with the model). An unset one (0: after update_load_set, inside
// reweight_entity) is __update_inv_weight's lazy floor((2^32-1)/w) on the scaled-down
// weight, 1 when w >= 2^32-1, 2^32-1 when w is 0. A stored inverse of a weight no
// table holds is taken as stored.
inline std::uint32_t inverse_of(std::uint64_t full_weight, std::uint32_t stored) {
  constexpr std::uint64_t kMax = 0xFFFF'FFFFu;
  if (stored == 0) {
    const std::uint64_t w = weight_of(full_weight);
    if (w >= kMax) return 1;
    if (w == 0) return static_cast<std::uint32_t>(kMax);
    return static_cast<std::uint32_t>(kMax / w);
  }
  if ((full_weight & 1023) != 0) return stored;
  const std::uint64_t w = full_weight >> 10;
  if (w == model::WEIGHT_IDLEPRIO) return model::WMULT_IDLEPRIO;
  // The weights fall from nice -20 to 19: a binary search for w.
  std::size_t lo = 0, hi = model::sched_prio_to_weight.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (model::sched_prio_to_weight[mid] > w) lo = mid + 1;
    else hi = mid;
  }
  if (lo < model::sched_prio_to_weight.size() && model::sched_prio_to_weight[lo] == w) return model::sched_prio_to_wmult[lo];
  return stored;
}

// §1.3 __calc_delta(delta, weight, lw) on 64-bit, step by step: fact = scale_load_down(
// weight) with 32 bits of shift; bits of fact above 32 are dropped (fls of the high
// word) and taken off the shift, before and after multiplying by lw's inverse; the
// result is floor(delta * fact / 2^shift) over 128 bits, truncated to u64.
inline std::uint64_t calc_delta(std::uint64_t delta, std::uint64_t weight, std::uint64_t lw_weight,
                                std::uint32_t lw_inverse) {
  std::uint64_t fact = weight_of(weight);
  int shift = 32;
  const auto renormalise = [&] {
    const int high = static_cast<int>(std::bit_width(fact >> 32));  // fls(fact >> 32), 0 when it fits
    fact >>= high;
    shift -= high;
  };
  renormalise();
  fact *= inverse_of(lw_weight, lw_inverse);  // 32 x 32 bits
  renormalise();
  const model::u128 product = model::u128{delta} * fact;  // < 2^96: exact
  return static_cast<std::uint64_t>(product >> shift);
}

// §1.3 calc_delta_fair: delta itself at exactly NICE_0_LOAD (2^20), else
// __calc_delta(delta, NICE_0_LOAD, &se.load), bit for bit; in the ideal arithmetic
// exactly delta * 1024 / w. `divides`: the __calc_delta of a tree that divides on
// 64-bit, floor(delta * NICE_0_LOAD / se.load.weight) with the product in u64, as its
// code computes it, instead of multiplying by the inverse weight.
template <class A>
typename A::value calc_delta_fair(std::uint64_t delta, const model::sched_entity<A>& se, bool divides = false) {
  if constexpr (kernel_arith<A>) {
    constexpr std::uint64_t kNice0 = std::uint64_t{1} << 20;
    if (se.load.weight == kNice0) return typename A::value(delta);
    if (divides) return static_cast<typename A::value>(delta * kNice0 / se.load.weight);
    return static_cast<typename A::value>(calc_delta(delta, kNice0, se.load.weight, se.load.inv_weight));
  } else {
    return typename A::value(delta) * 1024 / typename A::value(weight_of(se.load.weight));
  }
}

// §2 sysctl_sched_base_slice under the default SCHED_TUNABLESCALING_LOG: the
// normalized slice times 1 + ilog2(min(CPUs, 8)).
inline std::uint64_t base_slice(std::uint64_t normalized_ns, int ncpus) {
  const auto cpus = static_cast<std::uint64_t>(std::min(ncpus, 8));
  return normalized_ns * static_cast<std::uint64_t>(std::bit_width(cpus));  // 1 + ilog2(c) = bit_width(c)
}

}  // namespace eevdf::properties::brute
