// `tick all` in the fast model: update_curr (docs/MODEL.md §5.1) on every busy CPU,
// the common case computed across CPUs in lanes (fast_tick_all.h), the rest by the
// scalar code. Included by fast_events-inl.h only.
//
// Why this is exact. update_curr(rq) reads and writes only rq, rq's curr entity and
// rq's bit of the reschedule bitmap; a task is curr on one CPU at most, so the
// per-CPU calls of sched_tick commute and the reference's CPU order is not
// observable until schedule_pending, which runs after all of them, in CPU order, as
// before. Each lane is either update_curr's common case, where the lane computation
// is the scalar expression for expression (same wrap, same rounding; the re-base is
// taken only where its product provably fits, so no report is skipped), followed by
// the scalar update_deadline and resched_curr where needed; or it is left untouched
// and the scalar update_curr runs on it, reporting overflows as always.
#pragma once

#include "base/assert.h"
#include "model/fast/fast_machine.h"
#include "model/fast/fast_scan.h"
#include "model/fast/fast_tick_all.h"

namespace eevdf::model::fast {

// §5.1 update_curr of every busy CPU (sched_tick on each), in chunks of lanes.
template <bool Simd>
void FastMachine<Simd>::update_curr_all() {
  TickLanes lanes;
  for (Runqueue& rq : rqs_) {
    if (rq.curr < 0) continue;  // idle CPUs do nothing
    if (!tick_lane_gather(rq, lanes)) update_curr(rq);  // no curr on the runqueue: the scalar code
    if (lanes.n == TickLanes::kMax) tick_lanes_apply(lanes);
  }
  tick_lanes_apply(lanes);
  EEVDF_ASSERT(lanes.n == 0, "every lane applied");
}

// Copies update_curr's reads of rq into the next lane; false where curr is not on the
// runqueue (update_curr then neither checks the key nor counts curr in v0).
template <bool Simd>
bool FastMachine<Simd>::tick_lane_gather(Runqueue& rq, TickLanes& l) {
  const int curr = rq.cfs_curr;
  if (curr < 0 || !se_[idx(curr)].on_rq) return false;
  EEVDF_ASSERT(l.n < TickLanes::kMax, "a full chunk is applied before the next gather");
  const Entity& e = se_[idx(curr)];
  Lanes& tree = rq.lanes;
  if (tree.n > 0) vruntime_range(rq);  // update_min_vruntime's refill, no report in it
  const std::size_t k = idx(l.n++);
  const std::size_t nice = idx(e.nice - NICE_MIN);
  l.cpu[k] = rq.cpu;
  l.exec_start[k] = e.exec_start;
  l.sum_exec_runtime[k] = e.sum_exec_runtime;
  l.vruntime[k] = e.vruntime;
  l.deadline[k] = e.deadline;
  l.vprot[k] = e.vprot;
  // nice 0: (2^31, 31), the identity the scalar code skips to
  l.factor[k] = u64{factors_.fact[nice]} | static_cast<u64>(factors_.shift[nice]) << 32;
  l.min_vruntime[k] = rq.min_vruntime;
  l.has_tree[k] = tree.n > 0 ? ~u64{0} : 0;
  l.tree_min[k] = tree.n > 0 ? tree.vruntime_min : 0;
  l.avg_load[k] = rq.avg_load;
  l.avg_vruntime[k] = static_cast<u64>(rq.avg_vruntime);
  l.not_alone[k] = rq.nr_queued != 1 ? ~u64{0} : 0;
  return true;
}

// Computes the chunk's lanes and writes each back in CPU order: the common case's
// results, then update_deadline and the reschedule request where the lane asks; the
// scalar update_curr, from the untouched state, for the others.
template <bool Simd>
void FastMachine<Simd>::tick_lanes_apply(TickLanes& l) {
  if (l.n == 0) return;
  update_curr_lanes<Simd>(l, now_);
  for (int i = 0; i < l.n; ++i) {
    const std::size_t k = idx(i);
    Runqueue& rq = rq_at(l.cpu[k]);
    const u64 status = l.status[k];
    if ((status & TickLanes::kCharged) == 0) continue;  // now <= exec_start: update_curr returns
    if ((status & TickLanes::kCommon) == 0) {
      update_curr(rq);
      continue;
    }
    const int curr = rq.cfs_curr;
    Entity& e = se_[idx(curr)];
    EEVDF_ASSERT(e.exec_start < now_ && e.on_rq, "a common lane charges an on_rq curr");
    e.exec_start = now_;
    e.sum_exec_runtime = l.sum_exec_runtime[k];
    e.vruntime = l.vruntime[k];
    if ((status & TickLanes::kRenew) != 0) {
      const bool renewed = update_deadline(rq, curr);
      EEVDF_ASSERT(renewed, "the lane's deadline test is update_deadline's");
    }
    rq.min_vruntime = l.min_vruntime[k];
    rq.avg_vruntime = static_cast<s64>(l.avg_vruntime[k]);
    if ((status & TickLanes::kResched) != 0) {
      resched_curr(rq);
      clear_buddies(rq, curr);
    }
  }
  l.n = 0;
}

}  // namespace eevdf::model::fast
