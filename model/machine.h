// The exact reference model of the fair class (v6.18 by default; the profile P
// holds what differs between kernel versions, profile.h) for tasks on per-CPU runqueues
// (docs/MODEL.md, §19 for the call sequences), over an arithmetic policy A:
// KernelArith (bit-exact with the kernel, overflow detected) or IdealArith (exact
// rationals). Pure: no I/O, clock or randomness; time comes with each event.
//
// The public methods are the trace verbs. Each checks legality first and returns a
// non-empty reason when the event is illegal in the current state (nothing changes
// then); otherwise it applies the kernel's call sequence and runs every pending
// reschedule in ascending CPU order (docs/TRACE_FORMAT.md, immediate preemption).
#pragma once

#include <cstdint>        // times
#include <string>         // illegal-event reasons
#include <unordered_map>  // task ids to indices (lookups only: no iteration order leaks)
#include <utility>        // std::exchange
#include <vector>         // runqueues and tasks

#include "base/kernel_warn.h"
#include "model/config.h"
#include "model/observer.h"
#include "model/profile_6_12.h"
#include "model/profile_6_18.h"
#include "model/task.h"

namespace eevdf::model {

enum class io_sleep { none, io, noacct };

template <class A, class P = profile_6_18>
class Machine : private profile_ops<A, P, Machine<A, P>> {
  using ops = profile_ops<A, P, Machine<A, P>>;
  friend ops;
  // Loads another implementation's state (model/mirror.h); runs no model code.
  template <class>
  friend struct MirrorLoader;

 public:
  using value = typename A::value;
  using entity = sched_entity<A>;
  using task = task_struct<A>;

  Machine(const Config& config, const std::vector<TaskSpec>& tasks);
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
  // Makes this machine's state `o`'s (a machine of the same config and tasks): the
  // snapshot `explore` branches from. Pointers are re-aimed at this machine's own
  // tasks; the observer stays this machine's (machine_copy-inl.h).
  void copy_state_from(const Machine& o);

  // The trace verbs (docs/TRACE_FORMAT.md). `t` never decreases. Tasks are indices
  // into tasks(); cpu -1 means "not given".
  std::string fork(std::uint64_t t, int p, int cpu);
  std::string wake(std::uint64_t t, int p, int cpu);
  std::string sleep(std::uint64_t t, int p, io_sleep io);
  std::string tick(std::uint64_t t, int cpu);  // cpu -1: every CPU
  std::string migrate(std::uint64_t t, int p, int cpu);
  std::string renice(std::uint64_t t, int p, int nice);
  std::string setslice(std::uint64_t t, int p, std::uint64_t slice_ns);
  std::string yield(std::uint64_t t, int p);
  std::string exit(std::uint64_t t, int p);

  // Hooks for the property checker (observer.h); nullptr: none.
  void set_observer(Observer<A>* observer) { observer_ = observer; }

  // Read-only views for queries, dumps and properties.
  const Config& config() const { return cfg_; }
  const std::vector<rq<A>>& rqs() const { return rqs_; }
  const std::vector<task>& tasks() const { return tasks_; }
  int task_index(int id) const;  // -1 if undeclared
  // Inline: the property checks ask it for every queued task after every event.
  task_state state_of(const task& p) const {
    if (!p.forked) return task_state::new_;
    if (p.exited) return task_state::exited;
    if (running(p)) return task_state::running;
    if (!p.on_rq) return task_state::blocked;  // task_on_rq_queued first, as the kernel tests
    return p.se.sched_delayed ? task_state::delayed : task_state::queued;
  }
  std::uint64_t now() const { return now_; }
  // V of a runqueue as the kernel computes it (§4.1); does not change state.
  value avg_vruntime_of(int cpu) const;
  bool eligible(const task& p) const;        // entity_eligible (§4.2)
  bool protected_slice(const task& p) const;  // protect_slice of curr (§7.3)
  std::vector<OverflowEvent> drain_overflows(int cpu);
  void clear_overflows();
  void clear_overflows(const std::vector<int>& cpus);
  // The kernel warnings (a SCHED_WARN_ON the kernel goes on after) met since the last
  // take_warnings(), in order; the conditions it cannot go past throw KernelWarn.
  std::vector<KernelWarning> take_warnings() { return std::exchange(warnings_, {}); }
  bool warned() const { return !warnings_.empty(); }

 private:
  // What differs between kernel versions (profile.h).
  using ops::avg_vruntime;
  using ops::cancel_protect_slice;
  using ops::deadline_renewed;
  using ops::pick_keeps_curr;
  using ops::protect_slice;
  using ops::reweight_entity;
  using ops::set_protect_slice;
  using ops::update_curr_resched;
  using ops::update_min_vruntime;
  using ops::update_protect_slice;
  using ops::wakeup_preempt_pick;
  using ops::yield_forfeit;

  // kernel/sched/fair.c (fair-inl.h)
  value entity_key(const cfs_rq<A>& cfs, const entity& se) const;
  bool vruntime_eligible(const cfs_rq<A>& cfs, const value& vruntime) const;
  bool entity_eligible(const cfs_rq<A>& cfs, const entity& se) const;
  bool entity_before(const cfs_rq<A>& cfs, const entity& a, const entity& b) const;
  value min_vruntime(const cfs_rq<A>& cfs, const value& a, const value& b) const;
  void avg_vruntime_add(cfs_rq<A>& cfs, const entity& se);
  void avg_vruntime_sub(cfs_rq<A>& cfs, const entity& se);
  std::uint64_t cfs_rq_min_slice(const cfs_rq<A>& cfs) const;
  void enqueue_entity_tree(cfs_rq<A>& cfs, entity& se);  // __enqueue_entity
  void dequeue_entity_tree(cfs_rq<A>& cfs, entity& se);  // __dequeue_entity
  value calc_delta_fair(cfs_rq<A>& cfs, std::uint64_t delta, const entity& se);
  entity* pick_eevdf(cfs_rq<A>& cfs, bool protect, bool wakeup = false);  // __pick_eevdf
  bool update_deadline(cfs_rq<A>& cfs, entity& se);
  void update_curr(cfs_rq<A>& cfs);
  void update_entity_lag(cfs_rq<A>& cfs, entity& se, bool clamp = true);
  void place_entity(cfs_rq<A>& cfs, entity& se, unsigned flags);
  void enqueue_entity(cfs_rq<A>& cfs, entity& se, unsigned flags);
  void clear_buddies(cfs_rq<A>& cfs, const entity& se);
  void set_next_buddy(cfs_rq<A>& cfs, entity& se);
  void set_delayed(cfs_rq<A>& cfs, entity& se);
  void clear_delayed(cfs_rq<A>& cfs, entity& se);
  void finish_delayed_dequeue_entity(cfs_rq<A>& cfs, entity& se);
  bool dequeue_entity(cfs_rq<A>& cfs, entity& se, unsigned flags);
  void set_next_entity(cfs_rq<A>& cfs, entity& se);
  entity* pick_next_entity(rq<A>& rq, cfs_rq<A>& cfs, bool& retry);
  void put_prev_entity(cfs_rq<A>& cfs, entity& prev);
  void requeue_delayed_entity(cfs_rq<A>& cfs, entity& se);
  void enqueue_task_fair(rq<A>& rq, task& p, unsigned flags);
  int dequeue_entities(rq<A>& rq, entity& se, unsigned flags);
  bool dequeue_task_fair(rq<A>& rq, task& p, unsigned flags);
  task* pick_task_fair(rq<A>& rq);
  void check_preempt_wakeup_fair(rq<A>& rq, task& p, unsigned wake_flags);
  void yield_task_fair(rq<A>& rq);
  void prio_changed_fair(rq<A>& rq, task& p, int old_nice);

  // Tells the observer which way a decision went (observer.h); returns `outcome`.
  bool decide(const cfs_rq<A>& cfs, decision d, const entity* a, const entity* b, bool outcome) const {
    if (observer_ != nullptr) observer_->decided(cfs, d, a, b, outcome);
    return outcome;
  }

  // A change of `se`'s counted values (or, with nullptr, of v0) on cfs: the
  // generation bump and its queue_changed hook (observer.h), in one step.
  void bump(cfs_rq<A>& cfs, const entity* se) {
    ++cfs.generation;
    if (observer_ != nullptr) observer_->queue_changed(cfs, se);
  }

  // A kernel warning on `cfs`'s CPU: recorded, and the model goes on as the kernel does.
  void warn(const cfs_rq<A>& cfs, KernelCheck c) { warnings_.push_back({c, cfs.rq_->cpu}); }

  // kernel/sched/core.c and syscalls.c (core-inl.h)
  void resched_curr(rq<A>& rq) { rq.need_resched = true; }
  void wakeup_preempt(rq<A>& rq, task& p, unsigned wake_flags);
  void activate_task(rq<A>& rq, task& p, unsigned flags);
  void deactivate_task(rq<A>& rq, task& p, unsigned flags);
  void block_task(rq<A>& rq, task& p, unsigned flags);
  void block_task_complete(rq<A>& rq, task& p);  // __block_task
  task* pick_next_task(rq<A>& rq, task* prev);
  void schedule(rq<A>& rq, bool prev_blocks, bool prev_dies);  // __schedule
  void schedule_pending();
  void sched_fork(task& p, const TaskSpec& spec);  // __sched_fork + set_load_weight
  void ttwu_do_activate(rq<A>& rq, task& p, unsigned wake_flags);
  void advance(std::uint64_t t);
  task& task_at(int p) { return tasks_.at(static_cast<std::size_t>(p)); }
  rq<A>& rq_at(int cpu) { return rqs_.at(static_cast<std::size_t>(cpu)); }
  rq<A>& rq_of(cfs_rq<A>& cfs) { return *cfs.rq_; }
  task& task_of(const entity& se) { return task_at(se.task); }
  bool running(const task& p) const {
    return p.forked && !p.exited && rqs_[static_cast<std::size_t>(p.cpu)].curr == &p;
  }

  Config cfg_;
  std::vector<rq<A>> rqs_;
  std::vector<task> tasks_;
  std::vector<TaskSpec> specs_;
  std::unordered_map<int, int> index_of_id_;
  std::uint64_t now_ = 0;
  Observer<A>* observer_ = nullptr;
  std::vector<KernelWarning> warnings_;
};

}  // namespace eevdf::model
