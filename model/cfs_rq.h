// struct cfs_rq of one CPU (docs/MODEL.md §3.2, §3.3): the deadline-ordered tree,
// the sums behind V, the reference point v0, curr and the next buddy.
//
// The tree is an ordered set keyed by (deadline, insertion order): the kernel's
// rbtree gives the same in-order sequence, and the pick's heap search returns the
// first eligible entity of that sequence (§7.1 step 5), so the shape of the tree
// does not matter as long as min_slice is kept exact (our 6.18 profile, §3.3).
#pragma once

#include <cstdint>  // counters
#include <set>      // the tree and its augmented minima

#include "model/overflow.h"
#include "model/sched_entity.h"

namespace eevdf::model {

template <class A>
struct rq;

template <class A>
struct cfs_rq {
  using value = typename A::value;
  using entity = sched_entity<A>;

  // Both orders read the keys captured at insertion (sched_entity::tree_*).
  struct by_deadline {
    bool operator()(const entity* a, const entity* b) const {
      if (a->tree_deadline != b->tree_deadline) return a->tree_deadline < b->tree_deadline;
      return a->tree_seq < b->tree_seq;
    }
  };
  struct by_vruntime {
    bool operator()(const entity* a, const entity* b) const {
      if (a->tree_vruntime != b->tree_vruntime) return a->tree_vruntime < b->tree_vruntime;
      return a->tree_seq < b->tree_seq;
    }
  };

  std::uint64_t load_weight = 0;  // Σ full weights of on_rq entities (curr and delayed included)
  unsigned nr_queued = 0;         // on_rq entities, curr and delayed included
  unsigned h_nr_queued = 0;       // tasks queued (flat: equals nr_queued)
  // h_nr_queued minus delayed tasks; signed so that a broken count (a delayed
  // entity run by mistake under an injection) shows as negative instead of wrapping.
  int h_nr_runnable = 0;
  value avg_vruntime{};           // Σ key_i * w_i over the tree (curr excluded)
  std::uint64_t avg_load = 0;     // Σ w_i over the tree (scaled-down weights)
  value min_vruntime{};           // v0 (§4.3), set by init_cfs_rq
  entity* curr = nullptr;         // the picked entity, not in the tree
  entity* next = nullptr;         // the next buddy (§7.2)

  std::set<entity*, by_deadline> timeline;     // tasks_timeline
  std::set<entity*, by_vruntime> by_vruntime_index;  // root->min_vruntime = *begin()
  std::multiset<std::uint64_t> slices;         // root->min_slice = *begin(), kept exact
  std::uint64_t tree_seq_next = 1;

  rq<A>* rq_ = nullptr;           // rq_of(cfs_rq)
  // Not the kernel's: bumped at every change of what is queued here, of curr, v0,
  // or of a queued entity's vruntime, weight, slice or delayed state, so that an
  // observer can reuse a recount of the queue while it stays the same
  // (properties' Env::facts; Debug builds check every reuse against a recount).
  std::uint64_t generation = 0;
  // 64-bit overflows detected on this runqueue. Mutable: the kernel computes V and
  // eligibility in read-only helpers too, and their overflows must be seen.
  mutable OverflowLog overflow;
};

}  // namespace eevdf::model
