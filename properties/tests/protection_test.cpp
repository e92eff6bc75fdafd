// Tests of properties/protection.h: wakeup_preempt_rule, lone_no_resched,
// slice_sane, min_slice_exact and slice_protection. Each holds on faithful runs
// (both arithmetics, several feature sets) and fires on the injection that breaks
// it (parity_ignores_min_slice, docs/INJECTIONS.md), on a corrupted state, or on a hook call
// that fabricates a wrong decision. The expected values are worked by hand in the
// comments.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using eevdf::properties::testing::with_features;
using eevdf::properties::testing::tick_event;
using K = eevdf::model::KernelArith;
using I = eevdf::model::IdealArith;

namespace {

const std::vector<std::string> kAll{"wakeup_preempt_rule", "lone_no_resched", "slice_sane", "min_slice_exact",
                                    "slice_protection"};

// A reviewer's trace (/tmp/rt/p1). One CPU (base slice 0.7 ms). Task 2 (slice
// 0.3 ms) forks onto the idle CPU; task 1 (slice 3 ms) joins at V = v0 with the
// half-slice deadline v0 + 1.5 ms. At 0.2 ms task 2 has run 0.2 ms: V = v0 + 0.1 ms,
// so it is ineligible and its sleep is delayed; task 1 is picked with vprot* =
// min(v0 + 1.5 ms, v0 + min(3 ms, 0.3 ms)) = v0 + 0.3 ms. At 0.25 ms task 2 wakes
// (lag -0.1 ms: kept, still ineligible); the check charges task 1 50 us, PREEMPT_SHORT
// applies (0.3 < 3 ms) but task 1 is the pick, and update_protect_slice leaves
// vprot at min(v0 + 0.3 ms, v0 + 0.05 + 0.3 ms). The tick at 0.5 ms charges 250 us:
// vruntime = v0 + 0.3 ms = vprot, a reschedule (task 2 runs).
std::string p1(const std::string& features = "") {
  return "eevdf-trace 1\n"
         "topology 1x1\n" +
         (features.empty() ? "" : "features " + features + "\n") +
         "task 1 slice=3ms\n"
         "task 2 slice=0.3ms\n"
         "@0 fork 2\n"
         "@0 fork 1\n"
         "@0.2ms sleep 2\n"
         "@0.25ms wake 2\n"
         "@0.5ms tick 0\n"
         "@0.8ms tick 0\n"
         "@1.2ms tick 0\n"
         "@1.6ms tick 0\n";
}
constexpr int kP1Wake = 8;    // the line of `@0.25ms wake 2` (no features line)
constexpr int kP1Tick05 = 9;  // the line of `@0.5ms tick 0`

// Two CPUs, mixed nice and slices (0.05 ms and 200 ms are clamped to 0.1 and
// 100 ms): sleeps, a delayed sleep, a yield, renices of queued and running tasks
// (nice up and down), setslice, wakeup migration, queued migration, wakes.
const char* const kProtectionMix = R"(eevdf-trace 1
topology 1x2
task 1
task 2 nice=5
task 3 slice=0.3ms
task 4 nice=-3 slice=5ms
task 5 cpu=1 slice=0.05ms
task 6 cpu=1 slice=200ms
@0 fork 1
@0 fork 2
@0 fork 3
@0 fork 4
@0 fork 5
@0 fork 6
@0.5ms tick all
@1ms tick all
@1.2ms sleep cpu=0
@1.5ms tick all
@2ms tick all
@2.2ms yield cpu=0
@2.5ms tick all
@3ms renice 4 2
@3.5ms tick all
@4ms setslice 1 1ms
@4.5ms tick all
@5ms sleep cpu=0
@5.5ms tick all
@6ms sleep cpu=1
@6.2ms renice 3 -5
@6.5ms wake 4 cpu=1
@6.7ms wake 5
@7ms tick all
@7.2ms renice 3 4
@7.5ms migrate 2 cpu=1
@8ms tick all
@8.2ms wake 1
@8.5ms tick all
@9ms tick all
@9.5ms tick all
@10ms tick all
)";

template <class A>
int run_all(const std::string& text, const std::vector<std::string>& injections = {}) {
  Harness<A> h(text, kAll, injections);
  h.apply_until();
  return static_cast<int>(h.sink.violations.size());
}

}  // namespace

TEST_CASE("protection properties hold on faithful runs", "[properties][protection]") {
  CHECK(run_all<K>(kProtectionMix) == 0);
  CHECK(run_all<I>(kProtectionMix) == 0);
  CHECK(run_all<K>(with_features(kProtectionMix, "RUN_TO_PARITY_WAKEUP")) == 0);
  CHECK(run_all<I>(with_features(kProtectionMix, "RUN_TO_PARITY_WAKEUP")) == 0);
  for (const char* features : {"", "NO_RUN_TO_PARITY", "NO_PREEMPT_SHORT", "RUN_TO_PARITY_WAKEUP", "NO_DELAY_ZERO"}) {
    CAPTURE(features);
    CHECK(run_all<K>(p1(features)) == 0);
    CHECK(run_all<I>(p1(features)) == 0);
  }
}

TEST_CASE("slice_protection catches parity_ignores_min_slice", "[properties][protection]") {
  // Faithful: after the wake, task 1's vprot is 0.3 ms past its vruntime at the
  // pick, i.e. 0.25 ms ahead of its vruntime (it has run 50 us); injected, curr is
  // protected to its deadline, 1.5 ms past the pick, so the tick at 0.5 ms (where
  // vprot* = vruntime) does not reschedule.
  Harness<K> faithful(p1(), {"slice_protection"});
  faithful.apply_until(kP1Wake);
  CHECK(faithful.task(1).se.vprot - faithful.task(1).se.vruntime == 250'000);
  faithful.apply_until();
  CHECK(faithful.sink.violations.empty());

  Harness<K> injected(p1(), {"slice_protection"}, {"parity_ignores_min_slice"});
  injected.apply_until(kP1Wake);
  CHECK(injected.task(1).se.vprot - injected.task(1).se.vruntime == 1'450'000);
  injected.apply_until();
  REQUIRE(injected.sink.count("slice_protection") >= 1);
  CHECK(injected.sink.violations.front().line == kP1Tick05);
  CHECK(injected.sink.violations.front().task == 1);

  Harness<I> ideal(p1(), {"slice_protection"}, {"parity_ignores_min_slice"});
  ideal.apply_until();
  CHECK(ideal.sink.count("slice_protection") >= 1);
}

TEST_CASE("slice_protection recomputes vprot itself (NO_RUN_TO_PARITY: 0.7 ms)", "[properties][protection]") {
  // Four CPUs: base slice 3 * 0.7 = 2.1 ms. Task 1 forks first and runs, deadline
  // v0 + 1.05 ms (half a slice); NO_RUN_TO_PARITY protects min(2.1, 0.7) = 0.7 ms:
  // vprot* = v0 + 0.7 ms. The tick at 0.5 ms leaves it running; the one at 1 ms
  // (vruntime v0 + 1 ms, before the deadline) must reschedule.
  const char* const text = R"(eevdf-trace 1
topology 1x4
features NO_RUN_TO_PARITY
task 1
task 2
@0 fork 1
@0 fork 2
@0.5ms tick 0
@1ms tick 0
)";
  Harness<K> faithful(text, {"slice_protection"});
  faithful.apply_until(8);
  CHECK(faithful.rq(0).curr->id == 1);
  faithful.apply_until();
  CHECK(faithful.rq(0).curr->id == 2);
  CHECK(faithful.sink.violations.empty());

  // A model that protected task 1 up to its deadline would keep it at 1 ms.
  Harness<K> corrupted(text, {"slice_protection"});
  corrupted.apply_until(8);
  corrupted.task(1).se.vprot = corrupted.task(1).se.deadline;
  corrupted.apply_until();
  CHECK(corrupted.sink.count("slice_protection") == 1);
}

TEST_CASE("lone_no_resched: a lone entity is never asked to reschedule", "[properties][protection]") {
  // One task, 0.7 ms slice, ticked every ms: its deadline is renewed at each tick,
  // but with one queued entity update_curr returns before asking.
  const char* const text = R"(eevdf-trace 1
topology 1x1
task 1
task 2
@0 fork 1
@1ms tick 0
@2ms tick 0
@3ms tick 0
@3ms fork 2
)";
  Harness<K> h(text, {"lone_no_resched"});
  h.apply_until(8);
  CHECK(h.sink.violations.empty());
  const auto& cfs = h.rq(0).cfs;
  h.checker().charged(cfs, *cfs.curr, 1'000'000, true, true);  // fabricated: asked while alone
  CHECK(h.sink.count("lone_no_resched") == 1);
  h.apply_until();  // two queued now: asking is allowed
  h.checker().charged(cfs, *cfs.curr, 1'000'000, true, true);
  CHECK(h.sink.count("lone_no_resched") == 1);
}

TEST_CASE("slice_sane: bounds and the refreshed default slice", "[properties][protection]") {
  SECTION("faithful: clamped custom slices, setslice, default slices") {
    Harness<K> h(kProtectionMix, {"slice_sane"});
    h.apply_until();
    CHECK(h.sink.violations.empty());
    CHECK(h.task(5).se.slice == 100'000);       // 0.05 ms clamped up
    CHECK(h.task(6).se.slice == 100'000'000);   // 200 ms clamped down
    CHECK(h.task(2).se.slice == 1'400'000);     // default: 2 * 0.7 ms on two CPUs
  }
  SECTION("a custom slice below 0.1 ms") {
    Harness<K> h(kProtectionMix, {"slice_sane"});
    h.apply_until(14);
    h.task(3).se.slice = 50'000;
    h.apply_until(15);
    CHECK(h.sink.count("slice_sane") >= 1);
  }
  SECTION("a slice of 0") {
    Harness<K> h(kProtectionMix, {"slice_sane"});
    h.apply_until(14);
    h.task(2).se.slice = 0;
    h.apply_until(15);
    CHECK(h.sink.count("slice_sane") >= 1);
  }
  SECTION("a default slice that is not the base slice right after placement") {
    Harness<K> h(kProtectionMix, {"slice_sane"});
    h.apply_until(14);
    auto& se = h.task(2).se;
    se.slice = 1'000'000;  // within bounds: only the placement rule is broken
    h.apply_until(15);
    CHECK(h.sink.violations.empty());
    h.checker().placed(h.rq(0).cfs, se, 0, {}, false, {});
    CHECK(h.sink.count("slice_sane") == 1);
  }
}

TEST_CASE("min_slice_exact: the minimum slice protection uses", "[properties][protection]") {
  // After `fork 1`, task 2 (0.3 ms) runs; the only other queued entity is task 1
  // (3 ms), so the true minimum beside task 2 is 3 ms.
  Harness<K> h(p1(), {"min_slice_exact"});
  h.apply_until(6);
  CHECK(h.sink.violations.empty());
  const auto& cfs = h.rq(0).cfs;
  const auto& curr = *cfs.curr;
  h.checker().protection_set(cfs, curr, 3'000'000);
  CHECK(h.sink.violations.empty());
  h.checker().protection_set(cfs, curr, 300'000);  // its own slice: not another entity's
  CHECK(h.sink.count("min_slice_exact") == 1);

  Harness<K> off(p1("NO_RUN_TO_PARITY"), {"min_slice_exact"});
  off.apply_until(7);
  off.checker().protection_set(off.rq(0).cfs, *off.rq(0).cfs.curr, ~std::uint64_t{0});
  CHECK(off.sink.violations.empty());  // without RUN_TO_PARITY it is not used
}

TEST_CASE("wakeup_preempt_rule catches a pick that disagrees with the queue", "[properties][protection]") {
  // p1 with NO_DELAY_ZERO (the woken task keeps its vruntime, v0 + 0.2 ms). At the
  // wake, the true V is v0 + 0.125 ms: task 2 is ineligible, task 1 stays. Adding
  // 1024 * 1 ms to the kept sum S moves the model's V by 0.5 ms, so it sees task 2
  // eligible with the earlier deadline (v0 + 0.5 ms < v0 + 1.5 ms) and preempts.
  const std::string text = p1("NO_DELAY_ZERO");
  Harness<K> faithful(text, {"wakeup_preempt_rule"});
  faithful.apply_until();
  CHECK(faithful.sink.violations.empty());

  Harness<K> corrupted(text, {"wakeup_preempt_rule"});
  corrupted.apply_until(kP1Wake);  // up to the sleep (the features line shifts lines by one)
  corrupted.rq(0).cfs.avg_vruntime += K::value(1024) * 1'000'000;
  corrupted.apply_until(kP1Wake + 1);
  REQUIRE(corrupted.sink.count("wakeup_preempt_rule") == 1);
  CHECK(corrupted.sink.violations.front().task == 2);
  CHECK(corrupted.rq(0).curr->id == 2);
}

TEST_CASE("wakeup_preempt_rule: a schedule follows iff the check preempted", "[properties][protection]") {
  // The state after the wake of p1: curr task 1, task 2 ineligible: the rule says
  // no preemption. Fabricated: the check agrees, but a schedule runs anyway.
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  auto& rq = h.rq(0);
  const auto& se1 = h.task(1).se;
  const auto& se2 = h.task(2).se;
  const auto e = tick_event();
  h.checker().before_event(e);
  h.checker().wakeup_pick_step(rq, se1, se2, true);
  h.checker().wakeup_decided(rq, se2, false);
  h.checker().after_event(e);
  CHECK(h.sink.violations.empty());
  h.checker().before_event(e);
  h.checker().wakeup_pick_step(rq, se1, se2, true);
  h.checker().wakeup_decided(rq, se2, false);
  h.checker().picked(rq, &se1, false);
  h.checker().after_event(e);
  CHECK(h.sink.count("wakeup_preempt_rule") == 1);
  // A pending reschedule at the pick step (asked by the check's update_curr): not judged.
  rq.need_resched = true;
  h.checker().before_event(e);
  h.checker().wakeup_pick_step(rq, se1, se2, true);
  h.checker().wakeup_decided(rq, se2, true);
  rq.need_resched = false;
  h.checker().picked(rq, &se1, false);
  h.checker().after_event(e);
  CHECK(h.sink.count("wakeup_preempt_rule") == 1);
}

// One wakeup check of task 2 under curr task 1 in p1, fabricated hook by hook: begun
// for `wakee` and, with `picks`, reaching its pick step and deciding not to preempt.
namespace {
void wakeup_check(Harness<K>& h, int wakee, bool picks) {
  auto& rq = h.rq(0);
  const auto e = tick_event();
  h.checker().before_event(e);
  h.checker().wakeup_entered(rq, h.task(wakee).se);
  if (picks) {
    h.checker().wakeup_pick_step(rq, h.task(1).se, h.task(wakee).se, true);
    h.checker().wakeup_decided(rq, h.task(wakee).se, false);
  }
  h.checker().after_event(e);
}
}  // namespace

TEST_CASE("wakeup_preempt_rule: a check with no reschedule pending reaches its pick", "[properties][protection]") {
  // The state after the wake of p1: curr task 1, task 2 queued, nothing pending.
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  auto& rq = h.rq(0);
  REQUIRE(rq.curr->id == 1);
  REQUIRE_FALSE(rq.need_resched);
  wakeup_check(h, 2, true);  // judged by the pick's own rule: nothing to say here
  CHECK(h.sink.violations.empty());
  wakeup_check(h, 2, false);  // returned before its pick: a violation on the wakee
  REQUIRE(h.sink.count("wakeup_preempt_rule") == 1);
  CHECK(h.sink.violations.front().task == 2);
  // The returns the rule allows: curr itself, a pending reschedule.
  wakeup_check(h, 1, false);
  rq.need_resched = true;
  wakeup_check(h, 2, false);
  rq.need_resched = false;
  CHECK(h.sink.count("wakeup_preempt_rule") == 1);
  // A tree whose check returns before its pick unless PREEMPT_SHORT sends a shorter
  // wakee there: task 2 (0.3 ms) under curr's 3 ms is judged ...
  REQUIRE(h.env().m.config().feat(eevdf::model::Feature::PREEMPT_SHORT));
  REQUIRE(h.task(2).se.slice < h.task(1).se.slice);
  h.env().wakeup_returns_before_pick = true;
  wakeup_check(h, 2, false);
  CHECK(h.sink.count("wakeup_preempt_rule") == 2);
  // ... a wakee with curr's slice is not.
  h.task(2).se.slice = h.task(1).se.slice;
  wakeup_check(h, 2, false);
  CHECK(h.sink.count("wakeup_preempt_rule") == 2);
}

TEST_CASE("wakeup_preempt_rule: a check returns before its pick with a reschedule pending", "[properties][protection]") {
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  h.rq(0).need_resched = true;
  wakeup_check(h, 2, false);
  CHECK(h.sink.violations.empty());
  wakeup_check(h, 2, true);  // went on to its pick
  REQUIRE(h.sink.count("wakeup_preempt_rule") == 1);
  CHECK(h.sink.violations.back().task == 2);
}

// charge_rule's statement at the wakeup check's pick step, on this file's wakeup scenario.
TEST_CASE("charge_rule: the wakeup check's pick sees curr charged up to now", "[properties][charge]") {
  Harness<K> h(p1(), {"charge_rule"});
  h.apply_until(kP1Wake);
  REQUIRE(h.task(1).se.exec_start == h.env().now);
  wakeup_check(h, 2, true);
  CHECK(h.sink.violations.empty());
  h.task(1).se.exec_start -= 1000;  // 1 us of curr's run left uncharged
  wakeup_check(h, 2, true);  // its fabricated event is a tick: the tick's rule fails too
  int at_pick = 0;
  for (const auto& v : h.sink.violations)
    if (v.property == "charge_rule" && v.task == 1 && v.explanation.find("the wakeup check's pick") != std::string::npos)
      ++at_pick;
  CHECK(at_pick == 1);
}

TEST_CASE("wakeup_preempt_rule: a renice of curr follows prio_changed_fair", "[properties][protection]") {
  // Task 1 runs beside task 2. Raising its nice must reschedule; lowering it need
  // not (its update_curr did not ask: nothing was charged since the wake).
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  REQUIRE(h.rq(0).curr->id == 1);
  eevdf::trace::Event e;
  e.verb = eevdf::trace::Verb::renice;
  e.task = 1;
  e.nice = -5;
  h.checker().before_event(e);
  h.checker().after_event(e);
  CHECK(h.sink.violations.empty());
  e.nice = 5;
  h.checker().before_event(e);
  h.checker().after_event(e);  // fabricated: no schedule ran
  CHECK(h.sink.count("wakeup_preempt_rule") == 1);
}

TEST_CASE("wakeup_preempt_rule: a check that reaches its pick step picks", "[properties][protection]") {
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  auto& rq = h.rq(0);
  const auto e = tick_event();
  h.checker().before_event(e);
  h.checker().wakeup_entered(rq, h.task(2).se);
  h.checker().wakeup_pick_step(rq, h.task(1).se, h.task(2).se, true);
  h.checker().after_event(e);  // fabricated: it decided without its pick
  REQUIRE(h.sink.count("wakeup_preempt_rule") == 1);
  CHECK(h.sink.violations.back().task == 2);
}

TEST_CASE("wakeup_preempt_rule: a renice of a queued task runs the wakeup check", "[properties][protection]") {
  // Task 1 runs beside task 2: a renice of task 2 ends with a wakeup check for it
  // (prio_changed_fair); one to its own nice changes nothing.
  Harness<K> h(p1(), {"wakeup_preempt_rule"});
  h.apply_until(kP1Wake);
  auto& rq = h.rq(0);
  REQUIRE(rq.curr->id == 1);
  eevdf::trace::Event e;
  e.verb = eevdf::trace::Verb::renice;
  e.task = 2;
  e.nice = 5;
  h.checker().before_event(e);
  h.checker().wakeup_entered(rq, h.task(2).se);
  h.checker().wakeup_pick_step(rq, h.task(1).se, h.task(2).se, true);
  h.checker().wakeup_decided(rq, h.task(2).se, false);
  h.checker().after_event(e);
  CHECK(h.sink.violations.empty());
  h.checker().before_event(e);
  h.checker().after_event(e);  // fabricated: no check ran
  REQUIRE(h.sink.count("wakeup_preempt_rule") == 1);
  CHECK(h.sink.violations.back().task == 2);
  e.nice = h.task(2).nice;
  h.checker().before_event(e);
  h.checker().after_event(e);
  CHECK(h.sink.count("wakeup_preempt_rule") == 1);
}

TEST_CASE("wakeup_preempt_rule follows RUN_TO_PARITY_WAKEUP", "[properties][protection]") {
  // One CPU. Task 1 (3 ms) runs beside task 2 (100 ms): both deadlines are half a
  // slice away, so vprot = task 1's deadline v0 + 1.5 ms (min(3, 100) = its own
  // slice). At 1 ms task 1 is at v0 + 1 ms, V = v0 + 0.5 ms: ineligible, protected.
  // Task 3 (3 ms, not shorter) forks at V with deadline v0 + 2 ms, earlier than
  // task 2's v0 + 50 ms. Kernel rule: curr is dropped as ineligible and task 3 is
  // the pick, so it preempts; with RUN_TO_PARITY_WAKEUP the protected curr stays.
  const std::string text = R"(eevdf-trace 1
topology 1x1
task 1 slice=3ms
task 2 slice=100ms
task 3 slice=3ms
@0 fork 1
@0 fork 2
@1ms tick 0
@1ms fork 3
)";
  Harness<K> kernel(text, kAll);
  kernel.apply_until();
  CHECK(kernel.sink.violations.empty());
  CHECK(kernel.rq(0).curr->id == 3);
  Harness<I> rfc(with_features(text, "RUN_TO_PARITY_WAKEUP"), kAll);
  rfc.apply_until();
  CHECK(rfc.sink.violations.empty());
  CHECK(rfc.rq(0).curr->id == 1);
}

TEST_CASE("wakeup_preempt_rule: a tree whose wakeup pick takes the next buddy", "[properties][protection]") {
  // Env::wakeup_picks_buddy: the check's pick returns an eligible next buddy first;
  // wakeup_buddy_only_protected: only when it protects curr (no PREEMPT_SHORT). The
  // reference's pick never takes it, so where the rules part, the reference's decision
  // is a violation of the tree's rule. One CPU, equal weights, NEXT_BUDDY: the woken
  // task becomes the next buddy before the pick step.
  //
  // Protected: task 1 (3 ms) is forked on the idle CPU at X: deadline = vprot = X + 1.5 ms.
  // Task 2 (3 ms, not shorter) wakes at 0.1 ms with lag 0 at V = v1 = X + 0.1 ms:
  // eligible. The reference keeps the protected eligible curr (no preemption); the
  // buddy rule picks task 2, with or without only_protected.
  const char* const protected_text = R"(eevdf-trace 1
topology 1x1
features NEXT_BUDDY
task 1 slice=3ms
task 2 slice=3ms
@0 fork 2
@0 sleep 2
@0 fork 1
@0.1ms wake 2
)";
  // PREEMPT_SHORT: task 3 (3 ms) forks beside task 1 at X, deadline X + 1.5 ms (a fork
  // sets no buddy, and does not preempt the protected curr). At 0.1 ms V = (X + 0.1 ms
  // + X) / 2 = X + 0.05 ms; task 2 (2 ms, shorter) wakes there, deadline X + 2.05 ms.
  // The pick without protection drops curr (X + 0.1 ms > V: ineligible) and picks task 3
  // (X + 1.5 ms < X + 2.05 ms): no preemption. Only a buddy taken under PREEMPT_SHORT
  // picks task 2.
  const char* const short_text = R"(eevdf-trace 1
topology 1x1
features NEXT_BUDDY
task 1 slice=3ms
task 2 slice=2ms
task 3 slice=3ms
@0 fork 2
@0 sleep 2
@0 fork 1
@0 fork 3
@0.1ms wake 2
)";
  const auto violations = [](const char* text, bool takes, bool only_protected) {
    Harness<K> h(text, {"wakeup_preempt_rule"});
    h.env().wakeup_picks_buddy = takes;
    h.env().wakeup_buddy_only_protected = only_protected;
    h.apply_until();
    CHECK(h.rq(0).curr->id == 1);  // the reference never preempted
    return h.sink.count("wakeup_preempt_rule");
  };
  CHECK(violations(protected_text, false, false) == 0);
  CHECK(violations(protected_text, true, false) == 1);
  CHECK(violations(protected_text, true, true) == 1);
  CHECK(violations(short_text, false, false) == 0);
  CHECK(violations(short_text, true, false) == 1);
  CHECK(violations(short_text, true, true) == 0);
}

TEST_CASE("slice_protection: a shrunk slice of curr keeps protection to its deadline", "[properties][protection]") {
  // §7.3 and fair.c set_protect_slice: vprot = deadline, lowered only when the
  // slice used differs from curr's own. Task 1 (3 ms) runs beside task 2 (3 ms),
  // deadline v0 + 1.5 ms. `setslice 1 0.5ms` at 0.1 ms keeps that deadline
  // (relative, §19) and re-sets protection with s = min(3, 0.5) = its own slice:
  // vprot = deadline, not vruntime + 0.5 ms. So the tick at 1 ms does not
  // reschedule, and the one at 1.55 ms (past the deadline) does.
  const char* const text = R"(eevdf-trace 1
topology 1x1
task 1 slice=3ms
task 2 slice=3ms
@0 fork 1
@0 fork 2
@0.1ms setslice 1 0.5ms
@1ms tick 0
@1.45ms tick 0
@1.55ms tick 0
)";
  Harness<K> h(text, kAll);
  h.apply_until(9);
  CHECK(h.rq(0).curr->id == 1);
  h.apply_until();
  CHECK(h.rq(0).curr->id == 2);
  CHECK(h.sink.violations.empty());
  Harness<I> ideal(text, kAll);
  ideal.apply_until();
  CHECK(ideal.sink.violations.empty());
}

TEST_CASE("slice_protection: a tree whose wakeup check always limits protection", "[properties][protection]") {
  // Env::wakeup_limits_protection_always: a wakeup check that picks and does not
  // preempt limits curr's protection to the shortest queued slice (RUN_TO_PARITY),
  // whatever the slices. Task 1 (3 ms) is forked on the idle CPU at X: deadline and
  // vprot X + 1.5 ms. Task 2 (0.5 ms) wakes at 0.1 ms with lag 0 at V = X + 0.1 ms;
  // without PREEMPT_SHORT the check keeps protected curr (v1 = X + 0.1 ms). The rule
  // then sets vprot* = X + 0.1 ms + 0.5 ms = X + 0.6 ms; the 6.18 reference keeps
  // X + 1.5 ms, so at the tick at 1 ms (v1 = X + 1 ms, before the deadline) it does not
  // reschedule: exactly one violation under the rule, none under 6.18's.
  const char* const text = R"(eevdf-trace 1
topology 1x1
features NO_PREEMPT_SHORT
task 1 slice=3ms
task 2 slice=0.5ms
@0 fork 2
@0 sleep 2
@0 fork 1
@0.1ms wake 2
@1ms tick 0
)";
  Harness<K> reference(text, {"slice_protection"});
  reference.apply_until();
  CHECK(reference.sink.violations.empty());
  CHECK(reference.rq(0).curr->id == 1);
  Harness<K> always(text, {"slice_protection"});
  always.env().wakeup_limits_protection_always = true;
  always.apply_until(9);
  CHECK(always.sink.violations.empty());
  always.apply_until();
  REQUIRE(always.sink.count("slice_protection") == 1);
  CHECK(always.sink.violations[0].values.find("shrunk by a wakeup check that did not preempt, to slice 500000 ns") !=
        std::string::npos);
}

TEST_CASE("slice_protection: a curr set again without set_protect_slice keeps its vprot*", "[properties][protection]") {
  // After `sleep 2` (0.2 ms) task 1 runs from v = v0 (forked at V, never ran) with
  // deadline v + 1.5 ms and vprot* = v + min(3 ms, 0.3 ms) = v + 0.3 ms (task 2, delayed,
  // is still queued). Set again as set_next_entity(..., first = false) does (a renice
  // on 7.0+: no set_protect_slice), it keeps vprot*: at v + 0.4 ms it is unprotected
  // and before its deadline, so a charge there must reschedule.
  Harness<K> kept(p1(), {"slice_protection"});
  kept.apply_until(7);
  auto& curr = kept.task(1).se;
  REQUIRE(kept.rq(0).cfs.curr == &curr);
  const K::value v = curr.vruntime;
  kept.checker().set_next(kept.rq(0).cfs, curr);
  curr.vruntime = v + 400'000;
  kept.changed();
  kept.checker().charged(kept.rq(0).cfs, curr, 1, false, true);
  CHECK(kept.sink.violations.empty());
  kept.checker().charged(kept.rq(0).cfs, curr, 1, false, false);
  CHECK(kept.sink.count("slice_protection") == 1);

  // With set_protect_slice after it (6.18's set_next_entity) vprot* is set anew from
  // there: v + 0.4 ms + 0.3 ms, so the same charge must not reschedule.
  Harness<K> renewed(p1(), {"slice_protection"});
  renewed.apply_until(7);
  auto& again = renewed.task(1).se;
  renewed.checker().set_next(renewed.rq(0).cfs, again);
  again.vruntime = again.vruntime + 400'000;
  renewed.changed();
  renewed.checker().protection_set(renewed.rq(0).cfs, again, 300'000);
  renewed.checker().charged(renewed.rq(0).cfs, again, 1, false, false);
  CHECK(renewed.sink.violations.empty());
  renewed.checker().charged(renewed.rq(0).cfs, again, 1, false, true);
  CHECK(renewed.sink.count("slice_protection") == 1);
}
