// Definitions of the 6.12 profile's operations (profile_6_12.h). Included by
// machine.cpp only.
#pragma once

#include "base/assert.h"
#include "model/flags.h"
#include "model/machine.h"
#include "model/profile_6_12.h"

namespace eevdf::model {

// §4.1 with 6.12.117's cases: with tree weight, floor(S'/W') over the tree and an
// on_rq curr; with an empty tree, an on_rq curr is the average; else 0.
template <class A, class M>
auto profile_ops<A, profile_6_12, M>::zero_delta(const cfs_rq<A>& cfs) const -> value {
  OverflowLog& log = cfs.overflow;
  const entity* curr = cfs.curr != nullptr && cfs.curr->on_rq ? cfs.curr : nullptr;
  if (cfs.avg_load == 0)
    return curr != nullptr ? A::s64(curr->vruntime - cfs.min_vruntime, log, "curr vruntime - v0 in avg_vruntime") : value{};
  value runtime = cfs.avg_vruntime;
  std::uint64_t weight = cfs.avg_load;
  if (curr != nullptr) {
    const std::uint64_t w = scale_load_down(curr->load.weight);
    runtime = A::add(runtime, A::mul(m().entity_key(cfs, *curr), A::from_u64(w), log, "key*w of curr in avg_vruntime"),
                     log, "sum of key*w in avg_vruntime");
    weight += w;
  }
  return A::floor_div(runtime, A::from_u64(weight), log);
}

// update_zero_vruntime(): v0 += d, S -= W*d (exact re-base), then V = v0.
template <class A, class M>
auto profile_ops<A, profile_6_12, M>::avg_vruntime(cfs_rq<A>& cfs) -> value {
  const value delta = zero_delta(cfs);
  if (delta != value{}) {
    if (m().observer_ != nullptr) m().observer_->v0_moved(cfs, cfs.min_vruntime, cfs.min_vruntime + delta);
    const value shift = A::mul(A::from_u64(cfs.avg_load), delta, cfs.overflow, "avg_load*d in update_zero_vruntime");
    cfs.avg_vruntime = A::add(cfs.avg_vruntime, -shift, cfs.overflow, "avg_vruntime re-base");
    cfs.min_vruntime = cfs.min_vruntime + delta;
    m().bump(cfs, nullptr);
  }
  return cfs.min_vruntime;
}

template <class A, class M>
auto profile_ops<A, profile_6_12, M>::avg_vruntime(const cfs_rq<A>& cfs) const -> value {
  return cfs.min_vruntime + zero_delta(cfs);
}

// §7.3 (6.12) set_next_entity: stash the deadline in vlag.
template <class A, class M>
void profile_ops<A, profile_6_12, M>::set_protect_slice(cfs_rq<A>& cfs, entity& se) {
  se.vlag = se.deadline;
  if (m().observer_ != nullptr) m().observer_->protection_set(cfs, se, ~std::uint64_t{0});
}

template <class A, class M>
bool profile_ops<A, profile_6_12, M>::protect_slice(const cfs_rq<A>&, const entity& se) const {
  return se.vlag == se.deadline;
}

template <class A, class M>
void profile_ops<A, profile_6_12, M>::cancel_protect_slice(cfs_rq<A>& cfs, entity& se) {
  if (!m().decide(cfs, decision::protected_slice, &se, nullptr, protect_slice(cfs, se))) return;
  se.vlag = se.deadline + 1;
  if (m().observer_ != nullptr) m().observer_->protection_changed(cfs, se, true);
}

// §9 (reweight_eevdf era) for a task, dequeued by set_user_nice: only the stored
// lag is rescaled by old/new weight; a relative deadline is kept as it is.
template <class A, class M>
void profile_ops<A, profile_6_12, M>::reweight_entity(cfs_rq<A>& cfs, entity& se, std::uint64_t weight, bool was_queued) {
  EEVDF_ASSERT(!se.on_rq, "tasks are reweighted off the runqueue (§9)");
  if (!(was_queued && m().cfg_.injected(Injection::reweight_unscaled_lag))) {
    const value scaled = A::mul(se.vlag, A::from_u64(se.load.weight), cfs.overflow, "vlag*w_old in reweight_entity");
    se.vlag = A::div_s64(scaled, A::from_u64(weight), cfs.overflow, "weight as div_s64 divisor in reweight_entity");
  }
  const std::uint64_t old = se.load.weight;
  se.load.weight = weight;
  m().bump(cfs, &se);
  se.load.inv_weight = 0;  // update_load_set; reweight_task_fair restores the table inverse
  if (m().observer_ != nullptr) m().observer_->reweighted(cfs, se, old, false);
}

template <class A, class M>
bool profile_ops<A, profile_6_12, M>::update_curr_resched(const cfs_rq<A>& cfs, const entity& curr,
                                                          bool deadline_renewed) const {
  if (deadline_renewed) return true;
  return m().cfg_.feat(Feature::PREEMPT_SHORT) &&
         !m().decide(cfs, decision::protected_slice, &curr, nullptr, protect_slice(cfs, curr)) &&
         !m().decide(cfs, decision::resched_curr_eligible, &curr, nullptr, m().entity_eligible(cfs, curr));
}

template <class A, class M>
bool profile_ops<A, profile_6_12, M>::pick_keeps_curr(const cfs_rq<A>& cfs, const entity& curr, bool) const {
  return m().cfg_.feat(Feature::RUN_TO_PARITY) &&
         m().decide(cfs, decision::protected_slice, &curr, nullptr, protect_slice(cfs, curr));
}

// §8.2 (6.12) do_preempt_short(): an eligible wakee with a shorter slice and either an
// earlier deadline or an ineligible curr.
template <class A, class M>
bool profile_ops<A, profile_6_12, M>::do_preempt_short(const cfs_rq<A>& cfs, const entity& pse, const entity& se) const {
  if (!m().cfg_.feat(Feature::PREEMPT_SHORT) || pse.slice >= se.slice) return false;
  if (!m().decide(cfs, decision::short_wakee_eligible, &pse, nullptr, m().entity_eligible(cfs, pse))) return false;
  return m().decide(cfs, decision::short_wakee_before, &pse, &se, m().entity_before(cfs, pse, se)) ||
         !m().decide(cfs, decision::short_curr_eligible, &se, nullptr, m().entity_eligible(cfs, se));
}

// §8.2 steps 7-8 (6.12): PREEMPT_SHORT cancels curr's protection before the pick,
// whether or not the wakee is then picked; preempt iff the pick is the wakee.
template <class A, class M>
void profile_ops<A, profile_6_12, M>::wakeup_preempt_pick(rq<A>& rq, entity& se, entity& pse) {
  cfs_rq<A>& cfs = rq.cfs;
  const bool short_ = do_preempt_short(cfs, pse, se);
  // The hook sees curr's protection before the check's own change (as in 6.18).
  Observer<A>* const observer = m().observer_;
  if (observer != nullptr) observer->wakeup_pick_step(rq, se, pse, short_);
  if (short_) cancel_protect_slice(cfs, se);
  const bool preempt = m().pick_eevdf(cfs, true, true) == &pse;
  if (observer != nullptr) observer->wakeup_decided(rq, pse, preempt);
  if (preempt) m().resched_curr(rq);
}

template <class A, class M>
void profile_ops<A, profile_6_12, M>::yield_forfeit(cfs_rq<A>& cfs, entity& se) {
  se.vruntime = se.deadline;
  m().bump(cfs, &se);
  m().update_deadline(cfs, se);
}

}  // namespace eevdf::model
