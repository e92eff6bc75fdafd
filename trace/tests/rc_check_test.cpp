// check() counts what a generated suite discards: RapidCheck's result carries the
// passed cases only, so the count comes from its listener.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "trace/tests/rc_check.h"

TEST_CASE("check() counts and returns the discarded cases", "[rc_check]") {
  int drawn = 0;
  // 20 passing cases wanted; the first 7 drawn are discarded.
  const int discarded = eevdf::trace::testing::check("rc-check-discards", 20, [&drawn] {
    RC_PRE(++drawn > 7);
  });
  CHECK(discarded == 7);
  CHECK(drawn == 27);
}
