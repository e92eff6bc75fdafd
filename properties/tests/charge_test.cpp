// Tests of properties/charge.h: charge_rule. Its values on faithful runs are worked
// by hand in the comments, and each statement fires on a hook call that breaks it.
#include <catch2/catch.hpp>

#include <string>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using eevdf::properties::testing::tick_event;
using K = eevdf::model::KernelArith;
using I = eevdf::model::IdealArith;
using P612 = eevdf::model::profile_6_12;

namespace {

// Eight CPUs (base slice 2.8 ms, docs/MODEL.md §2); task 2 (nice 5, w = 335) alone on
// CPU 0 from 0. The tick at 2.8 ms charges it 2.8 ms: its vruntime advances by
// calc_delta_fair(2.8 ms) = 8558806 (the table of docs/MODEL.md §1.3), past its fork
// deadline (v0 + 8558806 / 2), so the deadline is renewed.
std::string alone(const std::string& kernel) {
  return "eevdf-trace 1\nkernel " + kernel +
         "\n"
         "topology 1x8\n"
         "task 2 nice=5 cpu=0\n"
         "@0 fork 2\n"
         "@2.8ms tick 0\n";
}

// One CPU, base slice 0.7 ms: task 1 runs from 0, task 2 forks beside it at 0.1 ms
// (the fork charges task 1 0.1 ms first), and a tick at 0.2 ms charges task 1 another
// 0.1 ms: nice 0, so vruntime advances by the ns charged.
const char* const kTwo = R"(eevdf-trace 1
topology 1x1
task 1
task 2
@0 fork 1
@0.1ms fork 2
@0.2ms tick 0
)";

template <class A, class P>
void advance_worked_by_hand(const std::string& kernel) {
  Harness<A, P> h(alone(kernel), {"charge_rule"});
  h.apply_until(5);  // the fork
  const auto v0 = h.task(2).se.vruntime;
  h.apply_until();
  INFO("advance " << A::to_string(h.task(2).se.vruntime - v0));
  CHECK(h.task(2).se.vruntime - v0 == 8'558'806);
  CHECK(h.sink.violations.empty());
}

}  // namespace

TEST_CASE("charge_rule: a charge advances vruntime by calc_delta_fair, worked by hand", "[properties][charge]") {
  SECTION("6.18") { advance_worked_by_hand<K, eevdf::model::profile_6_18>("6.18"); }
  SECTION("6.12") { advance_worked_by_hand<K, P612>("6.12"); }
  SECTION("two tasks, both arithmetics") {
    Harness<K> k(kTwo, {"charge_rule"});
    k.apply_until();
    CHECK(k.task(1).se.vruntime - k.task(2).se.vruntime == 100'000);  // task 2 placed at task 1's vruntime
    CHECK(k.sink.violations.empty());
    Harness<I> i(kTwo, {"charge_rule"});
    i.apply_until();
    CHECK(i.sink.violations.empty());
  }
}

TEST_CASE("charge_rule fails on a charge that is not the rule's", "[properties][charge]") {
  Harness<K> h(kTwo, {"charge_rule"});
  h.apply_until();
  const auto& cfs = h.rq(0).cfs;
  auto& se1 = h.task(1).se;
  // 1000 ns at nice 0: vruntime + 1000, the deadline left: clean.
  se1.vruntime += 1000;
  h.changed();
  h.checker().charged(cfs, se1, 1000, false, false);
  CHECK(h.sink.violations.empty());
  // One nanosecond short of the advance.
  se1.vruntime += 999;
  h.changed();
  h.checker().charged(cfs, se1, 1000, false, false);
  CHECK(h.sink.count("charge_rule") == 1);
  // A renewal before vruntime reached the deadline: task 1's vruntime is v0 + 0.2 ms +
  // 2999 ns, its deadline still v0 + 0.35 ms (its fork's halved 0.7 ms slice).
  se1.vruntime += 1000;
  se1.deadline = se1.vruntime + 700'000;
  h.changed();
  h.checker().charged(cfs, se1, 1000, true, false);
  CHECK(h.sink.count("charge_rule") == 2);
  // A charge that moves the deadline without renewing it.
  se1.vruntime += 1000;
  se1.deadline += 1;
  h.changed();
  h.checker().charged(cfs, se1, 1000, false, false);
  CHECK(h.sink.count("charge_rule") == 3);
  // After a renice of task 1 its values are no longer known: a wrong advance is not judged.
  eevdf::trace::Event renice;
  renice.verb = eevdf::trace::Verb::renice;
  renice.task = 1;
  renice.nice = 3;
  h.checker().before_event(renice);
  se1.vruntime += 5;
  h.changed();
  h.checker().charged(cfs, se1, 1000, false, false);
  CHECK(h.sink.count("charge_rule") == 3);
}

TEST_CASE("charge_rule fails where curr is not charged up to now", "[properties][charge]") {
  Harness<K> h(kTwo, {"charge_rule"});
  h.apply_until();
  auto& rq = h.rq(0);
  auto& se1 = h.task(1).se;
  auto& se2 = h.task(2).se;
  REQUIRE(rq.cfs.curr == &se1);
  REQUIRE(se1.exec_start == 200'000);  // the tick at 0.2 ms charged it
  h.checker().picked(rq, &se2, false);
  CHECK(h.sink.violations.empty());
  // Charged up to 1 ns before the event: a pick, a placement and a tick each see it.
  se1.exec_start = 199'999;
  h.changed();
  h.checker().picked(rq, &se2, false);
  CHECK(h.sink.count("charge_rule") == 1);
  h.checker().placed(rq.cfs, se2, 0, 0, false, 0);
  CHECK(h.sink.count("charge_rule") == 2);
  h.touch({0});
  h.checker().after_event(tick_event());
  CHECK(h.sink.count("charge_rule") == 3);
  // A delayed entity's requeue places without a charge: not judged.
  se2.sched_delayed = true;
  h.changed();
  h.checker().placed(rq.cfs, se2, 0, 0, false, 0);
  CHECK(h.sink.count("charge_rule") == 3);
  se2.sched_delayed = false;
}
