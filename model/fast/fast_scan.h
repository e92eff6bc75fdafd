// The scans over a runqueue's lanes (fast_state.h): the pick's eligibility test and
// earliest-deadline reduction (EEVDF_MODEL.md §7.1), the tree's minimum vruntime
// (§4.3) and minimum slice (§3.3). Each exists twice: scalar, and with 4 x 64-bit
// lanes (GCC vector extensions; AVX2 where the translation unit enables it).
//
// Virtual times are compared as offsets from v0, (s64)(x - v0): while no key
// overflows (which the checked arithmetic reports), this is the order of the
// reference's unwrapped values, and it is the kernel's wrap-aware comparison.
#pragma once

#include <cstdint>  // INT64_MAX

#include "model/fast/fast_state.h"

namespace eevdf::model::fast {

// The pick over the lanes: among lanes with key <= thr (eligible), the one with the
// smallest (deadline - v0, insertion sequence); with the smallest and largest key, so
// that the caller can tell whether key * load overflows for some lane, where the
// threshold form of the eligibility test stops being the kernel's (it then takes the
// exact path). Two multiplications after the scan instead of two divisions before.
struct ScanResult {
  int slot = -1;  // -1: nothing eligible
  s64 key_min = INT64_MAX;
  s64 key_max = INT64_MIN;
};

namespace detail {

#if defined(__AVX2__)  // vector signatures change the ABI: only where AVX2 is on
typedef s64 v4s __attribute__((vector_size(32)));
typedef u64 v4u __attribute__((vector_size(32)));

inline v4u load4(const u64* p) {
  v4u v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline v4s splat(s64 x) { return v4s{x, x, x, x}; }
inline v4u splat(u64 x) { return v4u{x, x, x, x}; }
inline v4s select(v4s mask, v4s a, v4s b) { return (mask & a) | (~mask & b); }

inline ScanResult scan_pick_simd(const Lanes& l, u64 v0, s64 thr) {
  const v4u v0s = splat(v0);
  const v4s thrs = splat(thr), n = splat(s64{l.n});
  v4s best_rd = splat(INT64_MAX), best_seq = splat(INT64_MAX), best_slot = splat(s64{-1});
  v4s kmin = splat(INT64_MAX), kmax = splat(INT64_MIN);
  v4s idx = v4s{0, 1, 2, 3};
  for (int i = 0; i < l.n; i += Lanes::kLanes) {
    const v4s valid = idx < n;
    const v4s key = reinterpret_cast<v4s>(load4(&l.vruntime[static_cast<std::size_t>(i)]) - v0s);
    kmin = select(valid & (key < kmin), key, kmin);
    kmax = select(valid & (key > kmax), key, kmax);
    const v4s eligible = (key <= thrs) & valid;
    const v4s rd = reinterpret_cast<v4s>(load4(&l.deadline[static_cast<std::size_t>(i)]) - v0s);
    const v4s seq = reinterpret_cast<v4s>(load4(&l.seq[static_cast<std::size_t>(i)]));
    const v4s better = eligible & ((rd < best_rd) | ((rd == best_rd) & (seq < best_seq)));
    best_rd = select(better, rd, best_rd);
    best_seq = select(better, seq, best_seq);
    best_slot = select(better, idx, best_slot);
    idx += Lanes::kLanes;
  }
  ScanResult r;
  for (int k = 0; k < Lanes::kLanes; ++k) {
    r.key_min = kmin[k] < r.key_min ? kmin[k] : r.key_min;
    r.key_max = kmax[k] > r.key_max ? kmax[k] : r.key_max;
  }
  s64 rd = INT64_MAX, seq = INT64_MAX;
  for (int k = 0; k < Lanes::kLanes; ++k) {
    if (best_slot[k] < 0) continue;
    if (r.slot < 0 || best_rd[k] < rd || (best_rd[k] == rd && best_seq[k] < seq)) {
      r.slot = static_cast<int>(best_slot[k]);
      rd = best_rd[k];
      seq = best_seq[k];
    }
  }
  return r;
}

#endif  // __AVX2__

inline ScanResult scan_pick_scalar(const Lanes& l, u64 v0, s64 thr) {
  ScanResult r;
  s64 best_rd = INT64_MAX;
  u64 best_seq = 0;
  for (int i = 0; i < l.n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const s64 key = static_cast<s64>(l.vruntime[k] - v0);
    r.key_min = key < r.key_min ? key : r.key_min;
    r.key_max = key > r.key_max ? key : r.key_max;
    if (key > thr) continue;
    const s64 rd = static_cast<s64>(l.deadline[k] - v0);
    if (r.slot < 0 || rd < best_rd || (rd == best_rd && l.seq[k] < best_seq)) {
      r.slot = i;
      best_rd = rd;
      best_seq = l.seq[k];
    }
  }
  return r;
}

#if defined(__AVX2__)
inline s64 min_key_simd(const Lanes& l, u64 v0) {
  const v4u v0s = splat(v0);
  const v4s n = splat(s64{l.n});
  v4s best = splat(INT64_MAX);
  v4s idx = v4s{0, 1, 2, 3};
  for (int i = 0; i < l.n; i += Lanes::kLanes) {
    const v4s key = reinterpret_cast<v4s>(load4(&l.vruntime[static_cast<std::size_t>(i)]) - v0s);
    best = select((idx < n) & (key < best), key, best);
    idx += Lanes::kLanes;
  }
  s64 m = best[0];
  for (int k = 1; k < Lanes::kLanes; ++k) m = best[k] < m ? best[k] : m;
  return m;
}

#endif  // __AVX2__

inline s64 min_key_scalar(const Lanes& l, u64 v0) {
  s64 m = INT64_MAX;
  for (int i = 0; i < l.n; ++i) {
    const s64 key = static_cast<s64>(l.vruntime[static_cast<std::size_t>(i)] - v0);
    if (key < m) m = key;
  }
  return m;
}

}  // namespace detail

template <bool Simd>
ScanResult scan_pick(const Lanes& l, u64 v0, s64 thr) {
#if defined(__AVX2__)
  if constexpr (Simd) return detail::scan_pick_simd(l, v0, thr);
#else
  static_assert(!Simd, "the SIMD build needs AVX2 (fast_simd.cpp is compiled with -mavx2)");
#endif
  return detail::scan_pick_scalar(l, v0, thr);
}

// §4.3 the tree's smallest vruntime, as an offset from v0 (INT64_MAX when empty).
template <bool Simd>
s64 min_key(const Lanes& l, u64 v0) {
#if defined(__AVX2__)
  if constexpr (Simd) return detail::min_key_simd(l, v0);
#else
  static_assert(!Simd, "the SIMD build needs AVX2");
#endif
  return detail::min_key_scalar(l, v0);
}

// §3.3 the tree's smallest slice (~0 when empty); rare (set_next_entity), so scalar.
inline u64 min_slice(const Lanes& l) {
  u64 m = ~u64{0};
  for (int i = 0; i < l.n; ++i) m = l.slice[static_cast<std::size_t>(i)] < m ? l.slice[static_cast<std::size_t>(i)] : m;
  return m;
}

}  // namespace eevdf::model::fast
