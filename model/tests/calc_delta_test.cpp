// Tests model/calc_delta.h (docs/MODEL.md §1.3): all 30 cells of docs/MODEL.md's
// calc_delta_fair test-vector table, the exact-model factors (F, S), the nice-0 shortcut,
// the generic (lazy) inverse, the fls renormalisation of step 2, the 128-bit intermediate
// and the truncation to u64. Expected values are docs/MODEL.md's table or are worked by hand
// in the comments, never taken from running the code.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/calc_delta.h"
#include "model/weights.h"

namespace m = eevdf::model;

TEST_CASE("calc_delta_fair: the 30 test vectors of docs/MODEL.md §1.3", "[calc_delta]") {
  // docs/MODEL.md §1.3 table: nice, then calc_delta_fair of 1 ms, 2.8 ms, 3 ms.
  struct Row { int nice; std::uint64_t at_1ms, at_2_8ms, at_3ms; };
  const Row rows[] = {
      {-20, 11536, 32302, 34609},          {-10, 107247, 300293, 321742},
      {-5, 328099, 918679, 984299},        {-1, 801879, 2245262, 2405638},
      {0, 1000000, 2800000, 3000000},      {1, 1248780, 3496585, 3746341},
      {5, 3056716, 8558806, 9170149},      {10, 9309090, 26065454, 27927272},
      {13, 18285714, 51199999, 54857142},  {19, 68266666, 191146666, 204799999},
  };
  for (const Row& r : rows) {
    CAPTURE(r.nice);
    const m::load_weight lw = m::load_weight_for_nice(r.nice);
    CHECK(m::calc_delta_fair(1'000'000, lw) == r.at_1ms);
    CHECK(m::calc_delta_fair(2'800'000, lw) == r.at_2_8ms);
    CHECK(m::calc_delta_fair(3'000'000, lw) == r.at_3ms);
  }
}

TEST_CASE("calc_delta_fair_factor: (F, S) per nice", "[calc_delta]") {
  // nice -20 (docs/MODEL.md): F = 1024 * 48388 = 49 549 312 < 2^32, so no renormalisation, S = 32.
  CHECK(m::calc_delta_fair_factor(-20) == m::delta_factor{49'549'312, 32});
  // nice 19, by hand: 1024 * 286 331 153 (0x11111111) = 0x11111111 << 10; its bits above 32
  // are 0x44 = 68, fls(68) = 7, so F = 0x11111111 << 3 = 0x88888888 = 2 290 649 224 and
  // S = 32 - 7 = 25 (an F one lower would give the same table values above, so the
  // table alone does not pin F).
  CHECK(m::calc_delta_fair_factor(19) == m::delta_factor{2'290'649'224, 25});
  // nice 13, by hand: 1024 * 76 695 844 = 78 536 544 256; >> 32 = 18 (10010b), fls 5;
  // F = 78 536 544 256 / 32 = 2 454 267 008, S = 27.
  CHECK(m::calc_delta_fair_factor(13) == m::delta_factor{2'454'267'008, 27});
  // nice 0: 1024 * 4 194 304 = 2^32, >> 32 = 1, fls 1: F = 2^31, S = 31 (exactly 1).
  CHECK(m::calc_delta_fair_factor(0) == m::delta_factor{std::uint64_t{1} << 31, 31});
}

TEST_CASE("nice 13 at 2.8 ms is 51 199 999, worked by hand", "[calc_delta]") {
  // 2 800 000 * 2 454 267 008 = 6 871 947 622 400 000; 2^27 * 51 200 000 =
  // 6 871 947 673 600 000 is 51 200 000 more, so the floor is 51 200 000 - 1.
  const m::load_weight lw = m::load_weight_for_nice(13);
  CHECK(m::calc_delta(2'800'000, m::NICE_0_LOAD, lw) == 51'199'999U);
  CHECK(m::mul_u64_u32_shr(2'800'000, 2'454'267'008U, 27) == 51'199'999U);
}

TEST_CASE("nice-0 shortcut returns delta even with a lazy inverse", "[calc_delta]") {
  CHECK(m::calc_delta_fair(12'345, {m::NICE_0_LOAD, 0}) == 12'345U);
  CHECK(m::calc_delta_fair(0, {m::NICE_0_LOAD, 0}) == 0U);
  // Without the shortcut the lazy inverse 4 194 303 gives fact = 1024 * 4 194 303 =
  // 4 294 966 272 < 2^32 (S = 32): 1 000 000 * that / 2^32 = 999 999.76..., floor 999 999.
  CHECK(m::calc_delta(1'000'000, m::NICE_0_LOAD, {m::NICE_0_LOAD, 0}) == 999'999U);
  // With the table inverse the formula is exact: F = 2^31, S = 31.
  CHECK(m::calc_delta(3'000'000, m::NICE_0_LOAD, m::load_weight_for_nice(0)) == 3'000'000U);
}

TEST_CASE("calc_delta_fair with the generic inverse", "[calc_delta]") {
  // Twice NICE_0_LOAD, inverse unset: w = 2048, inv = 2 097 151, fact = 2 147 482 624,
  // S = 32. 10^6 * fact = 2 147 482 624 000 000; 2^32 * 500 000 = 2 147 483 648 000 000 is
  // 1 024 000 000 more (0.24 of 2^32), so the floor is 499 999, not 500 000.
  CHECK(m::calc_delta_fair(1'000'000, {2 * m::NICE_0_LOAD, 0}) == 499'999U);
}

TEST_CASE("step 2: a weight above 2^32 is renormalised", "[calc_delta]") {
  // weight = lw.weight = 2^43: scale_load_down = 2^33 (fact_hi 2, fls 2: fact 2^31, shift
  // 30); the lazy inverse is pinned to 1, so fact = 2^31 and the result is 2 * delta: the
  // kernel's inverse clamp doubles time here.
  const std::uint64_t weight = std::uint64_t{1} << 43;
  CHECK(m::calc_delta_factor(weight, {weight, 0}) == m::delta_factor{std::uint64_t{1} << 31, 30});
  CHECK(m::calc_delta(1'000, weight, {weight, 0}) == 2'000U);
}

TEST_CASE("the product is formed in 128 bits", "[calc_delta]") {
  // nice -20, delta 2^40: 2^40 * 49 549 312 overflows 64 bits (~2^65.6), but
  // 2^40 * 49 549 312 / 2^32 = 256 * 49 549 312 = 12 684 623 872 fits.
  const m::load_weight lw = m::load_weight_for_nice(-20);
  CHECK(m::calc_delta_fair(std::uint64_t{1} << 40, lw) == 12'684'623'872U);
  CHECK(m::calc_delta_fits_u64(std::uint64_t{1} << 40, m::NICE_0_LOAD, lw));
}

TEST_CASE("mul_u64_u32_shr truncates to the low 64 bits", "[calc_delta]") {
  // (2^64-1)(2^32-1) = 2^96 - 2^64 - 2^32 + 1.
  // shift 0: mod 2^64 that is 2^64 - 2^32 + 1 = 0xFFFFFFFF00000001 (does not fit).
  CHECK(m::mul_u64_u32_shr(UINT64_MAX, 0xFFFF'FFFFU, 0) == 0xFFFF'FFFF'0000'0001ULL);
  CHECK_FALSE(m::mul_u64_u32_shr_fits(UINT64_MAX, 0xFFFF'FFFFU, 0));
  // shift 32: 2^64 - 2^32 - 1 + 2^-32, floor 0xFFFFFFFEFFFFFFFF (fits).
  CHECK(m::mul_u64_u32_shr(UINT64_MAX, 0xFFFF'FFFFU, 32) == 0xFFFF'FFFE'FFFF'FFFFULL);
  CHECK(m::mul_u64_u32_shr_fits(UINT64_MAX, 0xFFFF'FFFFU, 32));
}

TEST_CASE("calc_delta_fair wraps like the kernel when the result overflows", "[calc_delta]") {
  // nice 19, delta 2^63: 2^63 * 0x88888888 / 2^25 = 0x88888888 << 38
  // = 0x222222220 << 36 = 0x22_2222_2200_0000_0000; the low 64 bits are 0x2222220000000000.
  const m::load_weight lw = m::load_weight_for_nice(19);
  const std::uint64_t delta = std::uint64_t{1} << 63;
  CHECK_FALSE(m::calc_delta_fits_u64(delta, m::NICE_0_LOAD, lw));
  CHECK(m::calc_delta_fair(delta, lw) == 0x2222'2200'0000'0000ULL);
}
