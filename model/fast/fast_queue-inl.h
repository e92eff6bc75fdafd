// fair.c, part 3, in the fast model: lag, placement, enqueue, dequeue, delayed
// dequeue and reweight (docs/MODEL.md §5.3, §6, §9, §10). Mirrors
// model/fair_queue-inl.h. Included by fast_fair-inl.h only.
#pragma once

#include <algorithm>  // std::clamp, std::max

#include "model/fast/fast_machine.h"
#include "model/flags.h"

namespace eevdf::model::fast {

// §5.3 update_entity_lag(): vlag = V - v, clamped to calc_delta_fair(max(2r, tick)).
template <bool Simd>
void FastMachine<Simd>::update_entity_lag(Runqueue& rq, int se, bool clamp) {
  Entity& e = se_[idx(se)];
  // The kernel warns when !e.on_rq and goes on (the reference records it: kernel_warn).
  const s64 vlag = checked_sub(avg_vruntime_offset(rq), entity_key(rq, se), rq, "vlag = V - v");
  const u64 limit = calc_delta_fair(rq, std::max(2 * e.slice, cfg_.tick_nsec), se);
  // A limit beyond s64 bounds nothing an s64 can hold.
  const bool bounded = clamp && limit <= static_cast<u64>(INT64_MAX);
  e.vlag = bounded ? std::clamp(vlag, -static_cast<s64>(limit), static_cast<s64>(limit)) : vlag;
}

// §6.1 place_entity(): vruntime = V - inflated lag; deadline restored or renewed.
template <bool Simd>
void FastMachine<Simd>::place_entity(Runqueue& rq, int se, unsigned flags) {
  Entity& e = se_[idx(se)];
  const s64 V = avg_vruntime_offset(rq);  // relative to v0
  if (!e.custom_slice) e.slice = cfg_.sysctl_base_slice;
  u64 vslice = calc_delta_fair(rq, e.slice, se);
  s64 lag = 0;
  if (place_lag_ && rq.nr_queued > 0 && e.vlag != 0) {
    u64 load = rq.avg_load;
    if (curr_on_rq(rq)) load += weight_of(se_[idx(rq.cfs_curr)].nice);
    lag = checked_mul(e.vlag, as_s64(load + weight_of(e.nice), rq, "W as s64"), rq, "vlag*(W+w) in place_entity");
    if (load == 0) load = 1;  // the kernel WARNs and goes on
    lag = div_s64(lag, load, rq, "W as div_s64 divisor in place_entity");
  }
  const s64 key = checked_sub(V, lag, rq, "key = v - v0");
  e.vruntime = wrap_add(rq.min_vruntime, key);
  if (e.rel_deadline) {
    e.deadline += e.vruntime;
    e.rel_deadline = false;
    return;
  }
  if (cfg_.feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL) != 0) vslice /= 2;
  e.deadline = e.vruntime + vslice;
}

// §6.2 enqueue_entity(): charge curr, place, account, insert.
template <bool Simd>
void FastMachine<Simd>::enqueue_entity(Runqueue& rq, int se, unsigned flags) {
  const bool curr = rq.cfs_curr == se;
  if (curr) place_entity(rq, se, flags);
  update_curr(rq);
  if (!curr) place_entity(rq, se, flags);
  Entity& e = se_[idx(se)];
  rq.load_weight += full_weight_of(e.nice);
  rq.nr_queued++;
  if ((flags & ENQUEUE_MIGRATED) != 0) e.exec_start = 0;
  if (!curr) enqueue_entity_tree(rq, se);
  e.on_rq = true;
}

// §10 set_delayed(): a delayed task no longer counts as runnable.
template <bool Simd>
void FastMachine<Simd>::set_delayed(Runqueue& rq, int se) {
  se_[idx(se)].sched_delayed = true;
  EEVDF_KERNEL_DIES_IF(rq.h_nr_runnable <= 0,
                       "cfs_rq->h_nr_runnable underflows", "unchecked `cfs_rq->h_nr_runnable--` in set_delayed");
  rq.h_nr_runnable--;
}

// §10 clear_delayed().
template <bool Simd>
void FastMachine<Simd>::clear_delayed(Runqueue& rq, int se) {
  se_[idx(se)].sched_delayed = false;
  rq.h_nr_runnable++;
}

// §6.3 dequeue_entity(): false when the sleep is delayed (DELAY_DEQUEUE).
template <bool Simd>
bool FastMachine<Simd>::dequeue_entity(Runqueue& rq, int se, unsigned flags) {
  const bool sleep = (flags & DEQUEUE_SLEEP) != 0;
  Entity& e = se_[idx(se)];
  update_curr(rq);
  clear_buddies(rq, se);
  // The kernel's two SCHED_WARN_ONs here (DEQUEUE_DELAYED of an entity that is not
  // delayed, a delayed entity sleeping again) only warn: the reference records them.
  if ((flags & DEQUEUE_DELAYED) == 0) {
    const bool delay = sleep && (flags & DEQUEUE_SPECIAL) == 0;
    if (cfg_.feat(Feature::DELAY_DEQUEUE) && delay && !entity_eligible(rq, se)) {
      set_delayed(rq, se);
      return false;
    }
  }
  const bool clamp = !((flags & DEQUEUE_MODEL_RENICE) != 0 && cfg_.injected(Injection::reweight_unclamped_lag));
  update_entity_lag(rq, se, clamp);
  if (cfg_.feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
    e.deadline -= e.vruntime;
    e.rel_deadline = true;
  }
  if (se != rq.cfs_curr) dequeue_entity_tree(rq, se);
  e.on_rq = false;
  const u64 w = full_weight_of(e.nice);
  EEVDF_KERNEL_DIES_IF(rq.nr_queued == 0 || rq.load_weight < w, "cfs_rq->nr_queued or load underflows",
                       "unchecked update_load_sub and `cfs_rq->nr_queued--` in account_entity_dequeue");
  rq.load_weight -= w;
  rq.nr_queued--;
  if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE) update_min_vruntime(rq);
  if ((flags & DEQUEUE_DELAYED) != 0) {  // finish_delayed_dequeue_entity
    clear_delayed(rq, se);
    if (cfg_.feat(Feature::DELAY_ZERO) && e.vlag > 0) e.vlag = 0;
  }
  return true;
}

// §10 requeue_delayed_entity(): a wakeup ends the delay; positive lag is re-placed at
// zero lag (DELAY_ZERO).
template <bool Simd>
void FastMachine<Simd>::requeue_delayed_entity(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  EEVDF_KERNEL_DIES_IF(!e.sched_delayed || !e.on_rq, "requeue of an entity that is not delayed and queued",
                       "SCHED_WARN_ON(!se->sched_delayed) and SCHED_WARN_ON(!se->on_rq) in requeue_delayed_entity");
  if (cfg_.feat(Feature::DELAY_ZERO)) {
    update_entity_lag(rq, se);
    if (e.vlag > 0) {
      rq.nr_queued--;
      if (se != rq.cfs_curr) dequeue_entity_tree(rq, se);
      e.vlag = 0;
      place_entity(rq, se, 0);
      if (se != rq.cfs_curr) enqueue_entity_tree(rq, se);
      rq.nr_queued++;
    }
  }
  clear_delayed(rq, se);
}

// §6.2 enqueue_task_fair() for a task entity on the root cfs_rq.
template <bool Simd>
void FastMachine<Simd>::enqueue_task_fair(Runqueue& rq, int p, unsigned flags) {
  if ((flags & ENQUEUE_DELAYED) != 0) {
    requeue_delayed_entity(rq, p);
    return;
  }
  EEVDF_ASSERT(!se_[idx(p)].on_rq, "enqueue of a queued entity");
  const bool task_new = (flags & ENQUEUE_WAKEUP) == 0;
  const int h_nr_runnable = task_new && se_[idx(p)].sched_delayed ? 0 : 1;
  enqueue_entity(rq, p, flags);
  rq.h_nr_runnable += h_nr_runnable;
  rq.h_nr_queued++;
  rq.nr_running++;
  rq.ever_enqueued = true;
}

// §6.3 dequeue_entities(): -1 when delayed; completes a delayed sleep.
template <bool Simd>
int FastMachine<Simd>::dequeue_entities(Runqueue& rq, int se, unsigned flags) {
  const bool task_sleep = (flags & DEQUEUE_SLEEP) != 0;
  const bool task_delayed = (flags & DEQUEUE_DELAYED) != 0;
  const int h_nr_runnable = task_sleep || task_delayed || !se_[idx(se)].sched_delayed ? 1 : 0;
  if (!dequeue_entity(rq, se, flags)) return -1;
  EEVDF_KERNEL_DIES_IF(rq.h_nr_runnable < h_nr_runnable ||
                           rq.h_nr_queued <= 0 || rq.nr_running <= 0,
                       "h_nr_runnable, h_nr_queued or nr_running underflows",
                       "unchecked counter decrements in dequeue_entities and sub_nr_running");
  rq.h_nr_runnable -= h_nr_runnable;
  rq.h_nr_queued--;
  rq.nr_running--;
  if (task_delayed) block_task_complete(rq, se);
  return 1;
}

// §9 prio_changed_fair().
template <bool Simd>
void FastMachine<Simd>::prio_changed_fair(Runqueue& rq, int p, int old_nice) {
  if (!tasks_[idx(p)].on_rq) return;
  if (rq.nr_queued == 1) return;
  if (rq.curr == p) {
    if (se_[idx(p)].nice > old_nice) resched_curr(rq);
  } else {
    wakeup_preempt(rq, p, 0);
  }
}

// §9 reweight_entity() for a dequeued task: the stored lag and a relative deadline are
// rescaled by old/new weight.
template <bool Simd>
void FastMachine<Simd>::reweight_entity(Runqueue& rq, int se, int nice, bool was_queued) {
  Entity& e = se_[idx(se)];
  EEVDF_ASSERT(!e.on_rq, "tasks are reweighted off the runqueue (§9)");
  const s64 old_weight = static_cast<s64>(full_weight_of(e.nice));
  const u64 new_weight = full_weight_of(nice);
  if (!(was_queued && cfg_.injected(Injection::reweight_unscaled_lag))) {
    const s64 scaled = checked_mul(e.vlag, old_weight, rq, "vlag*w_old in reweight_entity");
    e.vlag = div_s64(scaled, new_weight, rq, "weight as div_s64 divisor in reweight_entity");
  }
  if (e.rel_deadline) {
    const s64 scaled = checked_mul(static_cast<s64>(e.deadline), old_weight, rq, "deadline*w_old in reweight_entity");
    e.deadline = static_cast<u64>(div_s64(scaled, new_weight, rq, "weight as div_s64 divisor in reweight_entity"));
  }
  e.nice = nice;
}

}  // namespace eevdf::model::fast
