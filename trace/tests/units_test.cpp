// Tests trace/units.h: durations (parse_duration, format_duration) and the integer
// and rational readers, against values worked by hand from docs/TRACE_FORMAT.md's lexical
// rules ("1.5ms = 1500000"; a duration that is not a whole number of ns is an error)
// and units.h's canonical form (largest unit <= the value, trailing zeros trimmed).
// Edge cases: 0, 1 ns, 2^64-1 ns in every spelling, 2^64 and just above in each unit.
// One RapidCheck property closes the loop: parse(format(n)) == n for random n.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "trace/tests/gen_trace.h"
#include "trace/tests/rc_check.h"
#include "trace/units.h"

namespace eevdf::trace {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();  // 18446744073709551615

std::uint64_t ns_of(const char* text) {
  const DurationParse d = parse_duration(text);
  INFO("parse_duration(\"" << text << "\") error " << duration_error_text(d.error));
  REQUIRE(d.error == DurationError::none);
  return d.ns;
}

DurationError error_of(const char* text) { return parse_duration(text).error; }

TEST_CASE("parse_duration reads integers as ns and decimals with a unit", "[units]") {
  CHECK(ns_of("0") == 0);
  CHECK(ns_of("700000") == 700000);
  CHECK(ns_of("1.5ms") == 1500000);
  CHECK(ns_of("4s") == 4000000000);
  CHECK(ns_of("250us") == 250000);
  CHECK(ns_of("1ns") == 1);
  CHECK(ns_of("0ns") == 0);
  CHECK(ns_of("0.5us") == 500);
  CHECK(ns_of("0.000001ms") == 1);           // 1e-6 ms = 1 ns, the finest ms step
  CHECK(ns_of("0.000000001s") == 1);         // 1e-9 s = 1 ns
  CHECK(ns_of("1.2340us") == 1234);          // a trailing zero past ns resolution is fine
  CHECK(ns_of("1.000000000000s") == 1000000000);
  CHECK(ns_of("1.0ns") == 1);
  CHECK(ns_of("007ms") == 7000000);          // leading zeros are digits
  CHECK(ns_of("2.25s") == 2250000000);
}

TEST_CASE("parse_duration reaches exactly 2^64-1 ns in every unit", "[units]") {
  // 18446744073709551615 ns = 18446744073709551.615 us = 18446744073709.551615 ms
  //                         = 18446744073.709551615 s
  CHECK(ns_of("18446744073709551615") == kU64Max);
  CHECK(ns_of("18446744073709551615ns") == kU64Max);
  CHECK(ns_of("18446744073709551.615us") == kU64Max);
  CHECK(ns_of("18446744073709.551615ms") == kU64Max);
  CHECK(ns_of("18446744073.709551615s") == kU64Max);
}

TEST_CASE("parse_duration rejects values past 2^64-1 ns", "[units]") {
  CHECK(error_of("18446744073709551616") == DurationError::too_large);       // 2^64
  CHECK(error_of("18446744073709551616ns") == DurationError::too_large);
  CHECK(error_of("18446744073709551.616us") == DurationError::too_large);    // max + 1
  CHECK(error_of("18446744073709.551616ms") == DurationError::too_large);
  CHECK(error_of("18446744073.709551616s") == DurationError::too_large);
  CHECK(error_of("18446744074s") == DurationError::too_large);               // whole part overflows
  CHECK(error_of("99999999999999999999999999") == DurationError::too_large);
}

TEST_CASE("parse_duration rejects fractions of a nanosecond", "[units]") {
  CHECK(error_of("1.5ns") == DurationError::not_whole_ns);
  CHECK(error_of("0.0000001ms") == DurationError::not_whole_ns);   // 0.1 ns
  CHECK(error_of("1.2345us") == DurationError::not_whole_ns);      // 1234.5 ns
  CHECK(error_of("0.0000000001s") == DurationError::not_whole_ns); // 0.1 ns
}

TEST_CASE("parse_duration wants a unit on a decimal and rejects other text", "[units]") {
  CHECK(error_of("1.5") == DurationError::unit_needed);
  CHECK(error_of("0.7") == DurationError::unit_needed);
  for (const char* bad : {"", "ms", "s", "ns", "us", "-1", "+1", "-1ms", "1e3", ".5ms", "5.ms", "1.5.2ms",
                          "5MS", "5m", "5 ms", "0x10", "1,5ms", "1_000", "5sec", "5mss"}) {
    INFO("input `" << bad << "`");
    CHECK(error_of(bad) == DurationError::syntax);
  }
}

TEST_CASE("format_duration writes the largest unit with trailing zeros trimmed", "[units]") {
  CHECK(format_duration(0) == "0");
  CHECK(format_duration(1) == "1ns");
  CHECK(format_duration(999) == "999ns");
  CHECK(format_duration(1000) == "1us");
  CHECK(format_duration(1500) == "1.5us");
  CHECK(format_duration(1001) == "1.001us");
  CHECK(format_duration(250000) == "250us");
  CHECK(format_duration(700000) == "700us");
  CHECK(format_duration(999999) == "999.999us");
  CHECK(format_duration(1000000) == "1ms");
  CHECK(format_duration(1500000) == "1.5ms");
  CHECK(format_duration(1000001) == "1.000001ms");
  CHECK(format_duration(999999999) == "999.999999ms");
  CHECK(format_duration(1000000000) == "1s");
  CHECK(format_duration(1000000001) == "1.000000001s");
  CHECK(format_duration(4000000000) == "4s");
  CHECK(format_duration(60000000000) == "60s");
  CHECK(format_duration(kU64Max) == "18446744073.709551615s");
}

TEST_CASE("duration_error_text names each error", "[units]") {
  CHECK(std::string(duration_error_text(DurationError::not_whole_ns)) ==
        "a duration must be a whole number of nanoseconds");
  CHECK(std::string(duration_error_text(DurationError::unit_needed)) ==
        "a decimal duration needs a unit (ns, us, ms, s)");
  CHECK(std::string(duration_error_text(DurationError::too_large)) ==
        "duration does not fit in 64 bits of nanoseconds");
}

TEST_CASE("parse_int and parse_uint detect overflow and stray characters", "[units]") {
  CHECK(parse_int("0") == 0);
  CHECK(parse_int("-20") == -20);
  CHECK(parse_int("9223372036854775807") == std::numeric_limits<std::int64_t>::max());
  CHECK(parse_int("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(parse_int("9223372036854775808"));
  CHECK_FALSE(parse_int("-9223372036854775809"));
  CHECK_FALSE(parse_int("+5"));
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("-"));
  CHECK_FALSE(parse_int("5x"));
  CHECK_FALSE(parse_int(" 5"));
  CHECK(parse_uint("18446744073709551615") == kU64Max);
  CHECK_FALSE(parse_uint("18446744073709551616"));
  CHECK_FALSE(parse_uint("-1"));
  CHECK_FALSE(parse_uint(""));
}

TEST_CASE("parse_rational keeps p/q as text, decimals only when allowed", "[units]") {
  const RationalParse a = parse_rational("-3/4", false);
  CHECK(a.ok);
  CHECK(a.numerator == "-3");
  CHECK(a.denominator == "4");
  const RationalParse b = parse_rational("12", false);
  CHECK(b.ok);
  CHECK(b.numerator == "12");
  CHECK(b.denominator == "1");
  const RationalParse c = parse_rational("1.25", true);  // 125/100, not reduced
  CHECK(c.ok);
  CHECK(c.numerator == "125");
  CHECK(c.denominator == "100");
  const RationalParse d = parse_rational("123456789012345678901234567890/7", false);  // past 64 bits
  CHECK(d.ok);
  CHECK(d.numerator == "123456789012345678901234567890");
  CHECK_FALSE(parse_rational("1.25", false).ok);
  CHECK_FALSE(parse_rational("1/0", false).ok);
  CHECK_FALSE(parse_rational("1/000", false).ok);
  CHECK_FALSE(parse_rational("1/-2", false).ok);
  CHECK_FALSE(parse_rational("/2", false).ok);
  CHECK_FALSE(parse_rational("", false).ok);
  CHECK_FALSE(parse_rational("-", false).ok);
  CHECK_FALSE(parse_rational("--1", false).ok);
  CHECK_FALSE(parse_rational("1/2/3", false).ok);
}

TEST_CASE("parse_duration(format_duration(n)) == n for random n", "[units][property]") {
  testing::check("duration_text_round_trip", 3000, [] {
    const std::uint64_t ns = *testgen::duration_ns();
    const std::string text = format_duration(ns);
    const DurationParse back = parse_duration(text);
    RC_ASSERT(back.error == DurationError::none);
    RC_ASSERT(back.ns == ns);
  });
}

}  // namespace
}  // namespace eevdf::trace
