// Canonical<P> (canonical.h). Included by explore.cpp only.
#pragma once

#include "base/assert.h"
#include "explore/canonical.h"

namespace eevdf::explore {

namespace detail {
inline void add_value(Hash& h, model::KernelArith::value v) {
  const auto u = static_cast<model::u128>(v);
  h.add(static_cast<std::uint64_t>(u));
  h.add(static_cast<std::uint64_t>(u >> 64));
}
}  // namespace detail

template <class P>
Canonical<P>::Canonical(const std::vector<model::TaskSpec>& specs, bool symmetry) {
  bool names_cpu = false;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    int cls = static_cast<int>(i);
    for (std::size_t j = 0; j < i; ++j)
      if (specs[j].nice == specs[i].nice && specs[j].slice_ns == specs[i].slice_ns &&
          specs[j].default_cpu == specs[i].default_cpu) {
        cls = class_of_[j];
        break;
      }
    class_of_.push_back(cls);
    names_cpu = names_cpu || specs[i].default_cpu >= 0;
  }
  task_symmetry_ = symmetry;
  cpu_symmetry_ = symmetry && !names_cpu;
}

// One task's record: what the model reads of it from here on. Virtual times are
// relative to the v0 of the task's CPU; curr's exec_start to now. Not recorded: a
// task's exec_start, run since its pick and vprot when it is not curr (each is set
// again when it becomes curr before being read), sum_exec_runtime (only summed).
template <class P>
std::uint64_t Canonical<P>::task_record(const M& m, int i, bool identity) const {
  const auto& p = m.tasks()[static_cast<std::size_t>(i)];
  const auto state = m.state_of(p);
  Hash h;
  h.add(static_cast<std::uint64_t>(identity ? i : class_of_[static_cast<std::size_t>(i)]));
  h.add(static_cast<std::uint64_t>(state));
  if (state == model::task_state::new_ || state == model::task_state::exited) return h.value();
  const auto& se = p.se;
  const auto& cfs = m.rqs().at(static_cast<std::size_t>(p.cpu)).cfs;
  const auto v0 = cfs.min_vruntime;
  h.add(static_cast<std::uint64_t>(p.nice));
  h.add(se.load.weight);
  h.add(se.slice);
  h.add(std::uint64_t{se.custom_slice} | std::uint64_t{p.in_iowait} << 1 | std::uint64_t{p.in_iowait_acct} << 2 |
        std::uint64_t{p.on_rq} << 3 | std::uint64_t{se.on_rq} << 4 | std::uint64_t{se.sched_delayed} << 5 |
        std::uint64_t{se.rel_deadline} << 6);
  detail::add_value(h, se.vruntime - v0);
  detail::add_value(h, se.rel_deadline ? se.deadline : se.deadline - v0);
  const bool curr = cfs.curr == &se;
  // 6.12 stashes curr's deadline in vlag (an absolute time while curr).
  const bool vlag_is_time = curr && P::name == model::profile_6_12::name;
  detail::add_value(h, vlag_is_time ? se.vlag - v0 : se.vlag);
  if (curr) {
    h.add(m.now() - se.exec_start);
    h.add(se.sum_exec_runtime - se.prev_sum_exec_runtime);
    detail::add_value(h, se.vprot - v0);
  }
  return h.value();
}

// A CPU's contents in an order that names no task: the counters and sums, curr,
// the buddy by its place, the tree in order, the tasks that slept here.
template <class P>
std::uint64_t Canonical<P>::cpu_contents(const M& m, int cpu, bool identity) const {
  const auto& rq = m.rqs()[static_cast<std::size_t>(cpu)];
  const auto& cfs = rq.cfs;
  Hash h;
  h.add(rq.nr_running);
  h.add(static_cast<std::uint64_t>(rq.nr_iowait));
  h.add(static_cast<std::uint64_t>(rq.nr_iowait_acct));
  h.add(rq.need_resched);
  h.add(cfs.load_weight);
  h.add(cfs.nr_queued);
  h.add(cfs.h_nr_queued);
  h.add(static_cast<std::uint64_t>(cfs.h_nr_runnable));
  detail::add_value(h, cfs.avg_vruntime);
  h.add(cfs.avg_load);
  h.add(rq.curr == nullptr ? 0 : task_record(m, rq.curr->se.task, identity));
  if (cfs.curr == nullptr) {
    h.add(0);
  } else if (rq.curr != nullptr && cfs.curr == &rq.curr->se) {
    h.add(1);
  } else {
    h.add(task_record(m, cfs.curr->task, identity));
  }
  std::uint64_t next = 0;  // 0: none, 1: curr, 2 + its place in the tree
  if (cfs.next != nullptr && cfs.next == cfs.curr) next = 1;
  h.add(cfs.timeline.size());
  std::uint64_t place = 2;
  for (const auto* se : cfs.timeline) {
    if (se == cfs.next) next = place;
    ++place;
    h.add(task_record(m, se->task, identity));
  }
  EEVDF_ASSERT(cfs.next == nullptr || next != 0, "the next buddy is curr or in the tree");
  h.add(next);
  // The tasks asleep here (their iowait counts here): a multiset under symmetry.
  std::uint64_t blocked[64];
  std::size_t n = 0;
  for (int i = 0; i < static_cast<int>(m.tasks().size()); ++i) {
    const auto& p = m.tasks()[static_cast<std::size_t>(i)];
    if (p.cpu != cpu || m.state_of(p) != model::task_state::blocked) continue;
    EEVDF_ASSERT(n < 64, "explore's states have at most 64 tasks");
    blocked[n++] = task_record(m, i, identity);
  }
  if (!identity) std::sort(blocked, blocked + n);
  h.add(n);
  for (std::size_t k = 0; k < n; ++k) h.add(blocked[k]);
  return h.value();
}

template <class P>
std::uint64_t Canonical<P>::fingerprint(const M& m, bool symmetric) const {
  const int ncpus = static_cast<int>(m.rqs().size());
  EEVDF_ASSERT(ncpus <= 64, "explore's states have at most 64 CPUs");
  const bool identity = !(symmetric && task_symmetry_);
  std::uint64_t cpus[64];
  for (int c = 0; c < ncpus; ++c) cpus[c] = cpu_contents(m, c, identity);
  if (symmetric && cpu_symmetry_) std::sort(cpus, cpus + ncpus);
  Hash h;
  for (int c = 0; c < ncpus; ++c) h.add(cpus[c]);
  // The tasks not yet forked (by class, or by index), so that what can still fork
  // is part of the state; exited tasks are gone.
  std::uint64_t fresh[64];
  std::size_t n = 0;
  for (int i = 0; i < static_cast<int>(m.tasks().size()) && n < 64; ++i)
    if (m.state_of(m.tasks()[static_cast<std::size_t>(i)]) == model::task_state::new_)
      fresh[n++] = static_cast<std::uint64_t>(identity ? i : class_of_[static_cast<std::size_t>(i)]);
  std::sort(fresh, fresh + n);
  h.add(n);
  for (std::size_t k = 0; k < n; ++k) h.add(fresh[k]);
  return h.value();
}

}  // namespace eevdf::explore
