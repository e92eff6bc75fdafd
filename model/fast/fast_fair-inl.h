// fair.c, part 1, in the fast model: keys, the sums behind V, eligibility, v0 and
// the lanes (docs/MODEL.md §3.3, §4). Mirrors model/fair-inl.h and the 6.18
// profile function by function. Included by the instantiating .cpp files only.
#pragma once

#include <algorithm>  // std::min

#include "base/assert.h"
#include "model/fast/fast_machine.h"
#include "model/fast/fast_scan.h"

namespace eevdf::model::fast {

// §4.1/§4.2 the sums with an on_rq curr added: S + key_curr*w_curr, W + w_curr.
template <bool Simd>
void FastMachine<Simd>::curr_in_sums(const Runqueue& rq, s64& avg, u64& load, const char* key_w, const char* sum) const {
  avg = rq.avg_vruntime;
  load = rq.avg_load;
  if (!curr_on_rq(rq)) return;
  const u64 w = weight_of(se_[idx(rq.cfs_curr)].nice);
  avg = checked_add(avg, checked_mul(entity_key(rq, rq.cfs_curr), static_cast<s64>(w), rq, key_w), rq, sum);
  load += w;
}

// §4.2 vruntime_eligible(): S >= (v - v0) * W, without division.
template <bool Simd>
bool FastMachine<Simd>::vruntime_eligible(const Runqueue& rq, u64 vruntime) const {
  s64 avg = 0;
  u64 load = 0;
  curr_in_sums(rq, avg, load, "key*w of curr in vruntime_eligible", "sum of key*w in vruntime_eligible");
  const s64 key = wrap_diff(vruntime, rq.min_vruntime);
  return avg >= checked_mul(key, as_s64(load, rq, "W as s64"), rq, "key*W in vruntime_eligible");
}

// §4.1 avg_vruntime() - v0: floor(S / W), curr included when on_rq.
template <bool Simd>
s64 FastMachine<Simd>::avg_vruntime_offset(const Runqueue& rq) const {
  s64 avg = 0;
  u64 load = 0;
  curr_in_sums(rq, avg, load, "key*w of curr in avg_vruntime", "sum of key*w in avg_vruntime");
  return load != 0 ? floor_div(avg, load, rq) : avg;
}

// §3.3 avg_vruntime_add(): S += key*w, W += w.
template <bool Simd>
void FastMachine<Simd>::avg_vruntime_add(Runqueue& rq, int se) {
  const u64 w = weight_of(se_[idx(se)].nice);
  const s64 kw = checked_mul(entity_key(rq, se), static_cast<s64>(w), rq, "key*w in avg_vruntime_add");
  rq.avg_vruntime = checked_add(rq.avg_vruntime, kw, rq, "sum of key*w in avg_vruntime_add");
  rq.avg_load += w;
}

// §3.3 avg_vruntime_sub(): S -= key*w, W -= w.
template <bool Simd>
void FastMachine<Simd>::avg_vruntime_sub(Runqueue& rq, int se) {
  const u64 w = weight_of(se_[idx(se)].nice);
  const s64 kw = checked_mul(entity_key(rq, se), static_cast<s64>(w), rq, "key*w in avg_vruntime_sub");
  rq.avg_vruntime = checked_sub(rq.avg_vruntime, kw, rq, "sum of key*w in avg_vruntime_sub");
  EEVDF_ASSERT(rq.avg_load >= w, "avg_load underflow");
  rq.avg_load -= w;
}

// The cached smallest and largest vruntime of the lanes, rescanned once invalidated.
template <bool Simd>
const Lanes& FastMachine<Simd>::vruntime_range(Runqueue& rq) {
  Lanes& l = rq.lanes;
  if (!l.vruntime_range_valid) {
    const KeyRange r = key_range<Simd>(l, rq.min_vruntime);
    l.vruntime_min = wrap_add(rq.min_vruntime, r.min);
    l.vruntime_max = wrap_add(rq.min_vruntime, r.max);
    l.vruntime_range_valid = true;
  }
  return l;
}

// §4.3 update_min_vruntime(): v0 moves forward to min(curr, the tree's leftmost
// vruntime); S is re-based exactly.
template <bool Simd>
void FastMachine<Simd>::update_min_vruntime(Runqueue& rq) {
  const bool curr = curr_on_rq(rq);
  u64 vruntime = curr ? se_[idx(rq.cfs_curr)].vruntime : rq.min_vruntime;
  if (rq.lanes.n > 0) {
    const u64 tree_min = vruntime_range(rq).vruntime_min;
    vruntime = !curr || wrap_diff(tree_min, vruntime) < 0 ? tree_min : vruntime;
  }
  const s64 delta = wrap_diff(vruntime, rq.min_vruntime);
  if (delta <= 0) return;
  const s64 shift = checked_mul(as_s64(rq.avg_load, rq, "W as s64"), delta, rq, "avg_load*d in avg_vruntime_update");
  rq.avg_vruntime = checked_sub(rq.avg_vruntime, shift, rq, "avg_vruntime re-base");
  rq.min_vruntime = vruntime;
}

// §3.3 cfs_rq_min_slice(): the smallest slice among an on_rq curr and the tree.
template <bool Simd>
u64 FastMachine<Simd>::cfs_rq_min_slice(const Runqueue& rq) const {
  const u64 curr = curr_on_rq(rq) ? se_[idx(rq.cfs_curr)].slice : ~u64{0};
  const Lanes& l = rq.lanes;
  if (l.n == 0) return curr;
  if (!l.slice_min_valid) {  // rescan, counting the holders
    l.slice_min = ~u64{0};
    l.slice_min_holders = 0;
    for (int i = 0; i < l.n; ++i) {
      const u64 slice = se_[idx(l.task()[i])].slice;
      if (slice < l.slice_min) {
        l.slice_min = slice;
        l.slice_min_holders = 0;
      }
      l.slice_min_holders += slice == l.slice_min ? 1u : 0u;
    }
    l.slice_min_valid = true;
  }
  return std::min(curr, l.slice_min);
}

// Moves the lanes to the middle of their buffers, with room for n/2 + kPad more on
// each side, in place while the buffers are big enough (they only grow). A template
// so that each build has its own copy (see EEVDF_FAST_SCAN in fast_scan.h).
template <bool Simd>
void recenter(Lanes& l) {
  const auto size = static_cast<std::size_t>(2 * l.n + 4 * Lanes::kPad);
  const int first = l.n / 2 + Lanes::kPad;
  if (l.vruntime_buf.size() < size) {
    l.vruntime_buf.resize(size);
    l.deadline_buf.resize(size);
    l.task_buf.resize(size, -1);
  }
  const auto move = [&](auto& buf) {
    const auto from = buf.begin() + l.first, to = buf.begin() + first;
    if (first < l.first) std::copy(from, from + l.n, to);
    else std::copy_backward(from, from + l.n, to + l.n);
  };
  move(l.vruntime_buf);
  move(l.deadline_buf);
  move(l.task_buf);
  l.first = first;
}

// §3.3 __enqueue_entity(): into the sums and the lanes, after every lane with an
// earlier deadline or the same deadline and an earlier insertion.
template <bool Simd>
void FastMachine<Simd>::enqueue_entity_tree(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  EEVDF_ASSERT(!e.in_tree, "entity already in the tree");
  avg_vruntime_add(rq, se);
  Lanes& l = rq.lanes;
  const int k = insert_position<Simd>(l, rq.min_vruntime, wrap_diff(e.deadline, rq.min_vruntime));
  const bool room = (k < l.n - k && l.first > 0) || idx(l.first + l.n + 1 + Lanes::kPad) <= l.vruntime_buf.size();
  if (!room) recenter<Simd>(l);
  open_lane<Simd>(l, k);
  l.vruntime()[k] = e.vruntime;
  l.deadline()[k] = e.deadline;
  l.task()[k] = se;
  e.tree_seq = rq.tree_seq_next++;
  if (l.n == 0) {
    l.vruntime_min = l.vruntime_max = e.vruntime;
    l.vruntime_range_valid = true;
  } else if (l.vruntime_range_valid) {
    if (wrap_diff(e.vruntime, l.vruntime_min) < 0) l.vruntime_min = e.vruntime;
    if (wrap_diff(e.vruntime, l.vruntime_max) > 0) l.vruntime_max = e.vruntime;
  }
  if (l.n == 0 || (l.slice_min_valid && e.slice < l.slice_min)) {
    l.slice_min = e.slice;
    l.slice_min_holders = 1;
    l.slice_min_valid = true;
  } else if (l.slice_min_valid && e.slice == l.slice_min) {
    ++l.slice_min_holders;
  }
  ++l.n;
  e.in_tree = true;
}

// §3.3 __dequeue_entity(): the later lanes move down by one.
template <bool Simd>
void FastMachine<Simd>::dequeue_entity_tree(Runqueue& rq, int se) {
  Entity& e = se_[idx(se)];
  Lanes& l = rq.lanes;
  const int k = e.in_tree ? find_lane<Simd>(l, se, rq.min_vruntime, wrap_diff(e.deadline, rq.min_vruntime)) : l.n;
  EEVDF_ASSERT(k < l.n, "entity not in the tree");
  EEVDF_ASSERT(e.vruntime == l.vruntime()[k], "vruntime changed in the tree");
  if (e.vruntime == l.vruntime_min || e.vruntime == l.vruntime_max) l.vruntime_range_valid = false;
  if (l.slice_min_valid && e.slice == l.slice_min && --l.slice_min_holders == 0) l.slice_min_valid = false;
  close_lane<Simd>(l, k);
  --l.n;
  e.in_tree = false;
  avg_vruntime_sub(rq, se);
}

// The lane of an entity in its runqueue's tree, -1 when it is not in the tree.
template <bool Simd>
int FastMachine<Simd>::tree_slot(int p) const {
  const Entity& e = se_[idx(p)];
  if (!e.in_tree) return -1;
  const Lanes& l = rqs_[idx(tasks_[idx(p)].cpu)].lanes;
  const int pos = find_task<Simd>(l, p);
  return pos < l.n ? pos : -1;
}

// §1.3 calc_delta_fair() with this runqueue's overflow report.
template <bool Simd>
u64 FastMachine<Simd>::calc_delta_fair(const Runqueue& rq, u64 delta, int se) const {
  return fast::calc_delta_fair(factors_, delta, se_[idx(se)].nice, rq);
}

// no_overflow's "key = v - v0": absolute times wrap, so the key's overflow is caught
// where a vruntime moves: the new key, old key + increment, must fit s64.
template <bool Simd>
void FastMachine<Simd>::check_key(const Runqueue& rq, s64 old_key, u64 increment) const {
  s64 key = 0;
  if (increment > static_cast<u64>(INT64_MAX) || __builtin_add_overflow(old_key, static_cast<s64>(increment), &key))
    rq.report("key = v - v0");
}

}  // namespace eevdf::model::fast

#include "model/fast/fast_pick-inl.h"
#include "model/fast/fast_queue-inl.h"
