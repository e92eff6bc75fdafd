// The core.c and syscalls.c orchestration around the fair class (docs/MODEL.md
// §6.4, §13, §19): activate, block, wake, the schedule path. Included by
// machine.cpp only.
#pragma once

#include "base/assert.h"
#include "model/flags.h"
#include "model/machine.h"
#include "model/profile_6_12-inl.h"
#include "model/profile_6_18-inl.h"
#include "model/tunables.h"

namespace eevdf::model {

// §19: every runqueue clock equals the event time whenever the kernel reads it.
template <class A, class P>
void Machine<A, P>::advance(std::uint64_t t) {
  EEVDF_ASSERT(t >= now_, "time goes backwards");
  now_ = t;
}

// core.c wakeup_preempt(): the fair hook under a fair curr; an idle CPU reschedules.
template <class A, class P>
void Machine<A, P>::wakeup_preempt(rq<A>& rq, task& p, unsigned wake_flags) {
  if (rq.curr != nullptr) check_preempt_wakeup_fair(rq, p, wake_flags);
  else resched_curr(rq);
}

// core.c activate_task(): enqueue and publish p->on_rq.
template <class A, class P>
void Machine<A, P>::activate_task(rq<A>& rq, task& p, unsigned flags) {
  EEVDF_ASSERT(p.cpu == rq.cpu, "activate on a foreign runqueue");
  enqueue_task_fair(rq, p, flags);
  p.on_rq = true;
}

// core.c deactivate_task(): a non-sleep dequeue (migration); never delayed.
template <class A, class P>
void Machine<A, P>::deactivate_task(rq<A>& rq, task& p, unsigned flags) {
  EEVDF_ASSERT((flags & DEQUEUE_SLEEP) == 0, "deactivate_task never sleeps");
  const bool done = dequeue_task_fair(rq, p, flags);
  EEVDF_ASSERT(done, "a non-sleep dequeue completes");
}

// core.c block_task(): the class dequeue; __block_task unless it was delayed.
template <class A, class P>
void Machine<A, P>::block_task(rq<A>& rq, task& p, unsigned flags) {
  if (dequeue_task_fair(rq, p, DEQUEUE_SLEEP | flags)) block_task_complete(rq, p);
}

// sched.h __block_task(): the sleep is complete; iowait is counted here (§13.1).
template <class A, class P>
void Machine<A, P>::block_task_complete(rq<A>& rq, task& p) {
  if (p.in_iowait) rq.nr_iowait++;
  if (p.in_iowait_acct) rq.nr_iowait_acct++;
  p.on_rq = false;
  if (observer_ != nullptr) observer_->block_completed(rq, p);
}

// fair.c pick_next_task_fair() with put_prev/set_next only when the pick changes.
template <class A, class P>
auto Machine<A, P>::pick_next_task(rq<A>& rq, task* prev) -> task* {
  task* next = pick_task_fair(rq);
  if (prev != nullptr && prev != next) put_prev_entity(rq.cfs, prev->se);
  if (next != nullptr && next != prev) set_next_entity(rq.cfs, next->se);
  return next;
}

// core.c __schedule(): block a sleeping or dying prev, pick, switch; the
// reschedule request is cleared after the pick, with any the pick raised.
template <class A, class P>
void Machine<A, P>::schedule(rq<A>& rq, bool prev_blocks, bool prev_dies) {
  task* prev = rq.curr;
  if (prev != nullptr && (prev_blocks || prev_dies)) {
    block_task(rq, *prev, prev_dies ? DEQUEUE_SPECIAL : 0);  // TASK_DEAD is a special state
    if (prev_dies) prev->exited = true;
  }
  task* next = pick_next_task(rq, prev);
  rq.need_resched = false;
  rq.curr = next;
}

// §19 immediate preemption: every CPU asked to reschedule, in ascending order.
template <class A, class P>
void Machine<A, P>::schedule_pending() {
  for (rq<A>& rq : rqs_)
    if (rq.need_resched) schedule(rq, false, false);
}

// core.c __sched_fork() and set_load_weight(): a declared task before its first wakeup.
template <class A, class P>
void Machine<A, P>::sched_fork(task& p, const TaskSpec& spec) {
  p.id = spec.id;
  p.nice = spec.nice;
  p.default_cpu = spec.default_cpu;
  p.cpu = spec.default_cpu >= 0 ? spec.default_cpu : 0;
  p.se = entity{};
  p.se.load = load_weight_for_nice(spec.nice);
  p.se.custom_slice = spec.slice_ns != 0;  // __setparam_fair (§2)
  p.se.slice = spec.slice_ns != 0 ? clamp_custom_slice(spec.slice_ns) : cfg_.sysctl_base_slice;
}

// core.c ttwu_do_activate(): the local iowait decrement, enqueue, preemption check.
template <class A, class P>
void Machine<A, P>::ttwu_do_activate(rq<A>& rq, task& p, unsigned wake_flags) {
  unsigned en_flags = ENQUEUE_WAKEUP;
  if ((wake_flags & WF_MIGRATED) != 0) {
    en_flags |= ENQUEUE_MIGRATED;
  } else {
    if (p.in_iowait) rq.nr_iowait--;
    if (p.in_iowait_acct) rq.nr_iowait_acct--;
  }
  activate_task(rq, p, en_flags);
  wakeup_preempt(rq, p, wake_flags);
}

}  // namespace eevdf::model

#include "model/core_events-inl.h"
