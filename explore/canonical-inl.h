// Canonical<P> (canonical.h). Included by explore.cpp only.
#pragma once

#include "base/assert.h"
#include "explore/canonical.h"

namespace eevdf::explore {

namespace detail {
inline void add_value(std::vector<std::uint64_t>& out, model::KernelArith::value v) {
  const auto u = static_cast<model::u128>(v);
  out.push_back(static_cast<std::uint64_t>(u));
  out.push_back(static_cast<std::uint64_t>(u >> 64));
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
void Canonical<P>::task_record(const M& m, int i, bool identity, Words& out) const {
  const auto& p = m.tasks()[static_cast<std::size_t>(i)];
  const auto state = m.state_of(p);
  out.push_back(static_cast<std::uint64_t>(identity ? i : class_of_[static_cast<std::size_t>(i)]));
  out.push_back(static_cast<std::uint64_t>(state));
  if (state == model::task_state::new_ || state == model::task_state::exited) return;
  const auto& se = p.se;
  const auto& cfs = m.rqs().at(static_cast<std::size_t>(p.cpu)).cfs;
  const auto v0 = cfs.min_vruntime;
  out.push_back(static_cast<std::uint64_t>(p.nice));
  out.push_back(se.load.weight);
  out.push_back(se.slice);
  out.push_back(std::uint64_t{se.custom_slice} | std::uint64_t{p.in_iowait} << 1 |
                std::uint64_t{p.in_iowait_acct} << 2 | std::uint64_t{p.on_rq} << 3 | std::uint64_t{se.on_rq} << 4 |
                std::uint64_t{se.sched_delayed} << 5 | std::uint64_t{se.rel_deadline} << 6);
  detail::add_value(out, se.vruntime - v0);
  detail::add_value(out, se.rel_deadline ? se.deadline : se.deadline - v0);
  const bool curr = cfs.curr == &se;
  // 6.12 stashes curr's deadline in vlag (an absolute time while curr).
  const bool vlag_is_time = curr && P::name == model::profile_6_12::name;
  detail::add_value(out, vlag_is_time ? se.vlag - v0 : se.vlag);
  if (!curr) return;
  out.push_back(m.now() - se.exec_start);
  out.push_back(se.sum_exec_runtime - se.prev_sum_exec_runtime);
  detail::add_value(out, se.vprot - v0);
}

// A CPU's contents in an order that names no task: the counters and sums, curr,
// the buddy by its place, the tree in order, the tasks that slept here.
template <class P>
void Canonical<P>::cpu_signature(const M& m, int cpu, bool identity, Words& out) {
  const auto& rq = m.rqs()[static_cast<std::size_t>(cpu)];
  const auto& cfs = rq.cfs;
  out.clear();
  out.push_back(rq.nr_running);
  out.push_back(static_cast<std::uint64_t>(rq.nr_iowait));
  out.push_back(static_cast<std::uint64_t>(rq.nr_iowait_acct));
  out.push_back(rq.need_resched);
  out.push_back(cfs.load_weight);
  out.push_back(cfs.nr_queued);
  out.push_back(cfs.h_nr_queued);
  out.push_back(static_cast<std::uint64_t>(cfs.h_nr_runnable));
  detail::add_value(out, cfs.avg_vruntime);
  out.push_back(cfs.avg_load);
  if (rq.curr != nullptr) {
    out.push_back(1);
    task_record(m, rq.curr->se.task, identity, out);
  } else {
    out.push_back(0);
  }
  if (cfs.curr == nullptr) {
    out.push_back(0);
  } else if (rq.curr != nullptr && cfs.curr == &rq.curr->se) {
    out.push_back(1);
  } else {
    out.push_back(2);
    task_record(m, cfs.curr->task, identity, out);
  }
  std::uint64_t next = 0;  // 0: none, 1: curr, 2 + its place in the tree
  if (cfs.next != nullptr && cfs.next == cfs.curr) next = 1;
  out.push_back(cfs.timeline.size());
  std::uint64_t place = 2;
  for (const auto* se : cfs.timeline) {
    if (se == cfs.next) next = place;
    ++place;
    task_record(m, se->task, identity, out);
  }
  EEVDF_ASSERT(cfs.next == nullptr || next != 0, "the next buddy is curr or in the tree");
  out.push_back(next);
  // The tasks asleep here (their iowait counts here): a multiset under symmetry.
  std::size_t blocked = 0;  // records kept in blocked_'s first entries (their buffers reused)
  for (int i = 0; i < static_cast<int>(m.tasks().size()); ++i) {
    const auto& p = m.tasks()[static_cast<std::size_t>(i)];
    if (p.cpu != cpu || m.state_of(p) != model::task_state::blocked) continue;
    if (blocked_.size() == blocked) blocked_.emplace_back();
    blocked_[blocked].clear();
    task_record(m, i, identity, blocked_[blocked++]);
  }
  const auto end = blocked_.begin() + static_cast<std::ptrdiff_t>(blocked);
  if (!identity) std::sort(blocked_.begin(), end);
  out.push_back(blocked);
  for (auto b = blocked_.begin(); b != end; ++b) out.insert(out.end(), b->begin(), b->end());
}

template <class P>
std::uint64_t Canonical<P>::fingerprint(const M& m, bool symmetric) {
  const int ncpus = static_cast<int>(m.rqs().size());
  const bool tasks_free = symmetric && task_symmetry_;
  signatures_.resize(static_cast<std::size_t>(ncpus));
  order_.resize(static_cast<std::size_t>(ncpus));
  for (int c = 0; c < ncpus; ++c) {
    cpu_signature(m, c, !tasks_free, signatures_[static_cast<std::size_t>(c)]);
    order_[static_cast<std::size_t>(c)] = c;
  }
  if (symmetric && cpu_symmetry_)
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      return signatures_[static_cast<std::size_t>(a)] < signatures_[static_cast<std::size_t>(b)];
    });
  Hash h;
  for (const int c : order_) {
    const Words& s = signatures_[static_cast<std::size_t>(c)];
    h.add(s.size());
    for (const std::uint64_t w : s) h.add(w);
  }
  // The tasks not yet forked (by class, or by index), so that what can still fork
  // is part of the state; exited tasks are gone.
  scratch_.clear();
  for (int i = 0; i < static_cast<int>(m.tasks().size()); ++i)
    if (m.state_of(m.tasks()[static_cast<std::size_t>(i)]) == model::task_state::new_)
      scratch_.push_back(static_cast<std::uint64_t>(tasks_free ? class_of_[static_cast<std::size_t>(i)] : i));
  std::sort(scratch_.begin(), scratch_.end());
  h.add(scratch_.size());
  for (const std::uint64_t w : scratch_) h.add(w);
  return h.value();
}

}  // namespace eevdf::explore
