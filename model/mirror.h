// A Machine as a state container: another implementation's state written into it
// field by field (the mirror of kernel-src, replay/kernel_src_mirror.h), so that the
// property checks, written over model::Machine, judge that implementation's state.
// Nothing of the model's own code runs on a loaded machine; the loader only writes
// what a Machine holds, in the model's own representation. Pure.
#pragma once

#include <cstdint>  // kernel words
#include <vector>   // tree order

#include "model/arith_kernel.h"
#include "model/machine.h"

namespace eevdf::model {

// The kernel's u64 virtual times as the model's exact values: the model keeps v0 in
// [0, 2^64) at init_cfs_rq and lets values run past 2^64 unwrapped. `base` is the
// exact value the kernel's wrapped v0 stands for (kept by the loader's caller across
// v0's moves, as the model's own v0 moves); a time is base plus its signed distance
// from v0 (exact while within 2^63 of v0).
struct VirtualTimes {
  std::uint64_t v0 = 0;      // the runqueue's v0, as the kernel holds it
  KernelArith::value base{};  // what it stands for
  // At init_cfs_rq: v0's own value.
  static VirtualTimes initial(std::uint64_t v0) { return {v0, KernelArith::from_u64(v0)}; }
  // After v0 moved to `to`: the same frame, moved by the signed distance.
  VirtualTimes moved_to(std::uint64_t to) const {
    return {to, base + KernelArith::from_s64(static_cast<std::int64_t>(to - v0))};
  }
  KernelArith::value absolute(std::uint64_t t) const {
    return base + KernelArith::from_s64(static_cast<std::int64_t>(t - v0));
  }
  // absolute(t) when `is_time`, else the signed word t: selected on 64-bit words (a
  // select of two 128-bit values goes through the stack in GCC's code: a stall per field).
  KernelArith::value time_or_signed(std::uint64_t t, bool is_time) const {
    const KernelArith::value b = base & -KernelArith::value(is_time);
    return b + KernelArith::from_s64(static_cast<std::int64_t>(is_time ? t - v0 : t));
  }
};

// A runqueue's sum (Σ key*w or Σ w) in the model's scaled-down weights (w >> 10) from
// a tree's that keep full weights shifted by `sum_shift` (w >> sum_shift, sum_shift
// <= 10): a task's weight is a multiple of 2^10, so theirs is the model's times
// 2^(10 - sum_shift), exactly.
inline std::int64_t sum_scaled_down(std::int64_t sum, unsigned sum_shift) {
  return sum >> (10 - (sum_shift < 10 ? sum_shift : 10));
}

// One task as the other implementation holds it (core.c state and its entity).
struct MirrorTask {
  bool forked = false, exited = false, on_rq = false, in_iowait = false, in_iowait_acct = false;
  int cpu = 0;
  int nice = 0;
  // The entity. `vruntime`, `deadline` (unless rel_deadline) and `vlag` when it
  // stashes a deadline (6.12 protection) are absolute times, read by VirtualTimes.
  bool se_on_rq = false, sched_delayed = false, rel_deadline = false, custom_slice = false;
  std::uint64_t vruntime = 0, deadline = 0, slice = 0, weight = 0;
  std::uint32_t inv_weight = 0;
  std::int64_t vlag = 0;
  bool vlag_is_time = false;  // vlag holds an absolute time (6.12: the deadline stashed at pick)
  bool has_vprot = false;     // the tree has se->vprot
  std::uint64_t vprot = 0;    // absolute
  std::uint64_t exec_start = 0, sum_exec_runtime = 0, prev_sum_exec_runtime = 0;
};

// One runqueue: its tree in order (task indices), curr, the buddy and the counters.
struct MirrorRq {
  int curr = -1;      // rq->curr's task, -1: idle
  int cfs_curr = -1;  // cfs_rq->curr's task, -1: none
  int next = -1;      // cfs_rq->next's task, -1: none
  bool need_resched = false;
  unsigned nr_running = 0, nr_queued = 0, h_nr_queued = 0;
  int h_nr_runnable = 0;
  std::uint64_t load_weight = 0;
  std::int64_t sum = 0;  // Σ key*w over the tree (cfs_rq->avg_vruntime)
  std::uint64_t sum_weight = 0;
  std::int64_t nr_iowait = 0, nr_iowait_acct = 0;
  bool ever_enqueued = false;
  std::vector<int> tree;  // the tree's members in order
};

// Writes a loaded state into a Machine<KernelArith, P> (a friend of Machine). A load
// bumps the loaded runqueue's generation (and `changed` another's): the checker's
// recounts (properties' Env::facts) are then taken again from the loaded state.
template <class P>
struct MirrorLoader {
  using M = Machine<KernelArith, P>;
  using value = KernelArith::value;

  static void set_now(M& m, std::uint64_t now) { m.now_ = now; }

  // Task `p`'s fields; its entity's times are read against its CPU's v0 `times`.
  static void load_task(M& m, int p, const MirrorTask& t, const VirtualTimes& times) {
    auto& task = m.tasks_.at(static_cast<std::size_t>(p));
    task.forked = t.forked;
    task.exited = t.exited;
    task.on_rq = t.on_rq;
    task.in_iowait = t.in_iowait;
    task.in_iowait_acct = t.in_iowait_acct;
    task.cpu = t.cpu;
    task.nice = t.nice;
    auto& se = task.se;
    se.on_rq = t.se_on_rq;
    se.sched_delayed = t.sched_delayed;
    se.rel_deadline = t.rel_deadline;
    se.custom_slice = t.custom_slice;
    se.vruntime = times.absolute(t.vruntime);
    se.deadline = times.time_or_signed(t.deadline, !t.rel_deadline);
    se.slice = t.slice;
    se.load = load_weight{t.weight, t.inv_weight};
    se.vlag = times.time_or_signed(static_cast<std::uint64_t>(t.vlag), t.vlag_is_time);
    se.vprot = times.time_or_signed(t.has_vprot ? t.vprot : 0, t.has_vprot);
    se.exec_start = t.exec_start;
    se.sum_exec_runtime = t.sum_exec_runtime;
    se.prev_sum_exec_runtime = t.prev_sum_exec_runtime;
  }

  // CPU `cpu`'s runqueue, its v0 read by `times`; its members' entities are loaded
  // already (load_task).
  static void load_rq(M& m, int cpu, const MirrorRq& r, const VirtualTimes& times) {
    auto& rq = m.rqs_.at(static_cast<std::size_t>(cpu));
    auto& cfs = rq.cfs;
    const auto se_of = [&](int p) { return p < 0 ? nullptr : &m.tasks_.at(static_cast<std::size_t>(p)).se; };
    rq.curr = r.curr < 0 ? nullptr : &m.tasks_.at(static_cast<std::size_t>(r.curr));
    rq.need_resched = r.need_resched;
    rq.nr_running = r.nr_running;
    rq.nr_iowait = r.nr_iowait;
    rq.nr_iowait_acct = r.nr_iowait_acct;
    rq.ever_enqueued = r.ever_enqueued;
    cfs.load_weight = r.load_weight;
    cfs.nr_queued = r.nr_queued;
    cfs.h_nr_queued = r.h_nr_queued;
    cfs.h_nr_runnable = r.h_nr_runnable;
    cfs.avg_vruntime = KernelArith::from_s64(r.sum);
    cfs.avg_load = r.sum_weight;
    cfs.min_vruntime = times.base;
    cfs.curr = se_of(r.cfs_curr);
    cfs.next = se_of(r.next);
    // The tree's own order: each member's insertion rank follows its position in it,
    // from a count that never repeats (an entity that left keeps its old rank, which
    // then matches no member's). The model's indexes of min_vruntime and min_slice
    // stay empty: they serve the model's own pick, which never runs on a loaded machine.
    for (const int p : r.tree) {
      auto* se = se_of(p);
      se->tree_seq = cfs.tree_seq_next++;
      se->tree_deadline = se->deadline;
      se->tree_vruntime = se->vruntime;
      se->tree_slice = se->slice;
    }
    if (!same_order(cfs, r.tree, se_of)) {
      cfs.timeline.clear();
      for (const int p : r.tree) cfs.timeline.insert(se_of(p));
    }
    cfs.overflow.clear();
    ++cfs.generation;
  }

  // A task's entity was written while another runqueue's tree may hold it: that
  // queue's recount must be taken again.
  static void changed(M& m, int cpu) { ++m.rqs_.at(static_cast<std::size_t>(cpu)).cfs.generation; }

 private:
  // Whether the tree already holds `tree`'s entities in that order, and their new keys
  // keep it ordered (then the set is left as it is: loads at every hook allocate nothing).
  template <class SeOf>
  static bool same_order(const cfs_rq<KernelArith>& cfs, const std::vector<int>& tree, SeOf se_of) {
    if (cfs.timeline.size() != tree.size()) return false;
    auto it = cfs.timeline.begin();
    const typename cfs_rq<KernelArith>::by_deadline before;
    const sched_entity<KernelArith>* last = nullptr;
    for (const int p : tree) {
      const auto* se = se_of(p);
      if (*it != se || (last != nullptr && !before(last, se))) return false;
      last = se;
      ++it;
    }
    return true;
  }
 public:
};

}  // namespace eevdf::model
