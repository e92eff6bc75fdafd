// Brute-force recomputations the properties compare the model against: written
// here from docs/MODEL.md, independent of the model's fair.c code (docs/PROPERTIES.md, rules).
#pragma once

#include <cstdint>      // weights
#include <type_traits>  // the arithmetic
#include <vector>       // queued entities

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/calc_delta.h"
#include "model/task.h"

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

// §1.3 calc_delta_fair: the kernel's bit-exact value (model/calc_delta.h, itself
// tested against the docs/MODEL.md §1.3 vectors), or exactly delta * 1024 / w in the ideal one.
template <class A>
typename A::value calc_delta_fair(std::uint64_t delta, const model::sched_entity<A>& se) {
  if constexpr (kernel_arith<A>) {
    return static_cast<typename A::value>(model::calc_delta_fair(delta, se.load));
  } else {
    return typename A::value(delta) * 1024 / typename A::value(weight_of(se.load.weight));
  }
}

}  // namespace eevdf::properties::brute
