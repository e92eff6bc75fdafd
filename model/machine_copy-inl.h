// Machine::copy_state_from: one machine's state written into another of the same
// config and tasks. Included by machine.cpp only.
#pragma once

#include "model/machine.h"

namespace eevdf::model {

template <class A, class P>
void Machine<A, P>::copy_state_from(const Machine& o) {
  // Task entities hold no pointers (an entity names its task by index), so the tasks
  // copy as they are; the runqueues' pointers name tasks and are re-aimed by index.
  tasks_ = o.tasks_;
  now_ = o.now_;
  warnings_ = o.warnings_;
  const auto own_entity = [&](const entity* se) { return se == nullptr ? nullptr : &task_of(*se).se; };
  for (std::size_t c = 0; c < rqs_.size(); ++c) {
    rq<A>& to = rqs_[c];
    const rq<A>& from = o.rqs_[c];
    to.curr = from.curr == nullptr ? nullptr : &task_at(from.curr->se.task);
    to.need_resched = from.need_resched;
    to.nr_running = from.nr_running;
    to.nr_iowait = from.nr_iowait;
    to.nr_iowait_acct = from.nr_iowait_acct;
    to.ever_enqueued = from.ever_enqueued;
    cfs_rq<A>& cfs = to.cfs;
    const cfs_rq<A>& src = from.cfs;
    cfs.load_weight = src.load_weight;
    cfs.nr_queued = src.nr_queued;
    cfs.h_nr_queued = src.h_nr_queued;
    cfs.h_nr_runnable = src.h_nr_runnable;
    cfs.avg_vruntime = src.avg_vruntime;
    cfs.avg_load = src.avg_load;
    cfs.min_vruntime = src.min_vruntime;
    cfs.curr = own_entity(src.curr);
    cfs.next = own_entity(src.next);
    // The trees order by the keys the entities carry, so each rebuilds in its own order.
    cfs.timeline.clear();
    for (const entity* se : src.timeline) cfs.timeline.emplace_hint(cfs.timeline.end(), own_entity(se));
    cfs.by_vruntime_index.clear();
    for (const entity* se : src.by_vruntime_index)
      cfs.by_vruntime_index.emplace_hint(cfs.by_vruntime_index.end(), own_entity(se));
    cfs.slices = src.slices;
    cfs.tree_seq_next = src.tree_seq_next;
    cfs.generation = src.generation;
    cfs.overflow = src.overflow;
  }
}

}  // namespace eevdf::model
