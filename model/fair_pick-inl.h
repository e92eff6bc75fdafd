// fair.c, part 2: accounting, slice protection and the pick (docs/MODEL.md §5, §7,
// §8, §12). Included by fair-inl.h only.
#pragma once

#include "model/machine.h"

namespace eevdf::model {

// §7.1 __pick_eevdf(): the earliest-deadline eligible entity; a protected eligible
// curr is kept; a tie with curr goes to the tree entity. `wakeup` adds the
// RUN_TO_PARITY_WAKEUP exception (§8.3): a protected curr stays even if ineligible.
template <class A, class P>
auto Machine<A, P>::pick_eevdf(cfs_rq<A>& cfs, bool protect, bool wakeup) -> entity* {
  EEVDF_KERNEL_DIES_IF(cfs.nr_queued == 0, "a pick on an empty runqueue",
                       "NULL dereference of pick_eevdf()'s result in pick_next_entity");
  entity* leftmost = cfs.timeline.empty() ? nullptr : *cfs.timeline.begin();
  if (cfs.nr_queued == 1) return cfs.curr != nullptr && cfs.curr->on_rq ? cfs.curr : leftmost;
  entity* curr = cfs.curr;
  const bool keep_ineligible = wakeup && protect && curr != nullptr && curr->on_rq &&
                               cfg_.feat(Feature::RUN_TO_PARITY_WAKEUP) &&
                               decide(cfs, decision::protected_slice, curr, nullptr, protect_slice(cfs, *curr));
  if (curr != nullptr && !curr->on_rq) curr = nullptr;
  if (curr != nullptr && !keep_ineligible &&
      !decide(cfs, decision::pick_curr_eligible, curr, nullptr, entity_eligible(cfs, *curr)))
    curr = nullptr;
  if (curr != nullptr && pick_keeps_curr(cfs, *curr, protect)) return curr;
  entity* best = nullptr;
  for (entity* se : cfs.timeline) {  // in-order: the heap search's first eligible node
    if (entity_eligible(cfs, *se)) {
      best = se;
      break;
    }
  }
  decide(cfs, decision::pick_walk, best, nullptr, best != nullptr);
  if (best == nullptr ||
      (curr != nullptr && decide(cfs, decision::pick_curr_before, curr, best, entity_before(cfs, *curr, *best))))
    best = curr;
  return best;
}

// §5.2 update_deadline(): a new request once vruntime reaches the deadline.
template <class A, class P>
bool Machine<A, P>::update_deadline(cfs_rq<A>& cfs, entity& se) {
  const bool reached = !A::before(se.vruntime, se.deadline, cfs.overflow, "vruntime - deadline in update_deadline");
  if (!decide(cfs, decision::deadline_reached, &se, nullptr, reached)) return false;
  if (!se.custom_slice) se.slice = cfg_.sysctl_base_slice;
  se.deadline = se.vruntime + calc_delta_fair(cfs, se.slice, se);
  bump(cfs, &se);
  deadline_renewed(cfs);
  return true;
}

// §5.1 update_curr(): charge curr up to now; resched on deadline or protection end.
template <class A, class P>
void Machine<A, P>::update_curr(cfs_rq<A>& cfs) {
  entity* curr = cfs.curr;
  if (curr == nullptr) return;
  if (now_ <= curr->exec_start) return;  // delta_exec <= 0
  const std::uint64_t delta_exec = now_ - curr->exec_start;
  curr->exec_start = now_;
  curr->sum_exec_runtime += delta_exec;
  curr->vruntime += calc_delta_fair(cfs, delta_exec, *curr);
  bump(cfs, curr);
  const bool renewed = update_deadline(cfs, *curr);
  update_min_vruntime(cfs);
  const bool resched = cfs.nr_queued != 1 && update_curr_resched(cfs, *curr, renewed);
  if (observer_ != nullptr) observer_->charged(cfs, *curr, delta_exec, renewed, resched);
  if (resched) {
    resched_curr(rq_of(cfs));
    clear_buddies(cfs, *curr);
  }
}

// §7.3 set_next_entity(): take the pick out of the tree and protect its slice.
template <class A, class P>
void Machine<A, P>::set_next_entity(cfs_rq<A>& cfs, entity& se) {
  if (observer_ != nullptr) observer_->set_next(cfs, se);
  clear_buddies(cfs, se);
  if (se.on_rq) {
    dequeue_entity_tree(cfs, se);
    set_protect_slice(cfs, se);
  }
  EEVDF_ASSERT(cfs.curr == nullptr, "set_next_entity with a curr");
  cfs.curr = &se;
  ++cfs.generation;
  if (observer_ != nullptr) observer_->queue_moved(cfs, se, queue_move::became_curr);
  se.exec_start = now_;  // update_stats_curr_start
  se.prev_sum_exec_runtime = se.sum_exec_runtime;
}

// §7.3 put_prev_entity(): charge and return a still-queued prev to the tree.
template <class A, class P>
void Machine<A, P>::put_prev_entity(cfs_rq<A>& cfs, entity& prev) {
  if (prev.on_rq) {
    update_curr(cfs);
    enqueue_entity_tree(cfs, prev);
  }
  EEVDF_ASSERT(cfs.curr == &prev, "put_prev_entity of a non-curr");
  cfs.curr = nullptr;
  ++cfs.generation;
  if (observer_ != nullptr) observer_->queue_moved(cfs, prev, queue_move::left_curr);
}

// §7.2 pick_next_entity(): an eligible next buddy, else EEVDF; a delayed pick
// completes its sleep and sets `retry`: the caller picks again.
template <class A, class P>
auto Machine<A, P>::pick_next_entity(rq<A>& rq, cfs_rq<A>& cfs, bool& retry) -> entity* {
  retry = false;
  if (cfg_.feat(Feature::PICK_BUDDY) && cfs.next != nullptr &&
      decide(cfs, decision::buddy_eligible, cfs.next, nullptr, entity_eligible(cfs, *cfs.next))) {
    // Reachable with buddy_accepts_delayed (docs/INJECTIONS.md); the kernel warns and
    // goes on with the delayed buddy.
    if (cfs.next->sched_delayed)
      warn(cfs, {"the next buddy is delayed", "SCHED_WARN_ON(cfs_rq->next->sched_delayed) in pick_next_entity"});
    if (observer_ != nullptr) observer_->picked(rq, cfs.next, true);
    return cfs.next;
  }
  entity* se = pick_eevdf(cfs, true);
  if (observer_ != nullptr) observer_->picked(rq, se, false);
  // Nothing eligible: only after an overflow. The kernel would dereference NULL here;
  // the model leaves the CPU idle and pick_nonempty reports it.
  if (se == nullptr) return nullptr;
  if (se->sched_delayed) {
    dequeue_entities(rq, *se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    retry = true;
    return nullptr;
  }
  return se;
}

// §7.2 pick_task_fair(): retried after each completed delayed dequeue.
template <class A, class P>
auto Machine<A, P>::pick_task_fair(rq<A>& rq) -> task* {
  cfs_rq<A>& cfs = rq.cfs;
  // Each retry removes one delayed entity, so nr_queued + 1 rounds always suffice.
  for (unsigned round = 0, rounds_max = cfs.nr_queued + 1; round <= rounds_max; ++round) {
    if (cfs.nr_queued == 0) return nullptr;
    if (cfs.curr != nullptr && cfs.curr->on_rq) update_curr(cfs);
    bool retry = false;
    if (entity* se = pick_next_entity(rq, cfs, retry)) return &task_of(*se);
    if (!retry) return nullptr;
  }
  EEVDF_UNREACHABLE("pick_task_fair did not converge: each retry removes one delayed entity");
}

// §8.2 check_preempt_wakeup_fair(): preempt iff the wakee is what EEVDF picks now.
template <class A, class P>
void Machine<A, P>::check_preempt_wakeup_fair(rq<A>& rq, task& p, unsigned wake_flags) {
  EEVDF_ASSERT(rq.curr != nullptr, "the fair hook runs only under a fair curr");
  cfs_rq<A>& cfs = rq.cfs;
  entity& se = rq.curr->se;
  entity& pse = p.se;
  if (observer_ != nullptr) observer_->wakeup_entered(rq, pse);
  if (&se == &pse) return;
  const bool buddy_ok = !pse.sched_delayed || cfg_.injected(Injection::buddy_accepts_delayed);
  if (cfg_.feat(Feature::NEXT_BUDDY) && (wake_flags & WF_FORK) == 0 && buddy_ok) set_next_buddy(cfs, pse);
  if (rq.need_resched) {
    if (observer_ != nullptr) observer_->wakeup_skipped(rq, pse);
    return;
  }
  if (!cfg_.feat(Feature::WAKEUP_PREEMPTION)) return;
  update_curr(cfs);
  wakeup_preempt_pick(rq, se, pse);
}

// §12 yield_task_fair(): an eligible curr forfeits the rest of its request.
template <class A, class P>
void Machine<A, P>::yield_task_fair(rq<A>& rq) {
  EEVDF_ASSERT(rq.curr != nullptr, "yield of an idle CPU");
  entity& se = rq.curr->se;
  if (rq.nr_running != 1) {
    cfs_rq<A>& cfs = rq.cfs;
    clear_buddies(cfs, se);
    update_curr(cfs);
    if (decide(cfs, decision::yield_eligible, &se, nullptr, entity_eligible(cfs, se))) yield_forfeit(cfs, se);
  }
  if (observer_ != nullptr) observer_->yielded(rq, se);
}

}  // namespace eevdf::model
