// The value orders of values.h, against values worked by hand: toward() halves the
// jump from the target back to the value; roundest_between() picks the value with
// the most trailing zeros strictly inside, nearest the middle; bisect_roundest()
// finds a threshold.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "shrinkers/values.h"

namespace sh = eevdf::shrinkers;

TEST_CASE("toward: the target first, then ever smaller jumps", "[shrinkers][values]") {
  CHECK(sh::toward(-20, 0) == std::vector<std::int64_t>{0, -10, -15, -18, -19});
  CHECK(sh::toward(7, 0) == std::vector<std::int64_t>{0, 4, 6});
  CHECK(sh::toward(1, 0) == std::vector<std::int64_t>{0});
  CHECK(sh::toward(0, 0).empty());
  CHECK(sh::toward(-3, 0) == std::vector<std::int64_t>{0, -2});
}

TEST_CASE("roundest_between: most trailing zeros, strictly inside", "[shrinkers][values]") {
  CHECK(sh::roundest_between(0, 3538848803) == 2000000000);  // 1e9 multiples: 1e9..3e9, middle 1.77e9
  CHECK(sh::roundest_between(0, 101) == 100);
  CHECK(sh::roundest_between(100, 101) == std::nullopt);
  CHECK(sh::roundest_between(99, 101) == 100);
  CHECK(sh::roundest_between(0, 2) == 1);
  CHECK(sh::roundest_between(1200, 1300) == 1250);  // 10s: 1210..1290, middle 1250
  CHECK(sh::roundest_between(99999, 24406770) == 10000000);
  // 1e19 multiples overflow, 1e18: 19e18 > hi; 1e17: 181..184e17, middle 182.2e17
  CHECK(sh::roundest_between(18000000000000000000ull, UINT64_MAX) == 18200000000000000000ull);
}

TEST_CASE("bisect_roundest: finds a monotone threshold", "[shrinkers][values]") {
  int calls = 0;
  const std::uint64_t found = sh::bisect_roundest(0, 3538848803, [&](std::uint64_t x) {
    ++calls;
    return x >= 1234567;
  });
  CHECK(found == 1234567);
  CHECK(calls <= sh::kBisectionStepsMax);
  CHECK(sh::bisect_roundest(0, 1000, [](std::uint64_t x) { return x >= 300; }) == 300);
}
