// The trace verbs as kernel call sequences (docs/MODEL.md §19), each behind the
// verb-by-state table of docs/TRACE_FORMAT.md. Included by core-inl.h only.
#pragma once

#include <string>

#include "model/machine.h"
#include "model/tunables.h"

namespace eevdf::model {
namespace detail {

inline const char* state_word(task_state s) {
  static constexpr const char* words[] = {"new", "running", "queued", "delayed", "blocked", "exited"};
  return words[static_cast<int>(s)];
}

inline std::string illegal(const char* verb, int id, task_state s) {
  return std::string("`") + verb + "` is illegal for task " + std::to_string(id) + ", which is " + state_word(s);
}

}  // namespace detail

template <class A, class P>
Machine<A, P>::Machine(const Config& config, const std::vector<TaskSpec>& tasks)
    : cfg_(config), rqs_(static_cast<std::size_t>(config.topology.ncpus())), tasks_(tasks.size()), specs_(tasks) {
  for (std::size_t c = 0; c < rqs_.size(); ++c) {
    rqs_[c].cpu = static_cast<int>(c);
    rqs_[c].cfs.rq_ = &rqs_[c];
    rqs_[c].cfs.min_vruntime = A::from_u64(~std::uint64_t{0} - (std::uint64_t{1} << 20) + 1);  // init_cfs_rq
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    sched_fork(tasks_[i], tasks[i]);
    tasks_[i].se.task = static_cast<int>(i);
    index_of_id_.emplace(tasks[i].id, static_cast<int>(i));
  }
}

template <class A, class P>
int Machine<A, P>::task_index(int id) const {
  const auto it = index_of_id_.find(id);
  return it == index_of_id_.end() ? -1 : it->second;
}

// wake_up_new_task(): ENQUEUE_INITIAL (half-slice deadline), then WF_FORK check.
template <class A, class P>
std::string Machine<A, P>::fork(std::uint64_t t, int pi, int cpu) {
  task& p = task_at(pi);
  if (state_of(p) != task_state::new_) return detail::illegal("fork", p.id, state_of(p));
  advance(t);
  p.forked = true;
  p.cpu = cpu >= 0 ? cpu : (p.default_cpu >= 0 ? p.default_cpu : 0);
  rq<A>& rq = rq_at(p.cpu);
  activate_task(rq, p, ENQUEUE_INITIAL);
  wakeup_preempt(rq, p, WF_FORK);
  schedule_pending();
  return {};
}

// try_to_wake_up(): a delayed task is requeued where it is (ttwu_runnable); a
// blocked one is activated on the target CPU, the iowait count dropping on the
// runqueue it slept on (§13.1).
template <class A, class P>
std::string Machine<A, P>::wake(std::uint64_t t, int pi, int cpu) {
  task& p = task_at(pi);
  const task_state s = state_of(p);
  if (s != task_state::delayed && s != task_state::blocked) return detail::illegal("wake", p.id, s);
  if (s == task_state::delayed && cpu >= 0 && cpu != p.cpu)
    return "task " + std::to_string(p.id) + " is delayed on CPU " + std::to_string(p.cpu) +
           ": a wakeup requeues it there, so `cpu=" + std::to_string(cpu) + "` is illegal";
  advance(t);
  if (s == task_state::delayed) {
    rq<A>& rq = rq_at(p.cpu);
    enqueue_task_fair(rq, p, ENQUEUE_DELAYED);
    wakeup_preempt(rq, p, WF_TTWU);
  } else {
    const int target = cpu >= 0 ? cpu : (p.default_cpu >= 0 ? p.default_cpu : p.cpu);
    unsigned wake_flags = WF_TTWU;
    if (target != p.cpu) {
      // docs/INJECTIONS.md iowait_dec_new_rq: the count dropped on the destination instead.
      rq<A>& counted = rq_at(cfg_.injected(Injection::iowait_dec_new_rq) ? target : p.cpu);
      if (p.in_iowait) counted.nr_iowait--;
      if (p.in_iowait_acct) counted.nr_iowait_acct--;
      wake_flags |= WF_MIGRATED;
      p.cpu = target;  // set_task_cpu
    }
    ttwu_do_activate(rq_at(p.cpu), p, wake_flags);
  }
  p.in_iowait = p.in_iowait_acct = false;  // io_schedule_finish, before anything reads it
  schedule_pending();
  return {};
}

// schedule() from an io or plain sleep: DEQUEUE_SLEEP, possibly delayed (§10).
template <class A, class P>
std::string Machine<A, P>::sleep(std::uint64_t t, int pi, io_sleep io) {
  task& p = task_at(pi);
  if (!running(p)) return detail::illegal("sleep", p.id, state_of(p));
  advance(t);
  p.in_iowait = io != io_sleep::none;
  p.in_iowait_acct = io == io_sleep::io;
  schedule(rq_at(p.cpu), true, false);
  schedule_pending();
  return {};
}

// sched_tick(): entity_tick -> update_curr on a busy CPU; idle CPUs do nothing.
template <class A, class P>
std::string Machine<A, P>::tick(std::uint64_t t, int cpu) {
  advance(t);
  for (rq<A>& rq : rqs_)
    if ((cpu < 0 || rq.cpu == cpu) && rq.curr != nullptr) update_curr(rq.cfs);
  schedule_pending();
  return {};
}

// move_queued_task(): deactivate, set_task_cpu, activate(ENQUEUE_MIGRATED), check.
template <class A, class P>
std::string Machine<A, P>::migrate(std::uint64_t t, int pi, int cpu) {
  task& p = task_at(pi);
  const task_state s = state_of(p);
  if (s != task_state::queued && s != task_state::delayed) return detail::illegal("migrate", p.id, s);
  if (cpu == p.cpu) return "task " + std::to_string(p.id) + " is already on CPU " + std::to_string(cpu);
  advance(t);
  deactivate_task(rq_at(p.cpu), p, 0);
  p.cpu = cpu;
  activate_task(rq_at(cpu), p, ENQUEUE_MIGRATED);
  wakeup_preempt(rq_at(cpu), p, 0);
  schedule_pending();
  return {};
}

// set_user_nice(): dequeue(SAVE), put, reweight, enqueue(RESTORE), set, prio_changed.
template <class A, class P>
std::string Machine<A, P>::renice(std::uint64_t t, int pi, int nice) {
  task& p = task_at(pi);
  if (p.exited) return detail::illegal("renice", p.id, task_state::exited);
  if (nice == p.nice) return {};
  advance(t);
  rq<A>& rq = rq_at(p.cpu);
  const bool queued = p.on_rq;
  const bool is_running = running(p);
  if (queued) dequeue_task_fair(rq, p, DEQUEUE_SAVE | DEQUEUE_MODEL_RENICE);
  if (is_running) put_prev_entity(rq.cfs, p.se);
  const int old_nice = p.nice;
  p.nice = nice;
  const load_weight lw = load_weight_for_nice(nice);
  reweight_entity(rq.cfs, p.se, lw.weight, queued);
  p.se.load.inv_weight = lw.inv_weight;  // reweight_task_fair
  if (queued) enqueue_task_fair(rq, p, ENQUEUE_RESTORE);
  if (is_running) set_next_entity(rq.cfs, p.se);
  prio_changed_fair(rq, p, old_nice);
  schedule_pending();
  return {};
}

// sched_setattr(): SAVE without MOVE, __setparam_fair, a same-weight reweight,
// RESTORE; no prio change, so no preemption check (§19).
template <class A, class P>
std::string Machine<A, P>::setslice(std::uint64_t t, int pi, std::uint64_t slice_ns) {
  task& p = task_at(pi);
  if (p.exited) return detail::illegal("setslice", p.id, task_state::exited);
  if (slice_ns == p.se.slice) return {};  // compared before clamping
  advance(t);
  rq<A>& rq = rq_at(p.cpu);
  const bool queued = p.on_rq;
  const bool is_running = running(p);
  if (queued) dequeue_task_fair(rq, p, DEQUEUE_SAVE);
  if (is_running) put_prev_entity(rq.cfs, p.se);
  p.se.custom_slice = slice_ns != 0;
  p.se.slice = slice_ns != 0 ? clamp_custom_slice(slice_ns) : cfg_.sysctl_base_slice;
  bump(rq.cfs, &p.se);
  const load_weight lw = load_weight_for_nice(p.nice);
  reweight_entity(rq.cfs, p.se, lw.weight, queued);
  p.se.load.inv_weight = lw.inv_weight;
  if (queued) enqueue_task_fair(rq, p, ENQUEUE_RESTORE);
  if (is_running) set_next_entity(rq.cfs, p.se);
  schedule_pending();
  return {};
}

// sched_yield(): yield_task_fair, then schedule().
template <class A, class P>
std::string Machine<A, P>::yield(std::uint64_t t, int pi) {
  task& p = task_at(pi);
  if (!running(p)) return detail::illegal("yield", p.id, state_of(p));
  advance(t);
  rq<A>& rq = rq_at(p.cpu);
  yield_task_fair(rq);
  schedule(rq, false, false);
  schedule_pending();
  return {};
}

// do_task_dead(): __schedule with TASK_DEAD, a special state: never delayed.
template <class A, class P>
std::string Machine<A, P>::exit(std::uint64_t t, int pi) {
  task& p = task_at(pi);
  if (!running(p)) return detail::illegal("exit", p.id, state_of(p));
  advance(t);
  p.in_iowait = p.in_iowait_acct = false;
  schedule(rq_at(p.cpu), false, true);
  schedule_pending();
  return {};
}

// Views: computed with the overflow log muted (the kernel does not compute them).
template <class A, class P>
auto Machine<A, P>::avg_vruntime_of(int cpu) const -> value {
  const cfs_rq<A>& cfs = rqs_.at(static_cast<std::size_t>(cpu)).cfs;
  MuteOverflow mute(cfs.overflow);
  return avg_vruntime(cfs);
}

template <class A, class P>
bool Machine<A, P>::eligible(const task& p) const {
  const cfs_rq<A>& cfs = rqs_.at(static_cast<std::size_t>(p.cpu)).cfs;
  MuteOverflow mute(cfs.overflow);
  return entity_eligible(cfs, p.se);
}

template <class A, class P>
bool Machine<A, P>::protected_slice(const task& p) const {
  const cfs_rq<A>& cfs = rqs_.at(static_cast<std::size_t>(p.cpu)).cfs;
  MuteOverflow mute(cfs.overflow);
  return running(p) && protect_slice(cfs, p.se);
}

template <class A, class P>
std::vector<OverflowEvent> Machine<A, P>::drain_overflows(int cpu) {
  OverflowLog& log = rq_at(cpu).cfs.overflow;
  std::vector<OverflowEvent> events = log.events();
  log.clear();
  return events;
}

template <class A, class P>
void Machine<A, P>::clear_overflows() {
  for (rq<A>& rq : rqs_) rq.cfs.overflow.clear();
}

template <class A, class P>
void Machine<A, P>::clear_overflows(const std::vector<int>& cpus) {
  for (int cpu : cpus) rq_at(cpu).cfs.overflow.clear();
}

}  // namespace eevdf::model
