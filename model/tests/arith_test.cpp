// The two arithmetic policies of the reference model (arith_kernel.h, arith_ideal.h):
// the kernel's rounding of negative values (docs/MODEL.md §4.1 floor, §1.1 div_s64
// truncation, §6.1 halving), s64 overflow detection with two's-complement wrap
// (docs/PROPERTIES.md no_overflow), the u64 wrap of vruntime through zero (§1.1), and
// the exactness of the ideal arithmetic. Expected values are worked by hand.
#include <catch2/catch.hpp>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/weights.h"

using eevdf::model::IdealArith;
using eevdf::model::KernelArith;
using eevdf::model::OverflowLog;
using K = KernelArith::value;

namespace {
constexpr K kTwo64 = static_cast<K>(1) << 64;
constexpr K kTwo63 = static_cast<K>(1) << 63;
}  // namespace

TEST_CASE("kernel floor_div floors negative averages (left bias)", "[arith]") {
  OverflowLog log;
  // -7/2: avg -= (2-1) -> -8, then truncation -> -4 = floor(-3.5).
  CHECK(KernelArith::floor_div(-7, 2, log) == -4);
  // -6/3 is exact: -6 - 2 = -8, -8/3 truncates to -2.
  CHECK(KernelArith::floor_div(-6, 3, log) == -2);
  // Positive values truncate: 7/2 = 3.
  CHECK(KernelArith::floor_div(7, 2, log) == 3);
  CHECK(log.empty());
}

TEST_CASE("kernel div_s64 truncates toward zero", "[arith]") {
  OverflowLog log;
  CHECK(KernelArith::div_s64(-7, 2, log, "t") == -3);
  CHECK(KernelArith::div_s64(7, -2, log, "t") == -3);
  CHECK(KernelArith::div_s64(-1, 1024, log, "t") == 0);
  CHECK(log.empty());
}

TEST_CASE("kernel div_s64 reports a divisor that does not fit s32", "[arith][overflow]") {
  OverflowLog log;
  // 2^32 + 3 truncates to the s32 value 3: 10 / 3 = 3, and the report names it.
  CHECK(KernelArith::div_s64(10, (static_cast<K>(1) << 32) + 3, log, "divisor") == 3);
  REQUIRE(log.events().size() == 1);
  CHECK(log.events()[0].expression == "divisor");
}

TEST_CASE("kernel halving of a slice floors", "[arith]") {
  CHECK(KernelArith::half(4279403) == 2139701);  // odd: the half-ns is dropped (§6.1 step 6)
  CHECK(KernelArith::half(4279402) == 2139701);
}

TEST_CASE("kernel s64 reports and wraps an overflowing value", "[arith][overflow]") {
  OverflowLog log;
  CHECK(KernelArith::s64(kTwo63, log, "x") == -kTwo63);  // 2^63 wraps to -2^63
  CHECK(KernelArith::mul(static_cast<K>(1) << 62, 4, log, "y") == 0);  // 2^64 wraps to 0
  CHECK(KernelArith::add(kTwo63 - 1, 0, log, "z") == kTwo63 - 1);     // the largest s64 fits
  REQUIRE(log.events().size() == 2);
  CHECK(log.events()[0].exact == kTwo63);
  CHECK(log.events()[1].expression == "y");
}

TEST_CASE("muted logs ignore reports", "[arith][overflow]") {
  OverflowLog log;
  {
    eevdf::model::MuteOverflow mute(log);
    KernelArith::s64(kTwo63, log, "x");
  }
  CHECK(log.empty());
}

TEST_CASE("vruntime wraps through zero as a u64, and keys stay exact", "[arith]") {
  OverflowLog log;
  // v0 starts at (u64)-(1<<20) (§1.1); after 2 ms at nice 0 the kernel's u64 vruntime
  // has wrapped to 2'000'000 - 2^20 = 951'424. The model keeps it unwrapped; the low
  // 64 bits are the kernel's value and the key is the same 2'000'000.
  const K v0 = kTwo64 - (1 << 20);
  const K v = v0 + 2'000'000;
  CHECK(static_cast<std::uint64_t>(static_cast<eevdf::model::u128>(v)) == 951'424u);
  CHECK(KernelArith::s64(v - v0, log, "key") == 2'000'000);
  CHECK(KernelArith::before(v0, v, log, "cmp"));   // (s64)(v0 - v) < 0
  CHECK(!KernelArith::before(v, v0, log, "cmp"));
  CHECK(log.empty());
}

TEST_CASE("kernel calc_delta_fair reports a result beyond u64", "[arith][overflow]") {
  OverflowLog log;
  const auto nice19 = eevdf::model::load_weight_for_nice(19);
  // 2^60 ns at ~68.27 virtual ns per ns is about 2^66: the kernel keeps the low bits.
  KernelArith::calc_delta_fair(std::uint64_t{1} << 60, nice19, log);
  CHECK(log.events().size() == 1);
  // 1 ms at nice 13 is the §1.3 vector 18285714; nothing to report.
  OverflowLog quiet;
  CHECK(KernelArith::calc_delta_fair(1'000'000, eevdf::model::load_weight_for_nice(13), quiet) == 18'285'714);
  CHECK(quiet.empty());
}

TEST_CASE("ideal arithmetic is exact", "[arith][ideal]") {
  OverflowLog log;
  using Q = IdealArith::value;
  // 1 ms at nice 5 (w = 335): 1'000'000 * 1024 / 335 = 204'800'000 / 67, not 3'056'716.
  CHECK(IdealArith::calc_delta_fair(1'000'000, eevdf::model::load_weight_for_nice(5), log) == Q(204'800'000, 67));
  CHECK(IdealArith::floor_div(Q(-7), Q(2), log) == Q(-7, 2));
  CHECK(IdealArith::div_s64(Q(-7), Q(2), log, "t") == Q(-7, 2));
  CHECK(IdealArith::half(Q(4'279'403)) == Q(4'279'403, 2));
  CHECK(IdealArith::mul(Q(std::int64_t{1} << 62), Q(4), log, "big") == Q(std::int64_t{1} << 62) * 4);  // no wrap
  CHECK(log.empty());
}
