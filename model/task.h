// struct task_struct and struct rq, reduced to what the flat fair class reads
// (docs/MODEL.md §3, §13), over an arithmetic policy.
#pragma once

#include <cstdint>  // counters and times

#include "model/cfs_rq.h"
#include "model/sched_entity.h"

namespace eevdf::model {

// What a task is doing, as docs/TRACE_FORMAT.md names the states.
enum class task_state { new_, running, queued, delayed, blocked, exited };

// Cache-line aligned: the header's hot fields and the entity's (sched_entity.h)
// then fill the first line, the one a walk over a queue's tasks reads.
template <class A>
struct alignas(64) task_struct {
  int id = 0;                // the trace's task id
  int cpu = 0;               // task_cpu(p)
  bool forked = false;       // wake_up_new_task has run
  bool exited = false;
  bool on_rq = false;        // p->on_rq: queued, running or delayed
  bool in_iowait = false;    // sleeping in io_schedule (§13.1)
  bool in_iowait_acct = false;  // ... and accounted (the proposed split, §13.2)
  sched_entity<A> se;
  int nice = 0;
  int default_cpu = -1;      // the declaration's `cpu=`
};

template <class A>
struct rq {
  int cpu = 0;
  cfs_rq<A> cfs;
  task_struct<A>* curr = nullptr;  // nullptr: the idle task runs
  bool need_resched = false;       // TIF_NEED_RESCHED on rq->curr
  unsigned nr_running = 0;         // counts delayed tasks (§3.2)
  std::int64_t nr_iowait = 0;      // signed so that a wrong decrement shows as < 0
  std::int64_t nr_iowait_acct = 0;
  bool ever_enqueued = false;      // for `--dump`: CPUs that have had a task
};

}  // namespace eevdf::model
