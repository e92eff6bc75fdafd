// Task weights and their inverses (docs/MODEL.md §1.2, §1.3 lazy inverse): the 64-bit
// kernel's fixed-point load scale, the nice tables copied verbatim, `struct load_weight`.
// The tables are immutable constants, not state: model/ still has no mutable globals.
#pragma once

#include <array>    // std::array
#include <cstdint>  // std::uint32_t, std::uint64_t

namespace eevdf::model {

/// §1.2: fixed-point resolution of load (kernel/sched/sched.h).
inline constexpr int SCHED_FIXEDPOINT_SHIFT = 10;
/// §1.2, 64-bit only: loads carry SCHED_FIXEDPOINT_SHIFT extra bits, so nice 0 is 1 << 20.
inline constexpr int NICE_0_LOAD_SHIFT = 2 * SCHED_FIXEDPOINT_SHIFT;
inline constexpr std::uint64_t NICE_0_LOAD = std::uint64_t{1} << NICE_0_LOAD_SHIFT;
/// §1.3: the numerator of the generic inverse, the kernel's `~0U` = 2^32 - 1.
inline constexpr std::uint32_t WMULT_CONST = 0xFFFF'FFFFU;
/// §1.3: inverses are 2^32 / w, so __calc_delta starts from a shift of 32.
inline constexpr int WMULT_SHIFT = 32;

/// §1.2: the nice range; the tables below are indexed by nice - NICE_MIN.
inline constexpr int NICE_MIN = -20;
inline constexpr int NICE_MAX = 19;
inline constexpr int NICE_WIDTH = NICE_MAX - NICE_MIN + 1;

/// §1.2: SCHED_IDLE tasks get a weight below nice 19 and this table-style inverse.
inline constexpr std::uint64_t WEIGHT_IDLEPRIO = 3;
inline constexpr std::uint32_t WMULT_IDLEPRIO = 1'431'655'765;

/// §1.2 sched_prio_to_weight (core.c), nice -20 .. 19, verbatim. Each step is ~1.25x, so
/// one nice level is ~10% of CPU between two competing tasks. (The kernel's type is int;
/// every entry is positive, so u32 avoids sign conversions.)
inline constexpr std::array<std::uint32_t, NICE_WIDTH> sched_prio_to_weight = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548,  7620,  6100,  4904,  3906,
    /*  -5 */ 3121,  2501,  1991,  1586,  1277,
    /*   0 */ 1024,  820,   655,   526,   423,
    /*   5 */ 335,   272,   215,   172,   137,
    /*  10 */ 110,   87,    70,    56,    45,
    /*  15 */ 36,    29,    23,    18,    15,
};

/// §1.2 sched_prio_to_wmult (core.c), "2^32/x, pre-calculated", verbatim. Not one formula:
/// most entries are round(2^32/w) but nice 13, 14, 16 and 17 are floor(2^32/w), so the
/// model must use the table, never recompute it.
inline constexpr std::array<std::uint32_t, NICE_WIDTH> sched_prio_to_wmult = {
    /* -20 */ 48388,     59856,     76040,     92818,     118348,
    /* -15 */ 147320,    184698,    229616,    287308,    360437,
    /* -10 */ 449829,    563644,    704093,    875809,    1099582,
    /*  -5 */ 1376151,   1717300,   2157191,   2708050,   3363326,
    /*   0 */ 4194304,   5237765,   6557202,   8165337,   10153587,
    /*   5 */ 12820798,  15790321,  19976592,  24970740,  31350126,
    /*  10 */ 39045157,  49367440,  61356676,  76695844,  95443717,
    /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/// §1.2/§1.3: a scaled weight (NICE_0_LOAD at nice 0) and its inverse; inv_weight == 0
/// means "not computed yet", as after the kernel's update_load_add/sub/set().
struct load_weight {
  std::uint64_t weight;
  std::uint32_t inv_weight;

  bool operator==(const load_weight&) const = default;
};

/// §1.2 scale_load() on 64-bit: w << SCHED_FIXEDPOINT_SHIFT. Asserts no bit is lost.
std::uint64_t scale_load(std::uint64_t w);

/// §1.2 scale_load_down() on 64-bit: 0 stays 0, otherwise max(2, w >> 10).
std::uint64_t scale_load_down(std::uint64_t w);

/// §1.2 set_load_weight(): the scaled table weight and table inverse of a nice level.
/// Asserts NICE_MIN <= nice <= NICE_MAX.
load_weight load_weight_for_nice(int nice);

/// §1.3 lazy inverse: the inverse __update_inv_weight() leaves in lw (lw's own if set,
/// else the generic floor((2^32-1)/scale_load_down(weight)) with its two edge cases).
/// Pure, so calc_delta can take a const load_weight and still match the kernel bit for bit.
std::uint32_t inv_weight_of(const load_weight& lw);

/// §1.3 __update_inv_weight(): store inv_weight_of(lw) in lw (a no-op when already set).
void update_inv_weight(load_weight& lw);

}  // namespace eevdf::model
