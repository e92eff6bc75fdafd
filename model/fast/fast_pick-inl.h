// fair.c, part 2, in the fast model: the pick as a scan, accounting and slice
// protection (docs/MODEL.md §5, §7, §8, §12). Mirrors model/fair_pick-inl.h and the
// 6.18 profile. Included by fast_fair-inl.h only.
#pragma once

#include <algorithm>  // std::min

#include "model/fast/fast_machine.h"
#include "model/fast/fast_scan.h"
#include "model/flags.h"

namespace eevdf::model::fast {

// §7.1 step 5 as the reference visits it: the lanes [from, to) in tree order, the
// first eligible one, else `to` (avg >= key*W, the kernel's product, each overflow
// reported).
// Queues are short and the first lane is the pick in most picks (60% on the bench
// traces, 85% within four lanes), so this walk beats a division for a threshold.
template <bool Simd>
int FastMachine<Simd>::pick_first_eligible(const Runqueue& rq, s64 avg, u64 load, int from, int to) const {
  const Lanes& l = rq.lanes;
  const s64 w = as_s64(load, rq, "W as s64");
  for (int i = from; i < to; ++i)
    if (avg >= checked_mul(wrap_diff(l.vruntime()[i], rq.min_vruntime), w, rq, "key*W in vruntime_eligible"))
      return i;
  return to;
}

// §7.1 __pick_eevdf(), tree part: the first eligible lane. The SIMD build walks the
// first vector's lanes, then scans the rest in threshold form: eligibility avg >= key*W
// is, while key*W fits s64, the same as key <= floor(avg / W), so the lanes only
// compare keys (one division per scan); when the keys' range makes key*W overflow,
// it walks on instead.
template <bool Simd>
int FastMachine<Simd>::pick_tree(Runqueue& rq) {
  const Lanes& l = rq.lanes;
  s64 avg = 0;
  u64 load = 0;
  curr_in_sums(rq, avg, load, "key*w of curr in vruntime_eligible", "sum of key*w in vruntime_eligible");
  int slot = l.n;
  if constexpr (Simd) {
    const int walked = std::min(l.n, Lanes::kLanes);
    slot = pick_first_eligible(rq, avg, load, 0, walked);
    if (slot == walked && walked < l.n) {
      const s64 w = static_cast<s64>(load);
      s64 product = 0;
      const u64 v0 = rq.min_vruntime;
      const bool exact = load == 0 || load > static_cast<u64>(INT64_MAX) ||
                         __builtin_mul_overflow(wrap_diff(vruntime_range(rq).vruntime_min, v0), w, &product) ||
                         __builtin_mul_overflow(wrap_diff(l.vruntime_max, v0), w, &product);
      slot = exact ? pick_first_eligible(rq, avg, load, walked, l.n)
                   : first_eligible<Simd>(l, v0, avg / w - (avg % w < 0 ? 1 : 0), walked);
    }
  } else {
    slot = pick_first_eligible(rq, avg, load, 0, l.n);
  }
  return slot < l.n ? l.task()[slot] : -1;
}

// §7.1 __pick_eevdf().
template <bool Simd>
int FastMachine<Simd>::pick_eevdf(Runqueue& rq, bool protect, bool wakeup) {
  EEVDF_KERNEL_DIES_IF(rq.nr_queued == 0, "a pick on an empty runqueue",
                       "NULL dereference of pick_eevdf()'s result in pick_next_entity");
  if (rq.nr_queued == 1 && curr_on_rq(rq)) return rq.cfs_curr;
  const Lanes& l = rq.lanes;
  if (rq.nr_queued == 1) return l.n == 0 ? -1 : l.task()[0];  // the leftmost entity, eligible or not
  int curr = rq.cfs_curr;
  const bool keep_ineligible = wakeup && protect && curr >= 0 && se_[idx(curr)].on_rq &&
                               cfg_.feat(Feature::RUN_TO_PARITY_WAKEUP) && protect_slice(rq, curr);
  if (curr >= 0 && (!se_[idx(curr)].on_rq || (!keep_ineligible && !entity_eligible(rq, curr)))) curr = -1;
  if (curr >= 0 && protect && protect_slice(rq, curr)) return curr;
  int best = l.n > 0 ? pick_tree(rq) : -1;
  if (best < 0 || (curr >= 0 && wrap_diff(se_[idx(curr)].deadline, se_[idx(best)].deadline) < 0)) best = curr;
  return best;
}

// §5.2 update_deadline(): a new request once vruntime reaches the deadline.
template <bool Simd>
bool FastMachine<Simd>::update_deadline(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  if (wrap_diff(e.vruntime, e.deadline) < 0) return false;
  if (!e.custom_slice) e.slice = cfg_.sysctl_base_slice;
  e.deadline = e.vruntime + calc_delta_fair(rq, e.slice, se);
  return true;
}

// §5.1 update_curr(): charge curr up to now; resched on deadline or protection end.
template <bool Simd>
void FastMachine<Simd>::update_curr(Runqueue& rq) {
  const int curr = rq.cfs_curr;
  if (curr < 0) return;
  Entity& e = se_[idx(curr)];
  if (now_ <= e.exec_start) return;
  const u64 delta_exec = now_ - e.exec_start;
  e.exec_start = now_;
  e.sum_exec_runtime += delta_exec;
  const u64 vdelta = calc_delta_fair(rq, delta_exec, curr);
  if (e.on_rq) check_key(rq, entity_key(rq, curr), vdelta);
  e.vruntime += vdelta;
  const bool renewed = update_deadline(rq, curr);
  update_min_vruntime(rq);
  const bool resched = rq.nr_queued != 1 && (renewed || !protect_slice(rq, curr));
  if (resched) {
    resched_curr(rq);
    clear_buddies(rq, curr);
  }
}

// §7.3 set_next_entity(): take the pick out of the tree and protect its slice.
template <bool Simd>
void FastMachine<Simd>::set_next_entity(Runqueue& rq, int se) {
  clear_buddies(rq, se);
  Entity& e = se_[idx(se)];
  if (e.on_rq) {
    dequeue_entity_tree(rq, se);
    set_protect_slice(rq, se);
  }
  EEVDF_ASSERT(rq.cfs_curr < 0, "set_next_entity with a curr");
  rq.cfs_curr = se;
  e.exec_start = now_;
  e.prev_sum_exec_runtime = e.sum_exec_runtime;
}

// §7.3 put_prev_entity(): charge and return a still-queued prev to the tree.
template <bool Simd>
void FastMachine<Simd>::put_prev_entity(Runqueue& rq, int prev) {
  if (se_[idx(prev)].on_rq) {
    update_curr(rq);
    enqueue_entity_tree(rq, prev);
  }
  EEVDF_ASSERT(rq.cfs_curr == prev, "put_prev_entity of a non-curr");
  rq.cfs_curr = -1;
}

// §7.2 pick_next_entity(): an eligible next buddy, else EEVDF; a delayed pick
// completes its sleep and sets `retry`.
template <bool Simd>
int FastMachine<Simd>::pick_next_entity(Runqueue& rq, bool& retry) {
  retry = false;
  if (cfg_.feat(Feature::PICK_BUDDY) && rq.next >= 0 && entity_eligible(rq, rq.next)) {
    // A delayed buddy: the kernel warns and goes on (the reference records it).
    return rq.next;
  }
  const int se = pick_eevdf(rq, true);
  if (se < 0) return -1;  // nothing eligible: only after an overflow
  if (se_[idx(se)].sched_delayed) {
    dequeue_entities(rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
    retry = true;
    return -1;
  }
  return se;
}

// §7.2 pick_task_fair(): retried after each completed delayed dequeue.
template <bool Simd>
int FastMachine<Simd>::pick_task_fair(Runqueue& rq) {
  for (unsigned round = 0, rounds_max = rq.nr_queued + 1; round <= rounds_max; ++round) {
    if (rq.nr_queued == 0) return -1;
    if (curr_on_rq(rq)) update_curr(rq);
    bool retry = false;
    const int se = pick_next_entity(rq, retry);
    if (se >= 0) return se;
    if (!retry) return -1;
  }
  EEVDF_UNREACHABLE("pick_task_fair did not converge: each retry removes one delayed entity");
}

// §8.2 check_preempt_wakeup_fair(): preempt iff the wakee is what EEVDF picks now.
template <bool Simd>
void FastMachine<Simd>::check_preempt_wakeup_fair(Runqueue& rq, int p, unsigned wake_flags) {
  EEVDF_ASSERT(rq.curr >= 0, "the fair hook runs only under a fair curr");
  const int se = rq.curr;
  if (se == p) return;
  const bool buddy_ok = !se_[idx(p)].sched_delayed || cfg_.injected(Injection::buddy_accepts_delayed);
  if (cfg_.feat(Feature::NEXT_BUDDY) && (wake_flags & WF_FORK) == 0 && buddy_ok) {
    if (se_[idx(p)].on_rq) rq.next = p;  // else the kernel warns and sets no buddy (set_next_buddy)
  }
  if (rq.need_resched) return;
  if (!cfg_.feat(Feature::WAKEUP_PREEMPTION)) return;
  update_curr(rq);
  wakeup_preempt_pick(rq, se, p);
}

// §8.2 steps 7-10: preempt iff the wakee is what EEVDF picks now, curr's protection
// honoured unless the wakee asks for a shorter slice (PREEMPT_SHORT).
template <bool Simd>
void FastMachine<Simd>::wakeup_preempt_pick(Runqueue& rq, int se, int pse) {
  const bool do_preempt_short = cfg_.feat(Feature::PREEMPT_SHORT) && se_[idx(pse)].slice < se_[idx(se)].slice;
  if (pick_eevdf(rq, !do_preempt_short, true) == pse) {
    if (do_preempt_short) cancel_protect_slice(rq, se);
    resched_curr(rq);
    return;
  }
  if (run_to_parity_ && do_preempt_short && !cfg_.injected(Injection::parity_ignores_min_slice))
    update_protect_slice(rq, se);
}

// §12 yield_task_fair(): an eligible curr forfeits the rest of its request.
template <bool Simd>
void FastMachine<Simd>::yield_task_fair(Runqueue& rq) {
  EEVDF_ASSERT(rq.curr >= 0, "yield of an idle CPU");
  if (rq.nr_running == 1) return;
  const int se = rq.curr;
  clear_buddies(rq, se);
  update_curr(rq);
  if (entity_eligible(rq, se)) {
    Entity& e = se_[idx(se)];
    e.vruntime = e.deadline;
    e.deadline = e.deadline + calc_delta_fair(rq, e.slice, se);
    update_min_vruntime(rq);
  }
}

// §7.3 set_protect_slice(): protect a newly picked curr for min(own slice, the
// shortest other queued slice) of its own service, at most up to its deadline.
template <bool Simd>
void FastMachine<Simd>::set_protect_slice(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  u64 slice = cfg_.normalized_base_slice;
  u64 vprot = e.deadline;
  if (run_to_parity_) {
    slice = cfs_rq_min_slice(rq);
    if (cfg_.injected(Injection::parity_ignores_min_slice)) slice = e.slice;
  }
  slice = std::min(slice, e.slice);
  if (slice != e.slice) {
    const u64 end = e.vruntime + calc_delta_fair(rq, slice, se);
    vprot = wrap_diff(end, vprot) < 0 ? end : vprot;
  }
  e.vprot = vprot;
}

// §7.3 update_protect_slice(): shrink curr's protection to the shortest queued slice.
template <bool Simd>
void FastMachine<Simd>::update_protect_slice(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  const u64 end = e.vruntime + calc_delta_fair(rq, cfs_rq_min_slice(rq), se);
  e.vprot = wrap_diff(end, e.vprot) < 0 ? end : e.vprot;
}

// §7.3 protect_slice(): (s64)(vprot - vruntime) > 0.
template <bool Simd>
bool FastMachine<Simd>::protect_slice(const Runqueue&, int se) const {
  return wrap_diff(se_[idx(se)].vprot, se_[idx(se)].vruntime) > 0;
}

// §7.3 cancel_protect_slice().
template <bool Simd>
void FastMachine<Simd>::cancel_protect_slice(Runqueue& rq, int se) {
  if (protect_slice(rq, se)) se_[idx(se)].vprot = se_[idx(se)].vruntime;
}

}  // namespace eevdf::model::fast
