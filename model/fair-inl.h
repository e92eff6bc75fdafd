// The fair class of kernel/sched/fair.c (v6.18.2) for task entities, written once
// over the arithmetic policy A. Each function names the docs/MODEL.md section it follows.
// Included only by machine.cpp, which instantiates it for both arithmetics.
#pragma once

#include <algorithm>

#include "base/assert.h"
#include "model/flags.h"
#include "model/machine.h"

namespace eevdf::model {

// §3.2: key_i = (s64)(v_i - v0).
template <class A, class P>
auto Machine<A, P>::entity_key(const cfs_rq<A>& cfs, const entity& se) const -> value {
  return A::s64(se.vruntime - cfs.min_vruntime, cfs.overflow, "key = v - v0");
}

// §4.2 vruntime_eligible(): S >= (v - v0) * W, without division.
template <class A, class P>
bool Machine<A, P>::vruntime_eligible(const cfs_rq<A>& cfs, const value& vruntime) const {
  OverflowLog& log = cfs.overflow;
  value avg = cfs.avg_vruntime;
  std::uint64_t load = cfs.avg_load;
  if (cfs.curr != nullptr && cfs.curr->on_rq) {
    const std::uint64_t w = scale_load_down(cfs.curr->load.weight);
    avg = A::add(avg, A::mul(entity_key(cfs, *cfs.curr), A::from_u64(w), log, "key*w of curr in vruntime_eligible"),
                 log, "sum of key*w in vruntime_eligible");
    load += w;
  }
  const value key = A::s64(vruntime - cfs.min_vruntime, log, "key = v - v0 in vruntime_eligible");
  return avg >= A::mul(key, A::from_u64(load), log, "key*W in vruntime_eligible");
}

// §4.2 entity_eligible().
template <class A, class P>
bool Machine<A, P>::entity_eligible(const cfs_rq<A>& cfs, const entity& se) const {
  return vruntime_eligible(cfs, se.vruntime);
}

// §1.1, §3.3 entity_before(): (s64)(a.deadline - b.deadline) < 0.
template <class A, class P>
bool Machine<A, P>::entity_before(const cfs_rq<A>& cfs, const entity& a, const entity& b) const {
  return A::before(a.deadline, b.deadline, cfs.overflow, "deadline difference");
}

// §1.1 min_vruntime(): the earlier of two virtual times by signed difference.
template <class A, class P>
auto Machine<A, P>::min_vruntime(const cfs_rq<A>& cfs, const value& a, const value& b) const -> value {
  return A::before(b, a, cfs.overflow, "vruntime difference in min_vruntime") ? b : a;
}

// §3.3 avg_vruntime_add(): S += key*w, W += w.
template <class A, class P>
void Machine<A, P>::avg_vruntime_add(cfs_rq<A>& cfs, const entity& se) {
  const std::uint64_t w = scale_load_down(se.load.weight);
  const value kw = A::mul(entity_key(cfs, se), A::from_u64(w), cfs.overflow, "key*w in avg_vruntime_add");
  cfs.avg_vruntime = A::add(cfs.avg_vruntime, kw, cfs.overflow, "sum of key*w in avg_vruntime_add");
  cfs.avg_load += w;
  ++cfs.generation;
}

// §3.3 avg_vruntime_sub(): S -= key*w, W -= w.
template <class A, class P>
void Machine<A, P>::avg_vruntime_sub(cfs_rq<A>& cfs, const entity& se) {
  const std::uint64_t w = scale_load_down(se.load.weight);
  const value kw = A::mul(entity_key(cfs, se), A::from_u64(w), cfs.overflow, "key*w in avg_vruntime_sub");
  cfs.avg_vruntime = A::add(cfs.avg_vruntime, -kw, cfs.overflow, "sum of key*w in avg_vruntime_sub");
  EEVDF_ASSERT(cfs.avg_load >= w, "avg_load underflow");
  cfs.avg_load -= w;
  ++cfs.generation;
}

// §3.3 cfs_rq_min_slice(): the smallest slice among on_rq curr and the tree (exact).
template <class A, class P>
std::uint64_t Machine<A, P>::cfs_rq_min_slice(const cfs_rq<A>& cfs) const {
  std::uint64_t min_slice = ~std::uint64_t{0};
  if (cfs.curr != nullptr && cfs.curr->on_rq) min_slice = cfs.curr->slice;
  if (!cfs.slices.empty()) min_slice = std::min(min_slice, *cfs.slices.begin());
  return min_slice;
}

// §3.3 __enqueue_entity(): into the sums and the tree, after equal deadlines.
template <class A, class P>
void Machine<A, P>::enqueue_entity_tree(cfs_rq<A>& cfs, entity& se) {
  avg_vruntime_add(cfs, se);
  se.tree_deadline = se.deadline;
  se.tree_vruntime = se.vruntime;
  se.tree_slice = se.slice;
  se.tree_seq = cfs.tree_seq_next++;
  const bool inserted = cfs.timeline.insert(&se).second && cfs.by_vruntime_index.insert(&se).second;
  EEVDF_ASSERT(inserted, "entity already in the tree");
  cfs.slices.insert(se.tree_slice);
  if (observer_ != nullptr) observer_->queue_moved(cfs, se, queue_move::into_tree);
}

// §3.3 __dequeue_entity(): out of the tree and the sums. The sums use the current
// vruntime, which equals the one inserted: an entity never runs while in the tree.
template <class A, class P>
void Machine<A, P>::dequeue_entity_tree(cfs_rq<A>& cfs, entity& se) {
  EEVDF_ASSERT(se.vruntime == se.tree_vruntime, "vruntime changed in the tree");
  const bool erased = cfs.timeline.erase(&se) == 1 && cfs.by_vruntime_index.erase(&se) == 1;
  EEVDF_ASSERT(erased, "entity not in the tree");
  cfs.slices.erase(cfs.slices.find(se.tree_slice));
  avg_vruntime_sub(cfs, se);
  if (observer_ != nullptr) observer_->queue_moved(cfs, se, queue_move::out_of_tree);
}

// §1.3 calc_delta_fair() with this runqueue's overflow log.
template <class A, class P>
auto Machine<A, P>::calc_delta_fair(cfs_rq<A>& cfs, std::uint64_t delta, const entity& se) -> value {
  return A::calc_delta_fair(delta, se.load, cfs.overflow);
}

}  // namespace eevdf::model

#include "model/fair_pick-inl.h"
#include "model/fair_queue-inl.h"
