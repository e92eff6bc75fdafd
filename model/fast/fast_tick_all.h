// update_curr across CPUs for `tick all` (docs/MODEL.md §5.1, §1.3, §4.3): the
// busy CPUs' curr fields gathered into lanes, the common case of update_curr
// computed lane by lane, scattered back by the caller (fast_tick_all-inl.h). Twice,
// like fast_scan.h: scalar, and with 4 x 64-bit lanes (GCC vector extensions; AVX2
// where the translation unit enables it).
//
// A lane's common case is update_curr with no overflow report possible before the
// deadline renewal: the charge fits u64, the new key fits s64, and the re-base of
// v0 provably fits (W < 2^31, 0 < d < 2^32). Any other lane is left untouched for the
// scalar update_curr, which reports exactly as the reference does.
#pragma once

#include <cstdint>  // INT64_MAX
#if defined(EEVDF_FAST_AVX2_CODE)
#include <immintrin.h>  // _mm256_mul_epu32
#endif

#include "model/fast/fast_state.h"
#include "model/fast/fast_vec.h"
#include "model/kernel_int.h"  // u128

namespace eevdf::model::fast {

// Up to kMax busy CPUs of one chunk, structure of arrays. The inputs are update_curr's
// reads; vruntime, sum_exec_runtime, min_vruntime and avg_vruntime are overwritten
// with their new values, and `status` says what the caller still has to do.
struct TickLanes {
  static constexpr int kLanes = 4;  // 4 x 64 bits: one AVX2 register
  // CPUs per chunk: large enough that the vector loads come long after the gather's
  // scalar stores (no store-forwarding stall), small enough for the stack (4 KiB).
  static constexpr int kMax = 32;
  // status bits of a lane
  static constexpr u64 kCharged = 1;  // now > exec_start: update_curr does something
  static constexpr u64 kCommon = 2;   // ... and the lane's results below are update_curr's
  static constexpr u64 kRenew = 4;    // the new vruntime reached the deadline (update_deadline)
  static constexpr u64 kResched = 8;  // resched_curr + clear_buddies (§5.1 step 6)

  int n = 0;                 // lanes in use; [n, padded) are filled as uncharged
  int cpu[kMax];             // the CPU of each lane (written before read)
  alignas(32) u64 exec_start[kMax];
  alignas(32) u64 sum_exec_runtime[kMax];
  alignas(32) u64 vruntime[kMax];
  alignas(32) u64 deadline[kMax];
  alignas(32) u64 vprot[kMax];
  // calc_delta_fair of curr's nice as fact | shift << 32 (fact < 2^32, shift 0..32;
  // nice 0: 2^31 and 31, the identity)
  alignas(32) u64 factor[kMax];
  alignas(32) u64 min_vruntime[kMax];
  alignas(32) u64 tree_min[kMax];   // the tree's smallest vruntime, when has_tree
  alignas(32) u64 has_tree[kMax];   // ~0: the tree is not empty, 0: it is
  alignas(32) u64 avg_load[kMax];
  alignas(32) u64 avg_vruntime[kMax];  // S as the kernel's s64, bit for bit
  alignas(32) u64 not_alone[kMax];  // ~0: nr_queued != 1
  alignas(32) u64 status[kMax];

  // No member functions: an inline member would be compiled into both builds of the
  // fast model, for two instruction sets, under one symbol (pad and padded below).
};

inline namespace EEVDF_FAST_ISA {  // fast_vec.h: one copy per instruction set

// The lanes in use rounded up to whole vectors.
inline int padded(const TickLanes& l) { return (l.n + TickLanes::kLanes - 1) / TickLanes::kLanes * TickLanes::kLanes; }

// Pads [n, padded) with lanes that charge nothing.
inline void pad(TickLanes& l, u64 now) {
  for (int k = l.n; k % TickLanes::kLanes != 0; ++k) {
    const auto i = static_cast<std::size_t>(k);
    l.exec_start[i] = now;
    l.sum_exec_runtime[i] = l.vruntime[i] = l.deadline[i] = l.vprot[i] = l.factor[i] = 0;
    l.min_vruntime[i] = l.tree_min[i] = l.has_tree[i] = l.avg_load[i] = l.avg_vruntime[i] = l.not_alone[i] = 0;
  }
}

namespace detail {

// One lane: §5.1 steps 1-4 and 6's test, without side effects beyond the lane.
inline void update_curr_lane(TickLanes& l, std::size_t k, u64 now) {
  constexpr u64 kLow32 = 0xffff'ffffu;
  const bool charged = now > l.exec_start[k];
  const u64 delta_exec = now - l.exec_start[k];
  // §1.3 calc_delta_fair = floor(delta * fact / 2^shift), the product in 128 bits.
  const u128 charge = (u128{delta_exec} * (l.factor[k] & kLow32)) >> (l.factor[k] >> 32);
  const u64 vdelta = static_cast<u64>(charge);
  const bool charge_overflows = (charge >> 64) != 0;
  // no_overflow's key = v - v0: the new key, old key + vdelta, must fit s64.
  const s64 old_key = static_cast<s64>(l.vruntime[k] - l.min_vruntime[k]);
  const s64 new_key = static_cast<s64>(static_cast<u64>(old_key) + vdelta);
  const bool key_overflows = vdelta > static_cast<u64>(INT64_MAX) || new_key < old_key;
  const u64 vruntime = l.vruntime[k] + vdelta;
  const bool renew = static_cast<s64>(vruntime - l.deadline[k]) >= 0;  // §5.2
  // §4.3 update_min_vruntime with curr on_rq.
  const u64 tree_min = l.tree_min[k];
  const u64 target = l.has_tree[k] != 0 && static_cast<s64>(tree_min - vruntime) < 0 ? tree_min : vruntime;
  const s64 d = static_cast<s64>(target - l.min_vruntime[k]);
  const bool moves = d > 0;
  const bool small = (l.avg_load[k] >> 31) == 0 && (static_cast<u64>(d) >> 32) == 0;  // product < 2^63
  const u64 shift_by = (l.avg_load[k] & kLow32) * (static_cast<u64>(d) & kLow32);  // exact where `small`
  const u64 avg = l.avg_vruntime[k], rebased = avg - shift_by;
  const bool sub_overflows = static_cast<s64>((avg ^ shift_by) & (avg ^ rebased)) < 0;
  const bool rebase_ok = !moves || (small && !sub_overflows);
  const bool resched = l.not_alone[k] != 0 && (renew || static_cast<s64>(l.vprot[k] - vruntime) <= 0);
  const bool common = charged && !charge_overflows && !key_overflows && rebase_ok;
  l.status[k] = (charged ? TickLanes::kCharged : 0) | (common ? TickLanes::kCommon : 0) |
                (renew ? TickLanes::kRenew : 0) | (resched ? TickLanes::kResched : 0);
  l.sum_exec_runtime[k] += delta_exec;
  l.vruntime[k] = vruntime;
  l.min_vruntime[k] = moves ? target : l.min_vruntime[k];
  l.avg_vruntime[k] = moves ? rebased : avg;
}

inline void update_curr_lanes_scalar(TickLanes& l, u64 now) {
  for (int k = 0; k < padded(l); ++k) update_curr_lane(l, static_cast<std::size_t>(k), now);
}

#if defined(EEVDF_FAST_AVX2_CODE)
using vec::v4s;
using vec::v4u;
inline v4u splat4(u64 x) { return vec::splat(x); }  // unambiguous for integer literals
inline v4u as_u(v4s m) { return reinterpret_cast<v4u>(m); }
inline v4s as_s(v4u m) { return reinterpret_cast<v4s>(m); }
inline v4u choose(v4u mask, v4u a, v4u b) { return (mask & a) | (~mask & b); }
// The low 32 bits of each lane times the low 32 bits of the other's, as 64 bits: one
// vpmuludq (GCC does not find it in `(a & m) * (b & m)` and emulates a 64 x 64 product).
inline v4u mul_low32(v4u a, v4u b) {
  return reinterpret_cast<v4u>(_mm256_mul_epu32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b)));
}

// update_curr_lane on four lanes at once; masks are 0 / ~0 per lane.
inline void update_curr_lanes4(TickLanes& l, std::size_t k, v4u now) {
  const v4u zero = splat4(0), one = splat4(1);
  const v4u exec_start = vec::load4(&l.exec_start[k]), fact = vec::load4(&l.factor[k]), sh = fact >> 32;
  const v4u charged = as_u(now > exec_start);  // unsigned comparison
  const v4u delta_exec = now - exec_start;
  // §1.3 calc_delta_fair: the 96-bit product delta * fact as (top, low), two 32 x 32 bits
  const v4u lo = mul_low32(delta_exec, fact);
  const v4u hi = mul_low32(delta_exec >> 32, fact);
  const v4u low = lo + (hi << 32);
  const v4u top = (hi >> 32) + (as_u(low < lo) & one);
  const v4u vdelta = (low >> sh) | ((top << 1) << (splat4(63) - sh));
  const v4u charge_overflows = as_u((top >> sh) != zero);
  const v4u vruntime0 = vec::load4(&l.vruntime[k]), v0 = vec::load4(&l.min_vruntime[k]);
  const v4s old_key = as_s(vruntime0 - v0);
  const v4s new_key = as_s(as_u(old_key) + vdelta);
  const v4u key_overflows = as_u(as_s(vdelta) < as_s(zero)) | as_u(new_key < old_key);
  const v4u vruntime = vruntime0 + vdelta;
  const v4u renew = as_u(as_s(vruntime - vec::load4(&l.deadline[k])) >= as_s(zero));
  const v4u tree_min = vec::load4(&l.tree_min[k]);
  const v4u tree_first = vec::load4(&l.has_tree[k]) & as_u(as_s(tree_min - vruntime) < as_s(zero));
  const v4u target = choose(tree_first, tree_min, vruntime);
  const v4u d = target - v0;
  const v4u moves = as_u(as_s(d) > as_s(zero));
  const v4u load = vec::load4(&l.avg_load[k]);
  const v4u small = as_u(((load >> 31) | (d >> 32)) == zero);
  const v4u shift_by = mul_low32(load, d);  // exact where `small`
  const v4u avg = vec::load4(&l.avg_vruntime[k]), rebased = avg - shift_by;
  const v4u sub_overflows = as_u(as_s((avg ^ shift_by) & (avg ^ rebased)) < as_s(zero));
  const v4u rebase_ok = ~moves | (small & ~sub_overflows);
  const v4u protect_over = as_u(as_s(vec::load4(&l.vprot[k]) - vruntime) <= as_s(zero));
  const v4u resched = vec::load4(&l.not_alone[k]) & (renew | protect_over);
  const v4u common = charged & ~charge_overflows & ~key_overflows & rebase_ok;
  vec::store4(&l.status[k], (charged & splat4(TickLanes::kCharged)) | (common & splat4(TickLanes::kCommon)) |
                             (renew & splat4(TickLanes::kRenew)) | (resched & splat4(TickLanes::kResched)));
  vec::store4(&l.sum_exec_runtime[k], vec::load4(&l.sum_exec_runtime[k]) + delta_exec);
  vec::store4(&l.vruntime[k], vruntime);
  vec::store4(&l.min_vruntime[k], choose(moves, target, v0));
  vec::store4(&l.avg_vruntime[k], choose(moves, rebased, avg));
}

inline void update_curr_lanes_simd(TickLanes& l, u64 now) {
  const v4u nows = splat4(now);
  for (int k = 0; k < padded(l); k += TickLanes::kLanes) update_curr_lanes4(l, static_cast<std::size_t>(k), nows);
}
#endif  // EEVDF_FAST_AVX2_CODE

}  // namespace detail

// §5.1 update_curr's common case on every lane of `l` (padded first).
template <bool Simd>
void update_curr_lanes(TickLanes& l, u64 now) {
  pad(l, now);
  if constexpr (Simd) {
#if defined(EEVDF_FAST_AVX2_CODE)
    detail::update_curr_lanes_simd(l, now);
#else  // built without AVX2: the SIMD build runs the scalar lanes
    detail::update_curr_lanes_scalar(l, now);
#endif
  } else {
    detail::update_curr_lanes_scalar(l, now);
  }
}

}  // inline namespace EEVDF_FAST_ISA
}  // namespace eevdf::model::fast
