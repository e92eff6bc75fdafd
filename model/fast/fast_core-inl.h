// core.c and the trace verbs in the fast model (docs/MODEL.md §6.4, §13, §19):
// the same call sequences and legality rules as model/core-inl.h and
// model/core_events-inl.h. Included by the instantiating .cpp files only.
#pragma once

#include <algorithm>  // std::max
#include <string>

#include "base/assert.h"
#include "model/fast/fast_machine.h"
#include "model/flags.h"
#include "model/tunables.h"

namespace eevdf::model::fast {
namespace detail {

// The reference's wording (model/core_events-inl.h), so that both models reject an
// illegal event with the same reason. Static: each build has its own copy (see
// EEVDF_FAST_SCAN in fast_scan.h).
static std::string illegal(const char* verb, int id, task_state s) {
  static constexpr const char* words[] = {"new", "running", "queued", "delayed", "blocked", "exited"};
  return std::string("`") + verb + "` is illegal for task " + std::to_string(id) + ", which is " +
         words[static_cast<int>(s)];
}

}  // namespace detail

template <bool Simd>
FastMachine<Simd>::FastMachine(const Config& config, const std::vector<TaskSpec>& tasks)
    : cfg_(config), rqs_(static_cast<std::size_t>(config.topology.ncpus())), tasks_(tasks.size()),
      se_(tasks.size()), specs_(tasks) {
  run_to_parity_ = cfg_.feat(Feature::RUN_TO_PARITY);
  place_lag_ = cfg_.feat(Feature::PLACE_LAG);
  for (std::size_t c = 0; c < rqs_.size(); ++c) {
    rqs_[c].cpu = static_cast<int>(c);
    rqs_[c].min_vruntime = ~u64{0} - (u64{1} << 20) + 1;  // init_cfs_rq
  }
  pending_.assign((rqs_.size() + 63) / 64, 0);
  int ids_max = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i) {  // __sched_fork + set_load_weight
    const TaskSpec& spec = tasks[i];
    tasks_[i].id = spec.id;
    tasks_[i].default_cpu = spec.default_cpu;
    tasks_[i].cpu = spec.default_cpu >= 0 ? spec.default_cpu : 0;
    se_[i].nice = spec.nice;
    se_[i].custom_slice = spec.slice_ns != 0;
    se_[i].slice = spec.slice_ns != 0 ? clamp_custom_slice(spec.slice_ns) : cfg_.sysctl_base_slice;
    ids_max = std::max(ids_max, spec.id);
  }
  // Task ids are small positive numbers in practice: a flat table when it stays small.
  const bool flat = ids_max >= 0 && static_cast<std::size_t>(ids_max) <= 16 * tasks.size() + 1024;
  if (flat) index_by_id_.assign(static_cast<std::size_t>(ids_max) + 1, -1);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (flat && tasks[i].id >= 0) index_by_id_[static_cast<std::size_t>(tasks[i].id)] = static_cast<int>(i);
    else index_of_id_.emplace(tasks[i].id, static_cast<int>(i));
  }
}

template <bool Simd>
int FastMachine<Simd>::task_index(int id) const {
  if (id >= 0 && static_cast<std::size_t>(id) < index_by_id_.size()) return index_by_id_[static_cast<std::size_t>(id)];
  const auto it = index_of_id_.find(id);
  return it == index_of_id_.end() ? -1 : it->second;
}

template <bool Simd>
bool FastMachine<Simd>::running(int p) const {
  const Task& t = tasks_[idx(p)];
  return t.forked && !t.exited && rqs_[idx(t.cpu)].curr == p;
}

template <bool Simd>
task_state FastMachine<Simd>::state_of(int p) const {
  const Task& t = tasks_[idx(p)];
  if (!t.forked) return task_state::new_;
  if (t.exited) return task_state::exited;
  if (running(p)) return task_state::running;
  if (!t.on_rq) return task_state::blocked;
  return se_[idx(p)].sched_delayed ? task_state::delayed : task_state::queued;
}

template <bool Simd>
void FastMachine<Simd>::advance(u64 t) {
  EEVDF_ASSERT(t >= now_, "time goes backwards");
  now_ = t;
}

// core.c wakeup_preempt(): the fair hook under a fair curr; an idle CPU reschedules.
template <bool Simd>
void FastMachine<Simd>::wakeup_preempt(Runqueue& rq, int p, unsigned wake_flags) {
  if (rq.curr >= 0) check_preempt_wakeup_fair(rq, p, wake_flags);
  else resched_curr(rq);
}

template <bool Simd>
void FastMachine<Simd>::activate_task(Runqueue& rq, int p, unsigned flags) {
  EEVDF_ASSERT(tasks_[idx(p)].cpu == rq.cpu, "activate on a foreign runqueue");
  enqueue_task_fair(rq, p, flags);
  tasks_[idx(p)].on_rq = true;
}

template <bool Simd>
void FastMachine<Simd>::block_task(Runqueue& rq, int p, unsigned flags) {
  if (dequeue_task_fair(rq, p, DEQUEUE_SLEEP | flags)) block_task_complete(rq, p);
}

// sched.h __block_task(): the sleep is complete; iowait is counted here (§13.1).
template <bool Simd>
void FastMachine<Simd>::block_task_complete(Runqueue& rq, int p) {
  Task& t = tasks_[idx(p)];
  if (t.in_iowait) rq.nr_iowait++;
  if (t.in_iowait_acct) rq.nr_iowait_acct++;
  t.on_rq = false;
}

template <bool Simd>
int FastMachine<Simd>::pick_next_task(Runqueue& rq, int prev) {
  const int next = pick_task_fair(rq);
  if (prev >= 0 && prev != next) put_prev_entity(rq, prev);
  if (next >= 0 && next != prev) set_next_entity(rq, next);
  return next;
}

// core.c __schedule().
template <bool Simd>
void FastMachine<Simd>::schedule(Runqueue& rq, bool prev_blocks, bool prev_dies) {
  const int prev = rq.curr;
  if (prev >= 0 && (prev_blocks || prev_dies)) {
    block_task(rq, prev, prev_dies ? DEQUEUE_SPECIAL : 0);
    if (prev_dies) tasks_[idx(prev)].exited = true;
  }
  const int next = pick_next_task(rq, prev);
  rq.need_resched = false;
  pending_[idx(rq.cpu) / 64] &= ~(u64{1} << (rq.cpu % 64));
  rq.curr = next;
}

// §19 immediate preemption: every CPU asked to reschedule, in ascending order. The
// requests are a bitmap, so an event costs no walk over idle CPUs; schedule() of one
// CPU never asks another, so reading each word afresh visits what the reference does.
template <bool Simd>
void FastMachine<Simd>::schedule_pending() {
  for (std::size_t w = 0; w < pending_.size(); ++w)
    while (pending_[w] != 0) schedule(rqs_[w * 64 + static_cast<std::size_t>(__builtin_ctzll(pending_[w]))], false, false);
}

template <bool Simd>
void FastMachine<Simd>::ttwu_do_activate(Runqueue& rq, int p, unsigned wake_flags) {
  unsigned en_flags = ENQUEUE_WAKEUP;
  Task& t = tasks_[idx(p)];
  if ((wake_flags & WF_MIGRATED) != 0) {
    en_flags |= ENQUEUE_MIGRATED;
  } else {
    if (t.in_iowait) rq.nr_iowait--;
    if (t.in_iowait_acct) rq.nr_iowait_acct--;
  }
  activate_task(rq, p, en_flags);
  wakeup_preempt(rq, p, wake_flags);
}

}  // namespace eevdf::model::fast

#include "model/fast/fast_events-inl.h"
