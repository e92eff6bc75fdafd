// The scans over a runqueue's lanes (fast_state.h), which are kept sorted in the
// tree's order, (deadline, insertion): the pick's first eligible lane (docs/MODEL.md
// §7.1), the insertion position and the shift that opens or closes a lane (§3.3), the
// lane of an entity, and the smallest and largest vruntime (§4.3). Each exists twice:
// scalar, and with 4 x 64-bit lanes (GCC vector extensions and AVX2 intrinsics where
// the translation unit enables AVX2).
//
// Virtual times are compared as offsets from v0, (s64)(x - v0): while no key
// overflows (which the checked arithmetic reports), this is the order of the
// reference's unwrapped values, and it is the kernel's wrap-aware comparison.
#pragma once

#include <cstdint>  // INT64_MAX

#if defined(EEVDF_FAST_AVX2_CODE)
#include <immintrin.h>  // movemask: a 4-lane compare as 4 bits
#endif

#include "model/fast/fast_state.h"
#include "model/fast/fast_vec.h"

namespace eevdf::model::fast {
inline namespace EEVDF_FAST_ISA {  // fast_vec.h: one copy per instruction set

// The smallest and largest key (vruntime - v0) in the lanes.
struct KeyRange {
  s64 min = INT64_MAX;
  s64 max = INT64_MIN;
};

namespace detail {

#if defined(EEVDF_FAST_AVX2_CODE)
using vec::load4;
using vec::splat;
using vec::v4s;
using vec::v4u;
inline v4s select(v4s mask, v4s a, v4s b) { return (mask & a) | (~mask & b); }
// Bit k set where lane k of `mask` is all ones.
inline unsigned bits_of(v4s mask) {
  return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(reinterpret_cast<__m256i>(mask))));
}
// The lanes of the block starting at i that hold entities (n is the lane count).
inline unsigned valid_bits(int i, int n) { return n - i >= 4 ? 0xfu : (1u << (n - i)) - 1; }

// The first lane, from lane `from` (a multiple of kLanes) on, where `hit(block)` has
// a bit set, or n.
template <class Hit>
int first_hit(int n, Hit hit, int from = 0) {
  for (int i = from; i < n; i += Lanes::kLanes) {
    const unsigned bits = hit(i) & valid_bits(i, n);
    if (bits != 0) return i + __builtin_ctz(bits);
  }
  return n;
}

inline int first_eligible_simd(const Lanes& l, u64 v0, s64 thr, int from) {
  const v4u v0s = splat(v0);
  const v4s thrs = splat(thr);
  return first_hit(
      l.n,
      [&](int i) {
        const v4s key = reinterpret_cast<v4s>(load4(l.vruntime() + i) - v0s);
        return bits_of(key <= thrs);
      },
      from);
}

inline int insert_position_simd(const Lanes& l, u64 v0, s64 rd) {  // counts: the lanes are sorted
  const v4u v0s = splat(v0);
  const v4s rds = splat(rd);
  int count = 0;
  for (int i = 0; i < l.n; i += Lanes::kLanes) {
    const v4s d = reinterpret_cast<v4s>(load4(l.deadline() + i) - v0s);
    count += __builtin_popcount(bits_of(d <= rds) & valid_bits(i, l.n));
  }
  return count;
}

typedef int v8i __attribute__((vector_size(32)));

inline int find_task_simd(const Lanes& l, int se) {
  const v8i target = v8i{se, se, se, se, se, se, se, se};
  for (int i = 0; i < l.n; i += 8) {
    v8i t;
    __builtin_memcpy(&t, l.task() + i, sizeof t);
    const unsigned valid = l.n - i >= 8 ? 0xffu : (1u << (l.n - i)) - 1;
    const __m256i equal = reinterpret_cast<__m256i>(t == target);
    const unsigned bits = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(equal)));
    if ((bits & valid) != 0) return i + __builtin_ctz(bits & valid);
  }
  return l.n;
}

// a[k+1 .. n] = a[k .. n-1] and back, a vector of 32 bytes at a time from the far
// end, so that every block is read before it is overwritten.
template <class T>
void shift_up_simd(T* a, int k, int n) {
  constexpr int w = static_cast<int>(32 / sizeof(T));
  int j = n;
  for (; j - w >= k; j -= w) {
    v4u v;
    __builtin_memcpy(&v, a + j - w, sizeof v);
    __builtin_memcpy(a + j - w + 1, &v, sizeof v);
  }
  for (; j > k; --j) {
    a[j] = a[j - 1];
    asm("" ::: "memory");  // a short tail: no memmove call (GCC would make this loop one)
  }
}
template <class T>
void shift_down_simd(T* a, int k, int n) {
  constexpr int w = static_cast<int>(32 / sizeof(T));
  int j = k;
  for (; j + w <= n - 1; j += w) {
    v4u v;
    __builtin_memcpy(&v, a + j + 1, sizeof v);
    __builtin_memcpy(a + j, &v, sizeof v);
  }
  for (; j < n - 1; ++j) {
    a[j] = a[j + 1];
    asm("" ::: "memory");  // a short tail: no memmove call
  }
}

inline KeyRange key_range_simd(const Lanes& l, u64 v0) {
  const v4u v0s = splat(v0);
  const v4s n = splat(s64{l.n});
  v4s kmin = splat(INT64_MAX), kmax = splat(INT64_MIN);
  v4s idx = v4s{0, 1, 2, 3};
  for (int i = 0; i < l.n; i += Lanes::kLanes) {
    const v4s valid = idx < n;
    const v4s key = reinterpret_cast<v4s>(load4(l.vruntime() + i) - v0s);
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

#endif  // EEVDF_FAST_AVX2_CODE

inline int first_eligible_scalar(const Lanes& l, u64 v0, s64 thr, int from) {
  int i = from;
  while (i < l.n && static_cast<s64>(l.vruntime()[i] - v0) > thr) ++i;
  return i;
}

inline int insert_position_scalar(const Lanes& l, u64 v0, s64 rd) {  // binary search
  int lo = 0, len = l.n;
  while (len > 0) {
    const int half = len / 2;
    const bool after = static_cast<s64>(l.deadline()[lo + half] - v0) <= rd;
    lo = after ? lo + half + 1 : lo;
    len = after ? len - half - 1 : half;
  }
  return lo;
}

inline int find_task_scalar(const Lanes& l, int se) {
  int i = 0;
  while (i < l.n && l.task()[i] != se) ++i;
  return i;
}

// a[k+1 .. n] = a[k .. n-1] and back, one element at a time (the empty asm keeps GCC
// from turning the short loop into a memmove call, and the scalar build scalar).
template <class T>
void shift_up_scalar(T* a, int k, int n) {
  for (int j = n; j > k; --j) {
    a[j] = a[j - 1];
    asm("" ::: "memory");
  }
}
template <class T>
void shift_down_scalar(T* a, int k, int n) {
  for (int j = k; j < n - 1; ++j) {
    a[j] = a[j + 1];
    asm("" ::: "memory");
  }
}

inline KeyRange key_range_scalar(const Lanes& l, u64 v0) {
  KeyRange r;
  for (int i = 0; i < l.n; ++i) {
    const s64 key = static_cast<s64>(l.vruntime()[i] - v0);
    r.min = key < r.min ? key : r.min;
    r.max = key > r.max ? key : r.max;
  }
  return r;
}

template <bool Simd>
struct shift {  // the scalar shifts
  template <class T>
  static void up(T* a, int k, int n) { shift_up_scalar(a, k, n); }
  template <class T>
  static void down(T* a, int k, int n) { shift_down_scalar(a, k, n); }
};
#if defined(EEVDF_FAST_AVX2_CODE)
template <>
struct shift<true> {
  template <class T>
  static void up(T* a, int k, int n) { shift_up_simd(a, k, n); }
  template <class T>
  static void down(T* a, int k, int n) { shift_down_simd(a, k, n); }
};
#endif  // EEVDF_FAST_AVX2_CODE

// Opens lane k for an insertion (n lanes before): the shorter side moves by one. The
// caller has made room (Lanes::first > 0, or kPad + 1 lanes after the last).
template <bool Simd>
void open_lane(Lanes& l, int k) {
  const bool front = k < l.n - k && l.first > 0;
  if (front) --l.first;
  for (auto* a : {l.vruntime(), l.deadline()}) {
    if (front) shift<Simd>::down(a, 0, k + 1);
    else shift<Simd>::up(a, k, l.n);
  }
  if (front) shift<Simd>::down(l.task(), 0, k + 1);
  else shift<Simd>::up(l.task(), k, l.n);
}

// Closes lane k (n lanes before): the shorter side moves by one.
template <bool Simd>
void close_lane(Lanes& l, int k) {
  const bool front = k < l.n - 1 - k;
  for (auto* a : {l.vruntime(), l.deadline()}) {
    if (front) shift<Simd>::up(a, 0, k);
    else shift<Simd>::down(a, k, l.n);
  }
  if (front) shift<Simd>::up(l.task(), 0, k);
  else shift<Simd>::down(l.task(), k, l.n);
  if (front) ++l.first;
}

}  // namespace detail

// `else`: each build references only its own helpers. The helpers are inline and
// compiled into both translation units with different flags; a build that named the
// other's could link to the copy compiled for the other (vectorized for AVX2).
#if defined(EEVDF_FAST_AVX2_CODE)
#define EEVDF_FAST_SCAN(name, ...) \
  if constexpr (Simd) return detail::name##_simd(__VA_ARGS__); \
  else return detail::name##_scalar(__VA_ARGS__)
#else  // built without AVX2: the SIMD build runs the scalar helpers
#define EEVDF_FAST_SCAN(name, ...) return detail::name##_scalar(__VA_ARGS__)
#endif

// §7.1 the first lane in tree order, from lane `from` (a multiple of kLanes) on, whose
// key is at most `thr` (eligible, in the threshold form), or l.n when none is.
template <bool Simd>
int first_eligible(const Lanes& l, u64 v0, s64 thr, int from) { EEVDF_FAST_SCAN(first_eligible, l, v0, thr, from); }

// §3.3 where an entity with deadline offset `rd` goes: after every lane with a
// deadline offset at most `rd` (an equal deadline inserted earlier comes first).
template <bool Simd>
int insert_position(const Lanes& l, u64 v0, s64 rd) { EEVDF_FAST_SCAN(insert_position, l, v0, rd); }

// The lane of task `se`, or l.n.
template <bool Simd>
int find_task(const Lanes& l, int se) { EEVDF_FAST_SCAN(find_task, l, se); }

// The lane of task `se`, or l.n, when its deadline offset is probably `rd` (not
// while a dequeue has made the deadline relative): the scalar build searches that
// deadline among the sorted lanes and walks on from there, then everywhere; the SIMD
// build compares 8 task indices at a time.
template <bool Simd>
int find_lane(const Lanes& l, int se, u64 v0, s64 rd) {
  if constexpr (Simd) {
    return find_task<Simd>(l, se);
  } else {
    int i = rd == INT64_MIN ? 0 : detail::insert_position_scalar(l, v0, rd - 1);  // the first lane at rd
    while (i < l.n && l.task()[i] != se) ++i;
    return i < l.n ? i : find_task<Simd>(l, se);
  }
}



// §4.3 the smallest and largest key in the lanes.
template <bool Simd>
KeyRange key_range(const Lanes& l, u64 v0) { EEVDF_FAST_SCAN(key_range, l, v0); }

#undef EEVDF_FAST_SCAN

using detail::close_lane;
using detail::open_lane;

}  // inline namespace EEVDF_FAST_ISA
}  // namespace eevdf::model::fast
