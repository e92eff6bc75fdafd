// fair.c, part 3: lag, placement, enqueue, dequeue, delayed dequeue and reweight
// (docs/MODEL.md §5.3, §6, §9, §10). Included by fair-inl.h only.
#pragma once

#include "model/machine.h"

namespace eevdf::model {

// §5.3 update_entity_lag(): vlag = V - v, clamped to calc_delta_fair(max(2r, tick)).
template <class A, class P>
void Machine<A, P>::update_entity_lag(cfs_rq<A>& cfs, entity& se, bool clamp) {
  if (!se.on_rq) warn(cfs, {"the lag of an entity that is not queued", "WARN_ON_ONCE(!se->on_rq) in update_entity_lag"});
  const value V = avg_vruntime(cfs);
  const value vlag = A::s64(V - se.vruntime, cfs.overflow, "vlag = V - v");
  const value limit = calc_delta_fair(cfs, std::max(2 * se.slice, cfg_.tick_nsec), se);
  se.vlag = clamp ? std::clamp(vlag, value(-limit), limit) : vlag;
  if (observer_ != nullptr) observer_->lag_stored(cfs, se, vlag, limit, V);
}

// §6.1 place_entity(): vruntime = V - inflated lag; deadline restored or renewed.
template <class A, class P>
void Machine<A, P>::place_entity(cfs_rq<A>& cfs, entity& se, unsigned flags) {
  const value V = avg_vruntime(cfs);
  if (!se.custom_slice) se.slice = cfg_.sysctl_base_slice;
  value vslice = calc_delta_fair(cfs, se.slice, se);
  value lag{};
  if (cfg_.feat(Feature::PLACE_LAG) && cfs.nr_queued > 0 && se.vlag != 0) {
    std::uint64_t load = cfs.avg_load;
    if (cfs.curr != nullptr && cfs.curr->on_rq) load += scale_load_down(cfs.curr->load.weight);
    lag = A::mul(se.vlag, A::from_u64(load + scale_load_down(se.load.weight)), cfs.overflow,
                 "vlag*(W+w) in place_entity");
    if (load == 0) load = 1;  // the kernel WARNs and goes on
    lag = A::div_s64(lag, A::from_u64(load), cfs.overflow, "W as div_s64 divisor in place_entity");
  }
  se.vruntime = V - lag;
  bump(cfs, &se);
  if (se.rel_deadline) {
    se.deadline = se.deadline + se.vruntime;
    se.rel_deadline = false;
    return;
  }
  if (cfg_.feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL) != 0) vslice = A::half(vslice);
  se.deadline = se.vruntime + vslice;
}

// §6.2 enqueue_entity(): charge curr, place, account, insert.
template <class A, class P>
void Machine<A, P>::enqueue_entity(cfs_rq<A>& cfs, entity& se, unsigned flags) {
  const bool curr = cfs.curr == &se;
  const value stored_vlag = observer_ != nullptr ? se.vlag : value{};
  const value rel_deadline = observer_ != nullptr && se.rel_deadline ? se.deadline : value{};
  const bool had_rel_deadline = se.rel_deadline;
  if (curr) place_entity(cfs, se, flags);
  update_curr(cfs);
  if (!curr) place_entity(cfs, se, flags);
  cfs.load_weight += se.load.weight;  // account_entity_enqueue
  cfs.nr_queued++;
  if ((flags & ENQUEUE_MIGRATED) != 0) se.exec_start = 0;
  if (!curr) enqueue_entity_tree(cfs, se);
  se.on_rq = true;
  bump(cfs, &se);
  if (observer_ != nullptr) observer_->placed(cfs, se, flags, stored_vlag, had_rel_deadline, rel_deadline);
}

// §7.2 clear_buddies(): forget `next` only if it is this entity.
template <class A, class P>
void Machine<A, P>::clear_buddies(cfs_rq<A>& cfs, const entity& se) {
  if (cfs.next == &se) cfs.next = nullptr;
}

// §7.2 set_next_buddy().
template <class A, class P>
void Machine<A, P>::set_next_buddy(cfs_rq<A>& cfs, entity& se) {
  if (!se.on_rq) {
    warn(cfs, {"a buddy that is not queued", "WARN_ON_ONCE(!se->on_rq) in set_next_buddy"});
    return;
  }
  cfs.next = &se;
  if (observer_ != nullptr) observer_->buddy_set(cfs, se);
}

// §10 set_delayed(): a delayed task no longer counts as runnable.
template <class A, class P>
void Machine<A, P>::set_delayed(cfs_rq<A>& cfs, entity& se) {
  se.sched_delayed = true;
  bump(cfs, &se);
  EEVDF_KERNEL_DIES_IF(cfs.h_nr_runnable <= 0,
                       "cfs_rq->h_nr_runnable underflows", "unchecked `cfs_rq->h_nr_runnable--` in set_delayed");
  cfs.h_nr_runnable--;
}

// §10 clear_delayed().
template <class A, class P>
void Machine<A, P>::clear_delayed(cfs_rq<A>& cfs, entity& se) {
  se.sched_delayed = false;
  bump(cfs, &se);
  cfs.h_nr_runnable++;
}

// §10 finish_delayed_dequeue_entity(): DELAY_ZERO clips positive lag.
template <class A, class P>
void Machine<A, P>::finish_delayed_dequeue_entity(cfs_rq<A>& cfs, entity& se) {
  clear_delayed(cfs, se);
  if (cfg_.feat(Feature::DELAY_ZERO) && se.vlag > 0) se.vlag = value{};
  if (observer_ != nullptr) observer_->delay_left(cfs, se, delay_exit::by_pick);
}

// §6.3 dequeue_entity(): false when the sleep is delayed (DELAY_DEQUEUE).
template <class A, class P>
bool Machine<A, P>::dequeue_entity(cfs_rq<A>& cfs, entity& se, unsigned flags) {
  const bool sleep = (flags & DEQUEUE_SLEEP) != 0;
  update_curr(cfs);
  clear_buddies(cfs, se);
  if ((flags & DEQUEUE_DELAYED) != 0) {
    if (!se.sched_delayed)
      warn(cfs, {"DEQUEUE_DELAYED of an entity that is not delayed", "SCHED_WARN_ON(!se->sched_delayed) in dequeue_entity"});
  } else {
    const bool delay = sleep && (flags & DEQUEUE_SPECIAL) == 0;
    // Reachable with buddy_accepts_delayed, where a delayed buddy runs and sleeps
    // again (docs/INJECTIONS.md); the kernel warns and goes on.
    if (delay && se.sched_delayed)
      warn(cfs, {"a delayed entity sleeps again", "SCHED_WARN_ON(delay && se->sched_delayed) in dequeue_entity"});
    if (cfg_.feat(Feature::DELAY_DEQUEUE) && delay &&
        !decide(cfs, decision::delay_eligible, &se, nullptr, entity_eligible(cfs, se))) {
      set_delayed(cfs, se);
      if (observer_ != nullptr) observer_->delay_entered(cfs, se, flags);
      return false;
    }
  }
  // docs/INJECTIONS.md reweight_unclamped_lag: the SAVE dequeue of a renice stored raw V - v.
  const bool clamp = !((flags & DEQUEUE_MODEL_RENICE) != 0 && cfg_.injected(Injection::reweight_unclamped_lag));
  update_entity_lag(cfs, se, clamp);
  if (cfg_.feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
    se.deadline = se.deadline - se.vruntime;
    se.rel_deadline = true;
  }
  if (&se != cfs.curr) dequeue_entity_tree(cfs, se);
  se.on_rq = false;
  bump(cfs, &se);
  EEVDF_KERNEL_DIES_IF(cfs.nr_queued == 0 || cfs.load_weight < se.load.weight, "cfs_rq->nr_queued or load underflows",
                       "unchecked update_load_sub and `cfs_rq->nr_queued--` in account_entity_dequeue");
  cfs.load_weight -= se.load.weight;
  cfs.nr_queued--;
  if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE) update_min_vruntime(cfs);
  if ((flags & DEQUEUE_DELAYED) != 0) finish_delayed_dequeue_entity(cfs, se);
  return true;
}

// §10 requeue_delayed_entity(): a wakeup ends the delay; positive lag is re-placed
// at zero lag (DELAY_ZERO). No update_curr first: V sees curr as last charged.
template <class A, class P>
void Machine<A, P>::requeue_delayed_entity(cfs_rq<A>& cfs, entity& se) {
  EEVDF_KERNEL_DIES_IF(!se.sched_delayed || !se.on_rq, "requeue of an entity that is not delayed and queued",
                       "SCHED_WARN_ON(!se->sched_delayed) and SCHED_WARN_ON(!se->on_rq) in requeue_delayed_entity");
  if (cfg_.feat(Feature::DELAY_ZERO)) {
    update_entity_lag(cfs, se);
    if (decide(cfs, decision::requeue_positive_lag, &se, nullptr, se.vlag > 0)) {
      cfs.nr_queued--;
      if (&se != cfs.curr) dequeue_entity_tree(cfs, se);
      se.vlag = value{};
      place_entity(cfs, se, 0);
      if (&se != cfs.curr) enqueue_entity_tree(cfs, se);
      cfs.nr_queued++;
      if (observer_ != nullptr) observer_->placed(cfs, se, 0, value{}, false, value{});
    }
  }
  clear_delayed(cfs, se);
  if (observer_ != nullptr) observer_->delay_left(cfs, se, delay_exit::by_wake);
}

// §6.2 enqueue_task_fair() for a task entity on the root cfs_rq.
template <class A, class P>
void Machine<A, P>::enqueue_task_fair(rq<A>& rq, task& p, unsigned flags) {
  entity& se = p.se;
  if ((flags & ENQUEUE_DELAYED) != 0) {
    requeue_delayed_entity(rq.cfs, se);
    return;
  }
  EEVDF_ASSERT(!se.on_rq, "enqueue of a queued entity");
  const bool task_new = (flags & ENQUEUE_WAKEUP) == 0;
  const unsigned h_nr_runnable = task_new && se.sched_delayed ? 0 : 1;  // a migrating delayed task
  enqueue_entity(rq.cfs, se, flags);
  rq.cfs.h_nr_runnable += static_cast<int>(h_nr_runnable);
  rq.cfs.h_nr_queued++;
  rq.nr_running++;  // add_nr_running
  rq.ever_enqueued = true;
}

// §6.3 dequeue_entities(): -1 when delayed; completes a delayed sleep with __block_task.
template <class A, class P>
int Machine<A, P>::dequeue_entities(rq<A>& rq, entity& se, unsigned flags) {
  const bool task_sleep = (flags & DEQUEUE_SLEEP) != 0;
  const bool task_delayed = (flags & DEQUEUE_DELAYED) != 0;
  const unsigned h_nr_runnable = task_sleep || task_delayed || !se.sched_delayed ? 1 : 0;
  if (!dequeue_entity(rq.cfs, se, flags)) return -1;
  EEVDF_KERNEL_DIES_IF(rq.cfs.h_nr_runnable < static_cast<int>(h_nr_runnable) ||
                           rq.cfs.h_nr_queued <= 0 || rq.nr_running <= 0,
                       "h_nr_runnable, h_nr_queued or nr_running underflows",
                       "unchecked counter decrements in dequeue_entities and sub_nr_running");
  rq.cfs.h_nr_runnable -= static_cast<int>(h_nr_runnable);
  rq.cfs.h_nr_queued--;
  rq.nr_running--;  // sub_nr_running
  if (task_delayed) block_task_complete(rq, task_of(se));
  return 1;
}

// §6.3 dequeue_task_fair(): false only for a delayed sleep.
template <class A, class P>
bool Machine<A, P>::dequeue_task_fair(rq<A>& rq, task& p, unsigned flags) {
  return dequeue_entities(rq, p.se, flags) >= 0;
}

// §9 prio_changed_fair(): a running task reschedules if its nice rose; a queued one
// gets a wakeup-preemption check.
template <class A, class P>
void Machine<A, P>::prio_changed_fair(rq<A>& rq, task& p, int old_nice) {
  if (!p.on_rq) return;  // task_on_rq_queued
  if (rq.cfs.nr_queued == 1) return;
  if (rq.curr == &p) {
    if (p.nice > old_nice) resched_curr(rq);
  } else {
    wakeup_preempt(rq, p, 0);
  }
}

}  // namespace eevdf::model
