// The scans over a runqueue's lanes (fast_state.h), which are kept sorted in the
// tree's order, (deadline, insertion): the pick's first eligible lane (EEVDF_MODEL.md
// §7.1), the insertion position (§3.3), the lane of an entity, and the smallest and
// largest vruntime (§4.3). Each exists twice: scalar, and with 4 x 64-bit lanes (GCC
// vector extensions and AVX2 intrinsics where the translation unit enables AVX2).
//
// Virtual times are compared as offsets from v0, (s64)(x - v0): while no key
// overflows (which the checked arithmetic reports), this is the order of the
// reference's unwrapped values, and it is the kernel's wrap-aware comparison.
#pragma once

#include <cstdint>  // INT64_MAX

#if defined(__AVX2__)
#include <immintrin.h>  // movemask: a 4-lane compare as 4 bits
#endif

#include "model/fast/fast_state.h"

namespace eevdf::model::fast {

// The smallest and largest key (vruntime - v0) in the lanes.
struct KeyRange {
  s64 min = INT64_MAX;
  s64 max = INT64_MIN;
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
// Bit k set where lane k of `mask` is all ones.
inline unsigned bits_of(v4s mask) {
  return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(reinterpret_cast<__m256i>(mask))));
}
// The lanes of the block starting at i that hold entities (n is the lane count).
inline unsigned valid_bits(int i, int n) { return n - i >= 4 ? 0xfu : (1u << (n - i)) - 1; }

// The first lane at or after which `hit(block)` has a bit set, or n.
template <class Hit>
int first_hit(int n, Hit hit) {
  for (int i = 0; i < n; i += Lanes::kLanes) {
    const unsigned bits = hit(i) & valid_bits(i, n);
    if (bits != 0) return i + __builtin_ctz(bits);
  }
  return n;
}

inline int first_eligible_simd(const Lanes& l, u64 v0, s64 thr) {
  const v4u v0s = splat(v0);
  const v4s thrs = splat(thr);
  return first_hit(l.n, [&](int i) {
    const v4s key = reinterpret_cast<v4s>(load4(&l.vruntime[static_cast<std::size_t>(i)]) - v0s);
    return bits_of(key <= thrs);
  });
}

inline int insert_position_simd(const Lanes& l, u64 v0, s64 rd) {
  const v4u v0s = splat(v0);
  const v4s rds = splat(rd);
  return first_hit(l.n, [&](int i) {
    const v4s d = reinterpret_cast<v4s>(load4(&l.deadline[static_cast<std::size_t>(i)]) - v0s);
    return bits_of(d > rds);
  });
}

inline int find_seq_simd(const Lanes& l, u64 seq) {
  const v4u seqs = splat(seq);
  return first_hit(l.n, [&](int i) {
    return bits_of(reinterpret_cast<v4s>(load4(&l.seq[static_cast<std::size_t>(i)]) == seqs));
  });
}

inline KeyRange key_range_simd(const Lanes& l, u64 v0) {
  const v4u v0s = splat(v0);
  const v4s n = splat(s64{l.n});
  v4s kmin = splat(INT64_MAX), kmax = splat(INT64_MIN);
  v4s idx = v4s{0, 1, 2, 3};
  for (int i = 0; i < l.n; i += Lanes::kLanes) {
    const v4s valid = idx < n;
    const v4s key = reinterpret_cast<v4s>(load4(&l.vruntime[static_cast<std::size_t>(i)]) - v0s);
    kmin = select(valid & (key < kmin), key, kmin);
    kmax = select(valid & (key > kmax), key, kmax);
    idx += Lanes::kLanes;
  }
  KeyRange r;
  for (int k = 0; k < Lanes::kLanes; ++k) {
    r.min = kmin[k] < r.min ? kmin[k] : r.min;
    r.max = kmax[k] > r.max ? kmax[k] : r.max;
  }
  return r;
}

#endif  // __AVX2__

inline int first_eligible_scalar(const Lanes& l, u64 v0, s64 thr) {
  int i = 0;
  while (i < l.n && static_cast<s64>(l.vruntime[static_cast<std::size_t>(i)] - v0) > thr) ++i;
  return i;
}

inline int insert_position_scalar(const Lanes& l, u64 v0, s64 rd) {
  int i = 0;
  while (i < l.n && static_cast<s64>(l.deadline[static_cast<std::size_t>(i)] - v0) <= rd) ++i;
  return i;
}

inline int find_seq_scalar(const Lanes& l, u64 seq) {
  int i = 0;
  while (i < l.n && l.seq[static_cast<std::size_t>(i)] != seq) ++i;
  return i;
}

inline KeyRange key_range_scalar(const Lanes& l, u64 v0) {
  KeyRange r;
  for (int i = 0; i < l.n; ++i) {
    const s64 key = static_cast<s64>(l.vruntime[static_cast<std::size_t>(i)] - v0);
    r.min = key < r.min ? key : r.min;
    r.max = key > r.max ? key : r.max;
  }
  return r;
}

}  // namespace detail

#if defined(__AVX2__)
#define EEVDF_FAST_SCAN(name, ...) \
  if constexpr (Simd) return detail::name##_simd(__VA_ARGS__); \
  return detail::name##_scalar(__VA_ARGS__)
#else
#define EEVDF_FAST_SCAN(name, ...) \
  static_assert(!Simd, "the SIMD build needs AVX2 (fast_simd.cpp is compiled with -mavx2)"); \
  return detail::name##_scalar(__VA_ARGS__)
#endif

// §7.1 the first lane in tree order whose key is at most `thr` (eligible, in the
// threshold form), or l.n when none is.
template <bool Simd>
int first_eligible(const Lanes& l, u64 v0, s64 thr) { EEVDF_FAST_SCAN(first_eligible, l, v0, thr); }

// §3.3 where an entity with deadline offset `rd` goes: after every lane with a
// deadline offset at most `rd` (an equal deadline inserted earlier comes first).
template <bool Simd>
int insert_position(const Lanes& l, u64 v0, s64 rd) { EEVDF_FAST_SCAN(insert_position, l, v0, rd); }

// The lane holding insertion sequence `seq` (sequences are unique), or l.n.
template <bool Simd>
int find_seq(const Lanes& l, u64 seq) { EEVDF_FAST_SCAN(find_seq, l, seq); }

// §4.3 the smallest and largest key in the lanes.
template <bool Simd>
KeyRange key_range(const Lanes& l, u64 v0) { EEVDF_FAST_SCAN(key_range, l, v0); }

#undef EEVDF_FAST_SCAN

// §3.3 the tree's smallest slice and how many lanes hold it; rare, so scalar.
inline void min_slice(const Lanes& l, u64& slice_min, unsigned& holders) {
  slice_min = ~u64{0};
  holders = 0;
  for (int i = 0; i < l.n; ++i) {
    const u64 s = l.slice[static_cast<std::size_t>(i)];
    if (s < slice_min) {
      slice_min = s;
      holders = 0;
    }
    holders += s == slice_min ? 1u : 0u;
  }
}

}  // namespace eevdf::model::fast
