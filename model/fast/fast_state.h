// The state of the fast model (docs/FAST_MODEL.md): the kernel's own 64-bit
// integers, absolute virtual times as wrapping u64 (docs/MODEL.md §1.1), and each
// runqueue's tree as a structure of arrays that the pick scans lane by lane.
#pragma once

#include <cstdint>  // the kernel's integer types
#include <vector>   // the per-runqueue lanes

namespace eevdf::model::fast {

using u64 = std::uint64_t;
using s64 = std::int64_t;

// One task and its sched_entity (§3.1). Accessed one at a time (curr, the wakee, the
// pick's winner), so an array of structures: one task's fields share cache lines.
struct Entity {
  u64 vruntime = 0;       // absolute, wraps as the kernel's u64
  u64 deadline = 0;       // absolute, or relative while rel_deadline
  s64 vlag = 0;           // while off the runqueue
  u64 vprot = 0;          // while curr (the kernel's union with vlag, kept apart as in the reference)
  u64 slice = 0;
  u64 exec_start = 0;
  u64 sum_exec_runtime = 0;
  u64 prev_sum_exec_runtime = 0;
  u64 tree_seq = 0;       // insertion order while in the tree: the deadline tie-break
  bool in_tree = false;   // in its runqueue's lanes (queued and not curr)
  int nice = 0;           // the weight and calc_delta factor are the table's at this nice
  bool custom_slice = false;
  bool on_rq = false;     // se->on_rq
  bool sched_delayed = false;
  bool rel_deadline = false;
};

struct Task {
  int id = 0;
  int default_cpu = -1;
  int cpu = 0;
  bool forked = false;
  bool exited = false;
  bool on_rq = false;     // p->on_rq
  bool in_iowait = false;
  bool in_iowait_acct = false;
};

// The tree of one cfs_rq as parallel arrays (§3.3): lane i holds one queued entity's
// vruntime and deadline and its task. The lanes are kept in the tree's order,
// (deadline, insertion), so that the pick is the first eligible lane, walked as the
// reference walks its set. They sit in the middle of their buffers, with room on
// both sides: an insertion or removal shifts the lanes on its shorter side by one, so
// taking the leftmost (most picks) shifts nothing. Only what the scans read is here:
// an entity's insertion sequence and slice stay in its Entity (they do not change
// while it is in the tree). At least kPad lanes follow the last one, so that a
// vector load never reads past the buffer; lanes at and beyond `n` are masked off.
struct Lanes {
  static constexpr int kLanes = 4;  // 4 x 64 bits: one AVX2 register
  static constexpr int kPad = 8;    // 8 x 32-bit task indices: one AVX2 register
  std::vector<u64> vruntime_buf, deadline_buf;
  std::vector<int> task_buf;
  int first = 0;  // the buffer index of lane 0
  int n = 0;
  const u64* vruntime() const { return vruntime_buf.data() + first; }
  const u64* deadline() const { return deadline_buf.data() + first; }
  const int* task() const { return task_buf.data() + first; }
  u64* vruntime() { return vruntime_buf.data() + first; }
  u64* deadline() { return deadline_buf.data() + first; }
  int* task() { return task_buf.data() + first; }
  // The smallest and largest vruntime and the smallest slice in the lanes, kept on
  // insertion and recomputed by a scan only after a holder leaves (update_curr reads
  // the smallest vruntime on every charge, the pick the range to rule out overflow,
  // set_next_entity the smallest slice, which many entities share: hence a count).
  bool vruntime_range_valid = false;
  u64 vruntime_min = 0, vruntime_max = 0;
  mutable bool slice_min_valid = false;  // mutable: cfs_rq_min_slice is a read
  mutable u64 slice_min = 0;
  mutable unsigned slice_min_holders = 0;
};

// A runqueue and its cfs_rq (§3.2), task indices instead of pointers (-1: none).
struct Runqueue {
  int cpu = 0;
  int curr = -1;            // rq->curr, -1: idle
  int cfs_curr = -1;        // cfs_rq->curr (differs from rq->curr inside put/set pairs)
  int next = -1;            // the next buddy
  bool need_resched = false;
  bool ever_enqueued = false;
  unsigned nr_running = 0;
  s64 nr_iowait = 0;
  s64 nr_iowait_acct = 0;
  u64 load_weight = 0;
  unsigned nr_queued = 0;
  unsigned h_nr_queued = 0;
  int h_nr_runnable = 0;
  s64 avg_vruntime = 0;     // Σ key*w over the tree
  u64 avg_load = 0;         // Σ w over the tree (scaled down)
  u64 min_vruntime = 0;     // v0
  u64 tree_seq_next = 1;
  Lanes lanes;
  // Checked arithmetic (docs/PROPERTIES.md no_overflow): overflows detected on this
  // runqueue since the last clear, and the first one's expression.
  // Mutable: the kernel computes V and eligibility in read-only helpers too.
  mutable unsigned overflows = 0;
  mutable const char* first_overflow = nullptr;
  mutable int muted = 0;    // > 0 inside read-only views

  void report(const char* expression) const {
    if (muted != 0) return;
    if (overflows++ == 0) first_overflow = expression;
  }
};

}  // namespace eevdf::model::fast
