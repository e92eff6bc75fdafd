// Definitions of the v6.18 profile's operations (profile_6_18.h). Included by
// machine.cpp only.
#pragma once

#include <algorithm>

#include "base/assert.h"
#include "model/flags.h"
#include "model/machine.h"
#include "model/profile_6_18.h"

namespace eevdf::model {


// §4.1 avg_vruntime(): V = v0 + floor(S / W), curr included when on_rq.
template <class A, class M>
auto profile_ops<A, profile_6_18, M>::avg_vruntime(const cfs_rq<A>& cfs) const -> value {
  OverflowLog& log = cfs.overflow;
  value avg = cfs.avg_vruntime;
  std::uint64_t load = cfs.avg_load;
  if (cfs.curr != nullptr && cfs.curr->on_rq) {
    const std::uint64_t w = scale_load_down(cfs.curr->load.weight);
    avg = A::add(avg, A::mul(m().entity_key(cfs, *cfs.curr), A::from_u64(w), log, "key*w of curr in avg_vruntime"),
                 log, "sum of key*w in avg_vruntime");
    load += w;
  }
  if (load != 0) avg = A::floor_div(avg, A::from_u64(load), log);
  return cfs.min_vruntime + avg;
}


// §4.3 update_min_vruntime(): v0 only moves forward; S is re-based exactly.
template <class A, class M>
void profile_ops<A, profile_6_18, M>::update_min_vruntime(cfs_rq<A>& cfs) {
  const entity* curr = cfs.curr != nullptr && cfs.curr->on_rq ? cfs.curr : nullptr;
  value vruntime = curr != nullptr ? curr->vruntime : cfs.min_vruntime;
  if (!cfs.by_vruntime_index.empty()) {
    const value& tree_min = (*cfs.by_vruntime_index.begin())->tree_vruntime;
    vruntime = curr == nullptr ? tree_min : m().min_vruntime(cfs, vruntime, tree_min);
  }
  const value delta = A::s64(vruntime - cfs.min_vruntime, cfs.overflow, "v0 advance in update_min_vruntime");
  if (delta > 0) {
    if (m().observer_ != nullptr) m().observer_->v0_moved(cfs, cfs.min_vruntime, vruntime);
    const value shift = A::mul(A::from_u64(cfs.avg_load), delta, cfs.overflow, "avg_load*d in avg_vruntime_update");
    cfs.avg_vruntime = A::add(cfs.avg_vruntime, -shift, cfs.overflow, "avg_vruntime re-base");
    cfs.min_vruntime = vruntime;
    m().bump(cfs, nullptr);
  }
}


// §7.3 set_protect_slice(): protect a newly picked curr for min(own slice, the
// shortest other queued slice) of its own service, at most up to its deadline.
template <class A, class M>
void profile_ops<A, profile_6_18, M>::set_protect_slice(cfs_rq<A>& cfs, entity& se) {
  std::uint64_t slice = m().cfg_.normalized_base_slice;
  value vprot = se.deadline;
  std::uint64_t min_slice = ~std::uint64_t{0};
  if (m().cfg_.feat(Feature::RUN_TO_PARITY)) {
    slice = min_slice = m().cfs_rq_min_slice(cfs);
    if (m().cfg_.injected(Injection::parity_ignores_min_slice)) slice = se.slice;  // docs/INJECTIONS.md: up to its own deadline
  }
  slice = std::min(slice, se.slice);
  if (slice != se.slice) vprot = m().min_vruntime(cfs, vprot, se.vruntime + m().calc_delta_fair(cfs, slice, se));
  se.vprot = vprot;
  if (m().observer_ != nullptr) m().observer_->protection_set(cfs, se, min_slice);
}

// §7.3 update_protect_slice(): shrink curr's protection to the shortest queued slice.
template <class A, class M>
void profile_ops<A, profile_6_18, M>::update_protect_slice(cfs_rq<A>& cfs, entity& se) {
  const std::uint64_t slice = m().cfs_rq_min_slice(cfs);
  se.vprot = m().min_vruntime(cfs, se.vprot, se.vruntime + m().calc_delta_fair(cfs, slice, se));
  if (m().observer_ != nullptr) m().observer_->protection_changed(cfs, se, false);
}

// §7.3 protect_slice(): (s64)(vprot - vruntime) > 0.
template <class A, class M>
bool profile_ops<A, profile_6_18, M>::protect_slice(const cfs_rq<A>& cfs, const entity& se) const {
  return A::s64(se.vprot - se.vruntime, cfs.overflow, "vprot - vruntime in protect_slice") > 0;
}

// §7.3 cancel_protect_slice().
template <class A, class M>
void profile_ops<A, profile_6_18, M>::cancel_protect_slice(cfs_rq<A>& cfs, entity& se) {
  if (!m().decide(cfs, decision::protected_slice, &se, nullptr, protect_slice(cfs, se))) return;
  se.vprot = se.vruntime;
  if (m().observer_ != nullptr) m().observer_->protection_changed(cfs, se, true);
}


// §9 reweight_entity() for a task: set_user_nice has dequeued it (on_rq == 0), so
// only the stored lag and a relative deadline are rescaled by old/new weight.
// `was_queued`: the task was on the runqueue before set_user_nice dequeued it.
template <class A, class M>
void profile_ops<A, profile_6_18, M>::reweight_entity(cfs_rq<A>& cfs, entity& se, std::uint64_t weight, bool was_queued) {
  EEVDF_ASSERT(!se.on_rq, "tasks are reweighted off the runqueue (§9)");
  const value old_weight = A::from_u64(se.load.weight);
  const value new_weight = A::from_u64(weight);
  // docs/INJECTIONS.md reweight_unscaled_lag: before eab03c23c2a1 a queued entity kept its lag
  // unscaled; an entity off the runqueue was scaled then too.
  if (!(was_queued && m().cfg_.injected(Injection::reweight_unscaled_lag))) {
    const value scaled = A::mul(se.vlag, old_weight, cfs.overflow, "vlag*w_old in reweight_entity");
    se.vlag = A::div_s64(scaled, new_weight, cfs.overflow, "weight as div_s64 divisor in reweight_entity");
  }
  if (se.rel_deadline) {
    const value scaled = A::mul(se.deadline, old_weight, cfs.overflow, "deadline*w_old in reweight_entity");
    se.deadline = A::div_s64(scaled, new_weight, cfs.overflow, "weight as div_s64 divisor in reweight_entity");
  }
  const std::uint64_t old = se.load.weight;
  se.load.weight = weight;
  m().bump(cfs, &se);
  se.load.inv_weight = 0;  // update_load_set; reweight_task_fair restores the table inverse
  if (m().observer_ != nullptr) m().observer_->reweighted(cfs, se, old, se.rel_deadline);
}

// §8.2 steps 7-10: preempt iff the wakee is what EEVDF picks now, curr's protection
// honoured unless the wakee asks for a shorter slice (PREEMPT_SHORT).
template <class A, class M>
void profile_ops<A, profile_6_18, M>::wakeup_preempt_pick(rq<A>& rq, entity& se, entity& pse) {
  cfs_rq<A>& cfs = rq.cfs;
  const bool do_preempt_short = m().cfg_.feat(Feature::PREEMPT_SHORT) && pse.slice < se.slice;
  Observer<A>* const observer = m().observer_;
  if (observer != nullptr) observer->wakeup_pick_step(rq, se, pse, do_preempt_short);
  const bool preempt = m().pick_eevdf(cfs, !do_preempt_short, true) == &pse;
  if (observer != nullptr) observer->wakeup_decided(rq, pse, preempt);
  if (preempt) {
    if (do_preempt_short) cancel_protect_slice(cfs, se);
    m().resched_curr(rq);
    return;
  }
  // docs/INJECTIONS.md parity_ignores_min_slice: before 3a0baa8e6c57 a wakeup did not shrink it.
  if (m().cfg_.feat(Feature::RUN_TO_PARITY) && do_preempt_short &&
      !m().cfg_.injected(Injection::parity_ignores_min_slice))
    update_protect_slice(cfs, se);
}

template <class A, class M>
void profile_ops<A, profile_6_18, M>::yield_forfeit(cfs_rq<A>& cfs, entity& se) {
  se.vruntime = se.deadline;
  se.deadline = se.deadline + m().calc_delta_fair(cfs, se.slice, se);
  m().bump(cfs, &se);
  update_min_vruntime(cfs);
}

}  // namespace eevdf::model
