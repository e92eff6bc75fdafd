// The fast model (docs/FAST_MODEL.md): the same kernel arithmetic as the reference
// Machine<KernelArith, profile_6_18> (model/machine.h), bit for bit, rebuilt for
// speed: native 64-bit integers that wrap as the kernel's, checked where the
// no_overflow catalogue lists an overflow; each runqueue's tree as lanes scanned by
// the pick (fast_scan.h) instead of an ordered set. `Simd` selects the 4-lane scans;
// both builds live in one binary (fast_scalar.cpp, fast_simd.cpp).
//
// The verbs, their legality rules and the call sequences are the reference's, with
// the same kernel function names; every feature and every implemented injection is
// supported. There are no observer hooks: `run` checks properties on the reference.
// Pure: no I/O, clock or randomness.
#pragma once

#include <cstdint>        // times
#include <string>         // illegal-event reasons
#include <unordered_map>  // task ids to indices (lookups only)
#include <vector>         // runqueues and tasks

#include "model/config.h"
#include "model/fast/fast_arith.h"
#include "model/fast/fast_state.h"
#include "model/machine.h"  // io_sleep, task_state

namespace eevdf::model::fast {

template <bool Simd>
class FastMachine {
 public:
  FastMachine(const Config& config, const std::vector<TaskSpec>& tasks);
  FastMachine(const FastMachine&) = delete;
  FastMachine& operator=(const FastMachine&) = delete;

  // The trace verbs, as Machine's (docs/TRACE_FORMAT.md): a non-empty reason when illegal.
  std::string fork(u64 t, int p, int cpu);
  std::string wake(u64 t, int p, int cpu);
  std::string sleep(u64 t, int p, io_sleep io);
  std::string tick(u64 t, int cpu);  // cpu -1: every CPU
  std::string migrate(u64 t, int p, int cpu);
  std::string renice(u64 t, int p, int nice);
  std::string setslice(u64 t, int p, u64 slice_ns);
  std::string yield(u64 t, int p);
  std::string exit(u64 t, int p);

  // Read-only views.
  const Config& config() const { return cfg_; }
  const std::vector<Runqueue>& rqs() const { return rqs_; }
  const std::vector<Task>& tasks() const { return tasks_; }
  const std::vector<Entity>& entities() const { return se_; }
  int task_index(int id) const;
  task_state state_of(int p) const;
  u64 now() const { return now_; }
  u64 avg_vruntime_of(int cpu) const;   // V (§4.1), overflow reports muted
  bool eligible(int p) const;           // entity_eligible (§4.2)
  bool protected_slice(int p) const;    // protect_slice of curr (§7.3)
  bool overflowed(int cpu) const { return rqs_[static_cast<std::size_t>(cpu)].overflows != 0; }
  void clear_overflows();
  int tree_slot(int p) const;  // p's lane in its runqueue's tree (rqs()[cpu].lanes), -1: not in it

 private:
  // kernel/sched/fair.c (fast_fair-inl.h, fast_pick-inl.h, fast_queue-inl.h)
  s64 entity_key(const Runqueue& rq, int se) const { return wrap_diff(se_[idx(se)].vruntime, rq.min_vruntime); }
  void curr_in_sums(const Runqueue& rq, s64& avg, u64& load, const char* key_w, const char* sum) const;
  bool vruntime_eligible(const Runqueue& rq, u64 vruntime) const;
  bool entity_eligible(const Runqueue& rq, int se) const { return vruntime_eligible(rq, se_[idx(se)].vruntime); }
  s64 avg_vruntime_offset(const Runqueue& rq) const;  // V - v0
  u64 avg_vruntime(const Runqueue& rq) const { return wrap_add(rq.min_vruntime, avg_vruntime_offset(rq)); }
  void avg_vruntime_add(Runqueue& rq, int se);
  void avg_vruntime_sub(Runqueue& rq, int se);
  const Lanes& vruntime_range(Runqueue& rq);
  void update_min_vruntime(Runqueue& rq);
  u64 cfs_rq_min_slice(const Runqueue& rq) const;
  void enqueue_entity_tree(Runqueue& rq, int se);
  void dequeue_entity_tree(Runqueue& rq, int se);
  u64 calc_delta_fair(const Runqueue& rq, u64 delta, int se) const;
  void check_key(const Runqueue& rq, s64 old_key, u64 increment) const;
  int pick_eevdf(Runqueue& rq, bool protect, bool wakeup = false);
  int pick_first_eligible(const Runqueue& rq, s64 avg, u64 load, int from, int to) const;
  int pick_tree(Runqueue& rq);
  bool update_deadline(Runqueue& rq, int se);
  void update_curr(Runqueue& rq);
  void update_entity_lag(Runqueue& rq, int se, bool clamp = true);
  void place_entity(Runqueue& rq, int se, unsigned flags);
  void enqueue_entity(Runqueue& rq, int se, unsigned flags);
  void clear_buddies(Runqueue& rq, int se) { if (rq.next == se) rq.next = -1; }
  void set_delayed(Runqueue& rq, int se);
  void clear_delayed(Runqueue& rq, int se);
  bool dequeue_entity(Runqueue& rq, int se, unsigned flags);
  void set_next_entity(Runqueue& rq, int se);
  int pick_next_entity(Runqueue& rq, bool& retry);
  void put_prev_entity(Runqueue& rq, int prev);
  void requeue_delayed_entity(Runqueue& rq, int se);
  void enqueue_task_fair(Runqueue& rq, int p, unsigned flags);
  int dequeue_entities(Runqueue& rq, int se, unsigned flags);
  bool dequeue_task_fair(Runqueue& rq, int p, unsigned flags) { return dequeue_entities(rq, p, flags) >= 0; }
  int pick_task_fair(Runqueue& rq);
  void check_preempt_wakeup_fair(Runqueue& rq, int p, unsigned wake_flags);
  void yield_task_fair(Runqueue& rq);
  void prio_changed_fair(Runqueue& rq, int p, int old_nice);
  void set_protect_slice(Runqueue& rq, int se);
  void update_protect_slice(Runqueue& rq, int se);
  bool protect_slice(const Runqueue& rq, int se) const;
  void cancel_protect_slice(Runqueue& rq, int se);
  void reweight_entity(Runqueue& rq, int se, int nice, bool was_queued);
  void wakeup_preempt_pick(Runqueue& rq, int curr, int wakee);
  // update_curr of every busy CPU for `tick all`, across CPUs in lanes (fast_tick_all-inl.h)
  void update_curr_all();
  bool tick_lane_gather(Runqueue& rq, struct TickLanes& l);
  void tick_lanes_apply(struct TickLanes& l);

  // kernel/sched/core.c (fast_core-inl.h)
  void resched_curr(Runqueue& rq) {
    rq.need_resched = true;
    pending_[idx(rq.cpu) / 64] |= u64{1} << (rq.cpu % 64);
  }
  void wakeup_preempt(Runqueue& rq, int p, unsigned wake_flags);
  void activate_task(Runqueue& rq, int p, unsigned flags);
  void block_task(Runqueue& rq, int p, unsigned flags);
  void block_task_complete(Runqueue& rq, int p);
  int pick_next_task(Runqueue& rq, int prev);
  void schedule(Runqueue& rq, bool prev_blocks, bool prev_dies);
  void schedule_pending();
  void ttwu_do_activate(Runqueue& rq, int p, unsigned wake_flags);
  void advance(u64 t);
  bool running(int p) const;
  std::string set_param(u64 t, int p, int nice, u64 slice_ns, bool renice);
  Runqueue& rq_at(int cpu) { return rqs_[static_cast<std::size_t>(cpu)]; }
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  bool curr_on_rq(const Runqueue& rq) const { return rq.cfs_curr >= 0 && se_[idx(rq.cfs_curr)].on_rq; }

  Config cfg_;
  DeltaFactors factors_;
  bool run_to_parity_ = false, place_lag_ = false;  // hot feature bits
  std::vector<Runqueue> rqs_;
  std::vector<Task> tasks_;
  std::vector<Entity> se_;  // se_[p] is task p's entity
  std::vector<TaskSpec> specs_;
  std::vector<int> index_by_id_;              // id -> index when ids are small
  std::unordered_map<int, int> index_of_id_;  // the others
  std::vector<u64> pending_;                  // bit c: CPU c has need_resched
  u64 now_ = 0;
};

// The index of the task running on `cpu`, -1 when idle (replay/apply_event.h).
template <bool Simd>
int task_running_on(const FastMachine<Simd>& m, int cpu) {
  return m.rqs().at(static_cast<std::size_t>(cpu)).curr;
}

using ScalarMachine = FastMachine<false>;
using SimdMachine = FastMachine<true>;

// Whether FastMachine<true> may run on this CPU: built for AVX2 (EEVDF_FAST_AVX2, on
// x86-64), it needs a CPU with AVX2; every caller asks before choosing it
// (replay::with_fast_build), so that the binary runs on any x86-64 CPU.
bool simd_runs_here();
// What the SIMD build is compiled for ("AVX2", or the scalar code auto-vectorized).
const char* simd_isa();

}  // namespace eevdf::model::fast
