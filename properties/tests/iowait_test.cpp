// iowait_accounting fires when a wakeup migration drops the count on the wrong CPU
// (docs/INJECTIONS.md iowait_dec_new_rq) and holds otherwise; iowait_visibility measures the
// time an ineligible (delayed) io sleeper spends uncounted, worked by hand.
#include <catch2/catch.hpp>

#include "model/arith_kernel.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using K = eevdf::model::KernelArith;

namespace {

// docs/TRACE_FORMAT.md's example: task 2 sleeps with io on CPU 0 and wakes on CPU 1.
const char* const kExample = R"(eevdf-trace 1
topology 1x2
hz 250
task 1 name=hog
task 2 nice=5 name=io
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@4ms tick 0
@5ms sleep 2 io
@8ms wake 2 cpu=1
)";

}  // namespace

TEST_CASE("iowait_accounting holds on the faithful wakeup migration", "[properties][iowait]") {
  Harness<K> h(kExample, {"iowait_accounting"});
  h.apply_until();
  CHECK(h.sink.violations.empty());
}

TEST_CASE("iowait_accounting catches the count dropped on the new CPU", "[properties][iowait]") {
  Harness<K> h(kExample, {"iowait_accounting"}, {"iowait_dec_new_rq"});
  h.apply_until();
  CHECK(h.sink.count("iowait_accounting") >= 1);
}

TEST_CASE("iowait_visibility integrates uncounted io sleep time", "[properties][iowait]") {
  // One CPU (slice 0.7 ms). Both tasks fork at V = v0; task 1 runs, protected. At
  // 0.2 ms it sleeps with io: v1 = v0 + 0.2 ms, V = v0 + 0.1 ms (equal weights), so
  // its lag is -0.1 ms: ineligible, hence delayed (DELAY_DEQUEUE) and not counted.
  // No pick meets it before it is woken at 2.2 ms, so it is never counted:
  // 1 task x (2.2 ms - 0.2 ms) = 2'000'000 ns uncounted.
  Harness<K> h(R"(eevdf-trace 1
topology 1x1
task 1
task 2
@0 fork 1
@0 fork 2
@200us sleep 1 io
@2200us wake 1
)",
               {"iowait_visibility"});
  h.apply_until(7);
  REQUIRE(h.run->machine().state_of(h.task(1)) == eevdf::model::task_state::delayed);
  h.apply_until();
  std::string num, den;
  REQUIRE(h.run->checker().measure("iowait_visibility", num, den));
  CHECK(num == "2000000");
  CHECK(den == "1");
}
