// Tests model/weights.h (docs/MODEL.md §1.2, §1.3 lazy inverse): spot values of the two
// nice tables, docs/MODEL.md's claims about how the inverses were rounded, scale_load and
// scale_load_down edge cases, load_weight_for_nice, and the lazy inverse of
// __update_inv_weight. Expected values are docs/MODEL.md's or worked by hand in comments;
// where a check recomputes 2^32/w it is docs/MODEL.md's formula used as an oracle for the
// table's rounding, never the code under test.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

#include "model/weights.h"

namespace m = eevdf::model;

namespace {
constexpr std::uint64_t TWO_32 = std::uint64_t{1} << 32;

std::size_t prio(int nice) { return static_cast<std::size_t>(nice + 20); }
}  // namespace

TEST_CASE("constants of the 64-bit load scale", "[weights]") {
  CHECK(m::SCHED_FIXEDPOINT_SHIFT == 10);
  CHECK(m::NICE_0_LOAD_SHIFT == 20);
  CHECK(m::NICE_0_LOAD == 1'048'576U);
  CHECK(m::WMULT_CONST == 4'294'967'295U);  // 2^32 - 1
  CHECK(m::WMULT_SHIFT == 32);
}

TEST_CASE("table spot values: first and last entry of every table row", "[weights]") {
  // Rows of five from docs/MODEL.md §1.2, nice -20, -15, ..., 15.
  const int firsts[] = {-20, -15, -10, -5, 0, 5, 10, 15};
  const std::uint32_t weight_first[] = {88761, 29154, 9548, 3121, 1024, 335, 110, 36};
  const std::uint32_t weight_last[] = {36291, 11916, 3906, 1277, 423, 137, 45, 15};
  const std::uint32_t wmult_first[] = {48388,   147320,   449829,   1376151,
                                       4194304, 12820798, 39045157, 119304647};
  const std::uint32_t wmult_last[] = {118348,   360437,   1099582,  3363326,
                                      10153587, 31350126, 95443717, 286331153};
  for (std::size_t row = 0; row < 8; ++row) {
    CAPTURE(firsts[row]);
    CHECK(m::sched_prio_to_weight[prio(firsts[row])] == weight_first[row]);
    CHECK(m::sched_prio_to_weight[prio(firsts[row] + 4)] == weight_last[row]);
    CHECK(m::sched_prio_to_wmult[prio(firsts[row])] == wmult_first[row]);
    CHECK(m::sched_prio_to_wmult[prio(firsts[row] + 4)] == wmult_last[row]);
  }
}

TEST_CASE("nice 13, 14, 16, 17 inverses are floor(2^32/w), not round", "[weights]") {
  // Worked by hand: w * inv + remainder = 2^32 = 4 294 967 296, remainder/w >= .5.
  //   nice 13, w 56: 56 * 76 695 844 = 4 294 967 264, remainder 32 (.57)
  //   nice 14, w 45: 45 * 95 443 717 = 4 294 967 265, remainder 31 (.69)
  //   nice 16, w 29: 29 * 148 102 320 = 4 294 967 280, remainder 16 (.55)
  //   nice 17, w 23: 23 * 186 737 708 = 4 294 967 284, remainder 12 (.52)
  struct Case { int nice; std::uint32_t w, inv; std::uint64_t remainder; };
  const Case cases[] = {{13, 56, 76695844, 32}, {14, 45, 95443717, 31},
                        {16, 29, 148102320, 16}, {17, 23, 186737708, 12}};
  for (const Case& c : cases) {
    CAPTURE(c.nice);
    CHECK(m::sched_prio_to_weight[prio(c.nice)] == c.w);
    CHECK(m::sched_prio_to_wmult[prio(c.nice)] == c.inv);
    CHECK(std::uint64_t{c.w} * c.inv + c.remainder == TWO_32);
    CHECK(2 * c.remainder >= c.w);  // the fraction is >= .5: round would add one
  }
}

TEST_CASE("every other inverse is round(2^32/w) and 13 differ from floor", "[weights]") {
  // §1.2: "most equal round(2^32/w), but nice +13, +14, +16, +17 ... are floor ...,
  // and 13 entries differ from floor(2^32/w)". The oracle is that formula.
  int not_floor = 0;
  for (int nice = -20; nice <= 19; ++nice) {
    CAPTURE(nice);
    const std::uint64_t w = m::sched_prio_to_weight[prio(nice)];
    const std::uint64_t inv = m::sched_prio_to_wmult[prio(nice)];
    const std::uint64_t floor_inv = TWO_32 / w;
    const std::uint64_t round_inv = (TWO_32 + w / 2) / w;
    const bool floor_case = nice == 13 || nice == 14 || nice == 16 || nice == 17;
    CHECK(inv == (floor_case ? floor_inv : round_inv));
    not_floor += inv != floor_inv ? 1 : 0;
  }
  CHECK(not_floor == 13);
}

TEST_CASE("scale_load and scale_load_down", "[weights]") {
  CHECK(m::scale_load(0) == 0U);
  CHECK(m::scale_load(15) == 15'360U);        // 15 * 1024
  CHECK(m::scale_load(1024) == 1'048'576U);   // NICE_0_LOAD
  // scale_load_down: 0 stays 0, else max(2, w >> 10).
  CHECK(m::scale_load_down(0) == 0U);
  CHECK(m::scale_load_down(1) == 2U);     // 1 >> 10 = 0 -> 2
  CHECK(m::scale_load_down(1023) == 2U);  // 0 -> 2
  CHECK(m::scale_load_down(1024) == 2U);  // 1 -> 2
  CHECK(m::scale_load_down(2047) == 2U);  // 1 -> 2
  CHECK(m::scale_load_down(2048) == 2U);  // 2
  CHECK(m::scale_load_down(3071) == 2U);  // 2 (3071 = 2*1024 + 1023)
  CHECK(m::scale_load_down(3072) == 3U);  // 3
  CHECK(m::scale_load_down(1'048'576) == 1024U);
  CHECK(m::scale_load_down(90'891'264) == 88'761U);  // 88761 * 1024
}

TEST_CASE("load_weight_for_nice: scaled table weight, table inverse", "[weights]") {
  CHECK(m::load_weight_for_nice(0) == m::load_weight{1'048'576, 4'194'304});
  // 88761 * 1024 = 88 761 000 + 2 130 264 = 90 891 264
  CHECK(m::load_weight_for_nice(-20) == m::load_weight{90'891'264, 48'388});
  CHECK(m::load_weight_for_nice(19) == m::load_weight{15'360, 286'331'153});
  CHECK(m::load_weight_for_nice(13) == m::load_weight{57'344, 76'695'844});  // 56 * 1024
}

TEST_CASE("lazy inverse: a set inverse is kept", "[weights]") {
  m::load_weight lw{m::NICE_0_LOAD, 4'194'304};
  CHECK(m::inv_weight_of(lw) == 4'194'304U);
  m::update_inv_weight(lw);
  CHECK(lw == m::load_weight{m::NICE_0_LOAD, 4'194'304});
}

TEST_CASE("lazy inverse: floor((2^32-1)/w) when unset", "[weights]") {
  // w = 1024: 1024 * 4 194 303 = 4 294 966 272 <= 4 294 967 295 < + 1024, so 4 194 303,
  // one less than the table's 4 194 304 = 2^32/1024.
  m::load_weight nice0{m::NICE_0_LOAD, 0};
  CHECK(m::inv_weight_of(nice0) == 4'194'303U);
  CHECK(nice0.inv_weight == 0U);  // inv_weight_of is pure
  m::update_inv_weight(nice0);
  CHECK(nice0.inv_weight == 4'194'303U);
  // w = 2048: 2048 * 2 097 151 = 4 294 965 248, + 2048 overshoots: 2 097 151.
  CHECK(m::inv_weight_of({2 * m::NICE_0_LOAD, 0}) == 2'097'151U);
  // w = 56: 56 * 76 695 844 = 4 294 967 264 <= 2^32-1: equal to the table here.
  CHECK(m::inv_weight_of({m::scale_load(56), 0}) == 76'695'844U);
  // w = 15: 15 * 286 331 153 = 4 294 967 295 exactly.
  CHECK(m::inv_weight_of({m::scale_load(15), 0}) == 286'331'153U);
  // w = 88761: 88761 * 48 388 = 4 260 528 000 + 34 439 268 = 4 294 967 268.
  CHECK(m::inv_weight_of({m::scale_load(88'761), 0}) == 48'388U);
  // weight 1 scales down to 2: (2^32-1)/2 = 2 147 483 647.
  CHECK(m::inv_weight_of({1, 0}) == 2'147'483'647U);
}

TEST_CASE("lazy inverse: the two edge cases", "[weights]") {
  // w == 0 (an empty load): WMULT_CONST instead of a division by zero.
  m::load_weight empty{0, 0};
  m::update_inv_weight(empty);
  CHECK(empty.inv_weight == 4'294'967'295U);
  // w >= 2^32 - 1: pinned to 1.
  CHECK(m::inv_weight_of({m::scale_load(0xFFFF'FFFFULL), 0}) == 1U);
  CHECK(m::inv_weight_of({m::scale_load(std::uint64_t{1} << 33), 0}) == 1U);
  // w = 2^32 - 2: floor((2^32-1)/(2^32-2)) = 1 by the division itself.
  CHECK(m::inv_weight_of({m::scale_load(0xFFFF'FFFEULL), 0}) == 1U);
}
