// Allocation-free walks over a runqueue's queued entities Q (the tree and an on_rq
// curr), and the facts the checks share: counted once per runqueue per hook or event
// instead of once per property (INVARIANTS.md: a checked replay costs at most
// 3x a plain one). The facts are recounts, patched at queue moves and checked against
// a recount (Env::facts); each property still judges alone.
#pragma once

#include <algorithm>    // find_if (same_as)
#include <cstddef>      // ptrdiff_t
#include <cstdint>      // weights
#include <type_traits>  // the arithmetic
#include <vector>   // per-CPU cache

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "model/observer.h"
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

// A recount of one runqueue: one walk of Q, tree first (deadline order), then curr.
// Between two recounts a move of an entity in or out of the tree or curr
// (model::queue_move) may be applied as a patch: the moved entity's own values
// counted in or out, by this code (Env::facts says when, and checks the patches).
template <class A>
struct QueueFacts {
  using entity = model::sched_entity<A>;
  // What one entity of Q counted: the values read from it, kept so that a patch can
  // take it out again and the slice extremes can be found without the entities.
  struct Member {
    const entity* se = nullptr;
    typename A::value key_weight{};   // w (v - v0)
    std::uint64_t weight = 0;         // scaled down
    std::uint64_t full_weight = 0;
    std::uint64_t slice = 0;
    bool custom_slice = false;
    bool delayed = false;
    bool in_tree = false;             // else the on_rq curr
    bool operator==(const Member&) const = default;
  };

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
  // Q's members (a recount's order: the tree in deadline order, then curr; a patch
  // appends and removes), for the checks that walk Q again at the same hook: a
  // vector instead of the tree's nodes.
  std::vector<Member> members;
  // The two smallest slices of Q and the entity of the smallest (min_slice_except).
  std::uint64_t slice_min = ~std::uint64_t{0}, slice_second = ~std::uint64_t{0};
  const entity* slice_min_entity = nullptr;

  // One pass over the tree, then curr: everything the checks recount.
  // Flattened: the hot loop of the checker; the compiler otherwise inlines the
  // walk differently as more instantiations share it.
  [[gnu::flatten]] void recount(const model::cfs_rq<A>& cfs) {
    clear(cfs.min_vruntime);
    for (const auto* se : cfs.timeline) add(*se, true);
    if (cfs.curr != nullptr && cfs.curr->on_rq) add(*cfs.curr, false);
  }

  // §3.3 the model moved `se` (model::queue_move) and changed nothing else since this
  // recount: Q as for_each_queued sees it gains or loses that one entity.
  void patch(const entity& se, model::queue_move how) {
    switch (how) {
      case model::queue_move::into_tree: add(se, true); break;
      case model::queue_move::out_of_tree: drop(se, true); break;
      case model::queue_move::became_curr:
        if (se.on_rq) add(se, false);
        break;
      case model::queue_move::left_curr:
        if (se.on_rq) drop(se, false);
        break;
    }
  }

  // The same counts and the same members in any order: what a patch must give. The
  // entity of the smallest slice may differ among equal slices; min_slice_except
  // returns the same either way.
  bool same_as(const QueueFacts& o) const {
    if (!(q == o.q && tree_keys == o.tree_keys && tree_weights == o.tree_weights && q_weights == o.q_weights &&
          full_weight == o.full_weight && queued == o.queued && delayed == o.delayed &&
          custom_slice_min == o.custom_slice_min && custom_slice_max == o.custom_slice_max &&
          absurd_slices == o.absurd_slices && slice_min == o.slice_min && slice_second == o.slice_second &&
          members.size() == o.members.size()))
      return false;
    for (const Member& m : members) {  // |Q| is small: a search per member
      const auto it = std::find_if(o.members.begin(), o.members.end(),
                                   [&](const Member& x) { return x.se == m.se && x.in_tree == m.in_tree; });
      if (it == o.members.end() || !(*it == m)) return false;
    }
    return true;
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

 private:
  void clear(const typename A::value& v0) {
    q = QueueSums<A>();
    q.v0 = v0;
    tree_keys = {};
    tree_weights = q_weights = full_weight = 0;
    queued = delayed = absurd_slices = 0;
    members.clear();
    slice_extremes();
  }
  // Counts `se` in: its values are read once, into its member.
  void add(const entity& se, bool in_tree) {
    const std::uint64_t w = scaled_down(se.load.weight);
    const Member& m = members.emplace_back(Member{&se, (se.vruntime - q.v0) * typename A::value(w), w,
                                                  se.load.weight, se.slice, se.custom_slice, se.sched_delayed,
                                                  in_tree});
    q.keys += m.key_weight;
    q_weights += w;
    q.weights = typename A::value(q_weights);
    if (in_tree) {
      tree_keys += m.key_weight;
      tree_weights += w;
    }
    full_weight += m.full_weight;
    ++queued;
    delayed += m.delayed ? 1 : 0;
    absurd_slices += m.slice == 0 || m.slice == ~std::uint64_t{0} ? 1 : 0;
    extend_slices(m);
  }
  void drop(const entity& se, bool in_tree) {
    std::size_t i = 0;
    while (i < members.size() && !(members[i].se == &se && members[i].in_tree == in_tree)) ++i;
    EEVDF_ASSERT(i < members.size(), "a queue move patch drops an entity the recount did not count");
    const Member m = members[i];
    q.keys -= m.key_weight;
    q_weights -= m.weight;
    q.weights = typename A::value(q_weights);
    if (m.in_tree) {
      tree_keys -= m.key_weight;
      tree_weights -= m.weight;
    }
    full_weight -= m.full_weight;
    --queued;
    delayed -= m.delayed ? 1 : 0;
    absurd_slices -= m.slice == 0 || m.slice == ~std::uint64_t{0} ? 1 : 0;
    const auto at = static_cast<std::ptrdiff_t>(i);
    members.erase(members.begin() + at);
    slice_extremes();  // a minimum cannot be taken out: found again from the members
    for (const Member& kept : members) extend_slices(kept);
  }
  void slice_extremes() {
    custom_slice_min = ~std::uint64_t{0};
    custom_slice_max = 0;
    slice_min = slice_second = ~std::uint64_t{0};
    slice_min_entity = nullptr;
  }
  void extend_slices(const Member& m) {
    if (m.custom_slice) {
      custom_slice_min = m.slice < custom_slice_min ? m.slice : custom_slice_min;
      custom_slice_max = m.slice > custom_slice_max ? m.slice : custom_slice_max;
    }
    if (m.slice < slice_min) {
      slice_second = slice_min;
      slice_min = m.slice;
      slice_min_entity = m.se;
    } else if (m.slice < slice_second) {
      slice_second = m.slice;
    }
  }
};

}  // namespace eevdf::properties
