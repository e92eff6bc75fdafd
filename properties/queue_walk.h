// Allocation-free walks over a runqueue's queued entities Q (the tree and an on_rq
// curr), and the facts the checks share: counted once per runqueue per hook or event
// instead of once per property (INVARIANTS.md: a checked replay costs at most
// 3x a plain one). The facts are plain recounts; each property still judges alone.
#pragma once

#include <cstdint>      // weights
#include <type_traits>  // the arithmetic
#include <vector>   // per-CPU cache

#include "model/arith_kernel.h"
#include "model/task.h"

namespace eevdf::properties {

// Calls f(se) for every entity of Q: the tree in deadline order, then curr.
template <class A, class F>
void for_each_queued(const model::cfs_rq<A>& cfs, F&& f) {
  for (const auto* se : cfs.timeline) f(*se);
  if (cfs.curr != nullptr && cfs.curr->on_rq) f(*cfs.curr);
}

inline std::uint64_t scaled_down(std::uint64_t full) { return full == 0 ? 0 : (full >> 10 < 2 ? 2 : full >> 10); }

// Σ w_i (v_i - v0) and Σ w_i over Q, once, for several eligibility tests.
template <class A>
struct QueueSums {
  typename A::value keys{};
  typename A::value weights{};
  typename A::value v0{};

  QueueSums() = default;
  explicit QueueSums(const model::cfs_rq<A>& cfs) : v0(cfs.min_vruntime) {
    for_each_queued(cfs, [&](const model::sched_entity<A>& se) {
      const std::uint64_t w = scaled_down(se.load.weight);
      keys += (se.vruntime - v0) * typename A::value(w);
      weights += typename A::value(w);
    });
  }
  // §4.2: eligible iff W * (v - v0) <= S (lag >= 0 against the exact mean).
  bool eligible(const typename A::value& vruntime) const { return (vruntime - v0) * weights <= keys; }
  bool operator==(const QueueSums& o) const { return keys == o.keys && weights == o.weights && v0 == o.v0; }
};

// A recount of one runqueue after an event.
template <class A>
struct QueueFacts {
  QueueSums<A> q;                     // over Q
  typename A::value tree_keys{};      // Σ w (v - v0) over the tree only (curr excluded)
  std::uint64_t tree_weights = 0;
  std::uint64_t q_weights = 0;        // Σ scaled-down weights over Q
  std::uint64_t full_weight = 0;      // Σ full weights over Q
  unsigned queued = 0;                // |Q|
  unsigned delayed = 0;               // delayed entities in Q
  std::uint64_t custom_slice_min = ~std::uint64_t{0};  // over custom slices in Q
  std::uint64_t custom_slice_max = 0;
  unsigned absurd_slices = 0;         // slices of 0 or U64_MAX in Q
  std::vector<int> tasks;             // task indices of Q
  // Q's entities in walk order, the tree's first (deadline order), for the checks
  // that walk Q again at the same hook: a vector instead of the tree's nodes.
  std::vector<const model::sched_entity<A>*> entities;
  std::size_t tree_count = 0;         // entities[0, tree_count) are the tree's
  // The two smallest slices of Q and the entity of the smallest (min_slice_except).
  std::uint64_t slice_min = ~std::uint64_t{0}, slice_second = ~std::uint64_t{0};
  const model::sched_entity<A>* slice_min_entity = nullptr;

  bool operator==(const QueueFacts&) const = default;  // Debug builds check reuses (Env::facts)

  // One pass over the tree, then curr: everything the checks recount.
  // Flattened: the hot loop of the checker; the compiler otherwise inlines the
  // walk differently as more instantiations share it.
  [[gnu::flatten]] void recount(const model::cfs_rq<A>& cfs) {
    q = QueueSums<A>();
    q.v0 = cfs.min_vruntime;
    tree_keys = {};
    tree_weights = q_weights = full_weight = 0;
    queued = delayed = absurd_slices = 0;
    custom_slice_min = ~std::uint64_t{0};
    custom_slice_max = 0;
    tasks.clear();
    entities.clear();
    slice_min = slice_second = ~std::uint64_t{0};
    slice_min_entity = nullptr;
    const auto add = [&](const model::sched_entity<A>& se, bool in_tree) {
      const std::uint64_t w = scaled_down(se.load.weight);
      const typename A::value kw = (se.vruntime - cfs.min_vruntime) * typename A::value(w);
      q.keys += kw;
      q.weights += typename A::value(w);
      q_weights += w;
      if (in_tree) {
        tree_keys += kw;
        tree_weights += w;
      }
      full_weight += se.load.weight;
      ++queued;
      delayed += se.sched_delayed ? 1 : 0;
      absurd_slices += se.slice == 0 || se.slice == ~std::uint64_t{0} ? 1 : 0;
      if (se.custom_slice) {
        custom_slice_min = se.slice < custom_slice_min ? se.slice : custom_slice_min;
        custom_slice_max = se.slice > custom_slice_max ? se.slice : custom_slice_max;
      }
      tasks.push_back(se.task);
      entities.push_back(&se);
      if (se.slice < slice_min) {
        slice_second = slice_min;
        slice_min = se.slice;
        slice_min_entity = &se;
      } else if (se.slice < slice_second) {
        slice_second = se.slice;
      }
    };
    for (const auto* se : cfs.timeline) add(*se, true);
    tree_count = entities.size();
    if (cfs.curr != nullptr && cfs.curr->on_rq) add(*cfs.curr, false);
  }
  // The smallest slice of Q without `except` (nullptr: of all Q).
  std::uint64_t min_slice_except(const model::sched_entity<A>* except) const {
    return except != nullptr && except == slice_min_entity ? slice_second : slice_min;
  }
  // V as the kernel defines it (§4.1): v0 + floor(S/W), exact in the ideal arithmetic.
  typename A::value avg_vruntime() const {
    if (q.weights == 0) return q.v0;
    if constexpr (std::is_same_v<typename A::value, typename model::KernelArith::value>) {
      typename A::value d = q.keys / q.weights;
      if (q.keys % q.weights != 0 && q.keys < 0) d -= 1;
      return q.v0 + d;
    } else {
      return q.v0 + q.keys / q.weights;
    }
  }
};

}  // namespace eevdf::properties
