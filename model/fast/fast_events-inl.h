// The trace verbs of the fast model: model/core_events-inl.h's call sequences and
// legality rules, over task indices. Included by fast_core-inl.h only.
#pragma once

#include <string>

#include "model/fast/fast_machine.h"

namespace eevdf::model::fast {

template <bool Simd>
std::string FastMachine<Simd>::fork(u64 t, int p, int cpu) {
  if (state_of(p) != task_state::new_) return detail::illegal("fork", tasks_[idx(p)].id, state_of(p));
  advance(t);
  Task& task = tasks_[idx(p)];
  task.forked = true;
  task.cpu = cpu >= 0 ? cpu : (task.default_cpu >= 0 ? task.default_cpu : 0);
  Runqueue& rq = rq_at(task.cpu);
  activate_task(rq, p, ENQUEUE_INITIAL);
  wakeup_preempt(rq, p, WF_FORK);
  schedule_pending();
  return {};
}

template <bool Simd>
std::string FastMachine<Simd>::wake(u64 t, int p, int cpu) {
  Task& task = tasks_[idx(p)];
  const task_state s = state_of(p);
  if (s != task_state::delayed && s != task_state::blocked) return detail::illegal("wake", task.id, s);
  if (s == task_state::delayed && cpu >= 0 && cpu != task.cpu)
    return "task " + std::to_string(task.id) + " is delayed on CPU " + std::to_string(task.cpu) +
           ": a wakeup requeues it there, so `cpu=" + std::to_string(cpu) + "` is illegal";
  advance(t);
  if (s == task_state::delayed) {
    Runqueue& rq = rq_at(task.cpu);
    enqueue_task_fair(rq, p, ENQUEUE_DELAYED);
    wakeup_preempt(rq, p, WF_TTWU);
  } else {
    const int target = cpu >= 0 ? cpu : (task.default_cpu >= 0 ? task.default_cpu : task.cpu);
    unsigned wake_flags = WF_TTWU;
    if (target != task.cpu) {
      Runqueue& counted = rq_at(cfg_.injected(Injection::iowait_dec_new_rq) ? target : task.cpu);
      if (task.in_iowait) counted.nr_iowait--;
      if (task.in_iowait_acct) counted.nr_iowait_acct--;
      wake_flags |= WF_MIGRATED;
      task.cpu = target;
    }
    ttwu_do_activate(rq_at(task.cpu), p, wake_flags);
  }
  task.in_iowait = task.in_iowait_acct = false;
  schedule_pending();
  return {};
}

template <bool Simd>
std::string FastMachine<Simd>::sleep(u64 t, int p, io_sleep io) {
  if (!running(p)) return detail::illegal("sleep", tasks_[idx(p)].id, state_of(p));
  advance(t);
  Task& task = tasks_[idx(p)];
  task.in_iowait = io != io_sleep::none;
  task.in_iowait_acct = io == io_sleep::io;
  schedule(rq_at(task.cpu), true, false);
  schedule_pending();
  return {};
}

// sched_tick(): update_curr on every busy CPU asked for (§5.1), then the reschedules.
template <bool Simd>
std::string FastMachine<Simd>::tick(u64 t, int cpu) {
  advance(t);
  if (cpu >= 0) {
    Runqueue& rq = rq_at(cpu);
    if (rq.curr >= 0) update_curr(rq);
    if (rq.need_resched) schedule_pending();
    return {};
  }
  update_curr_all();  // fast_tick_all-inl.h
  schedule_pending();
  return {};
}

template <bool Simd>
std::string FastMachine<Simd>::migrate(u64 t, int p, int cpu) {
  Task& task = tasks_[idx(p)];
  const task_state s = state_of(p);
  if (s != task_state::queued && s != task_state::delayed) return detail::illegal("migrate", task.id, s);
  if (cpu == task.cpu) return "task " + std::to_string(task.id) + " is already on CPU " + std::to_string(cpu);
  advance(t);
  const bool done = dequeue_task_fair(rq_at(task.cpu), p, 0);  // deactivate_task
  EEVDF_ASSERT(done, "a non-sleep dequeue completes");
  task.cpu = cpu;
  activate_task(rq_at(cpu), p, ENQUEUE_MIGRATED);
  wakeup_preempt(rq_at(cpu), p, 0);
  schedule_pending();
  return {};
}

// set_user_nice() (renice) and sched_setattr() (setslice): dequeue(SAVE), put,
// reweight, enqueue(RESTORE), set; a renice then runs prio_changed_fair.
template <bool Simd>
std::string FastMachine<Simd>::set_param(u64 t, int p, int nice, u64 slice_ns, bool renice) {
  advance(t);
  Task& task = tasks_[idx(p)];
  Entity& e = se_[idx(p)];
  Runqueue& rq = rq_at(task.cpu);
  const bool queued = task.on_rq;
  const bool is_running = running(p);
  if (queued) dequeue_task_fair(rq, p, renice ? DEQUEUE_SAVE | DEQUEUE_MODEL_RENICE : DEQUEUE_SAVE);
  if (is_running) put_prev_entity(rq, p);
  const int old_nice = e.nice;
  if (!renice) {
    e.custom_slice = slice_ns != 0;
    e.slice = slice_ns != 0 ? clamp_custom_slice(slice_ns) : cfg_.sysctl_base_slice;
  }
  reweight_entity(rq, p, nice, queued);
  if (queued) enqueue_task_fair(rq, p, ENQUEUE_RESTORE);
  if (is_running) set_next_entity(rq, p);
  if (renice) prio_changed_fair(rq, p, old_nice);
  schedule_pending();
  return {};
}

template <bool Simd>
std::string FastMachine<Simd>::renice(u64 t, int p, int nice) {
  if (tasks_[idx(p)].exited) return detail::illegal("renice", tasks_[idx(p)].id, task_state::exited);
  if (nice == se_[idx(p)].nice) return {};
  return set_param(t, p, nice, 0, true);
}

template <bool Simd>
std::string FastMachine<Simd>::setslice(u64 t, int p, u64 slice_ns) {
  if (tasks_[idx(p)].exited) return detail::illegal("setslice", tasks_[idx(p)].id, task_state::exited);
  if (slice_ns == se_[idx(p)].slice) return {};  // compared before clamping
  return set_param(t, p, se_[idx(p)].nice, slice_ns, false);
}

template <bool Simd>
std::string FastMachine<Simd>::yield(u64 t, int p) {
  if (!running(p)) return detail::illegal("yield", tasks_[idx(p)].id, state_of(p));
  advance(t);
  Runqueue& rq = rq_at(tasks_[idx(p)].cpu);
  yield_task_fair(rq);
  schedule(rq, false, false);
  schedule_pending();
  return {};
}

template <bool Simd>
std::string FastMachine<Simd>::exit(u64 t, int p) {
  if (!running(p)) return detail::illegal("exit", tasks_[idx(p)].id, state_of(p));
  advance(t);
  Task& task = tasks_[idx(p)];
  task.in_iowait = task.in_iowait_acct = false;
  schedule(rq_at(task.cpu), false, true);
  schedule_pending();
  return {};
}

// Views: computed with the overflow report muted (the kernel does not compute them).
template <bool Simd>
u64 FastMachine<Simd>::avg_vruntime_of(int cpu) const {
  const Runqueue& rq = rqs_[idx(cpu)];
  ++rq.muted;
  const u64 v = avg_vruntime(rq);
  --rq.muted;
  return v;
}

template <bool Simd>
bool FastMachine<Simd>::eligible(int p) const {
  const Runqueue& rq = rqs_[idx(tasks_[idx(p)].cpu)];
  ++rq.muted;
  const bool e = entity_eligible(rq, p);
  --rq.muted;
  return e;
}

template <bool Simd>
bool FastMachine<Simd>::protected_slice(int p) const {
  return running(p) && protect_slice(rqs_[idx(tasks_[idx(p)].cpu)], p);
}

template <bool Simd>
void FastMachine<Simd>::clear_overflows() {
  for (Runqueue& rq : rqs_) {
    rq.overflows = 0;
    rq.first_overflow = nullptr;
  }
}

}  // namespace eevdf::model::fast

#include "model/fast/fast_tick_all-inl.h"
