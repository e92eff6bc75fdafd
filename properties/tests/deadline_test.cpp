// Tests of properties/deadline.h: deadline_rule and yield_rule. Each holds on faithful
// runs (both arithmetics, both profiles, several feature sets), the model's values
// are the rule's, worked by hand in the comments, and each check fires on a state or
// hook call that breaks its rule.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/flags.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using eevdf::properties::testing::with_features;
using K = eevdf::model::KernelArith;
using I = eevdf::model::IdealArith;
using P612 = eevdf::model::profile_6_12;

namespace {

const std::vector<std::string> kBoth{"deadline_rule", "yield_rule"};

// Eight CPUs: the base slice is 4 x 0.7 ms = 2.8 ms (docs/MODEL.md §2). Task 1 (nice 0)
// forks onto the idle CPU 0: vruntime = v0, deadline = v0 + 2.8 ms / 2. Task 2 (nice
// 5, w = 335) forks beside it with lag 0 at V = v0: deadline = v0 +
// floor(calc_delta_fair(2.8 ms) / 2) = v0 + floor(8558806 / 2) = v0 + 4279403 (the
// table of §1.3). At 1 ms task 1 has run 1 ms, before its deadline: no renewal. At
// 2 ms its vruntime (v0 + 2 ms) is past v0 + 1.4 ms: renewed to vruntime + 2.8 ms.
std::string placements(const std::string& kernel = "6.18") {
  return "eevdf-trace 1\nkernel " + kernel +
         "\n"
         "topology 1x8\n"
         "task 1 cpu=0\n"
         "task 2 nice=5 cpu=0\n"
         "@0 fork 1\n"
         "@0 fork 2\n"
         "@1ms tick 0\n"
         "@2ms tick 0\n";
}
constexpr int kFork2 = 7;  // the line of `@0 fork 2`
constexpr int kTick2 = 9;  // the line of `@2ms tick 0`

// One CPU, base slice 0.7 ms, two nice-0 tasks. Task 1 forks at 0 (deadline v0 +
// 0.35 ms); at 0.1 ms the fork of task 2 charges it 0.1 ms and places task 2 at V =
// task 1's vruntime, deadline 0.35 ms after it. Then `event` at `time`.
std::string two_tasks(const std::string& event, const std::string& kernel = "6.18") {
  return "eevdf-trace 1\nkernel " + kernel +
         "\n"
         "topology 1x1\n"
         "task 1\n"
         "task 2\n"
         "@0 fork 1\n"
         "@0.1ms fork 2\n" +
         event + "\n";
}
constexpr int kSecondFork = 7;

// Two CPUs, mixed nice and slices: forks, and renice and setslice re-placements with
// a relative deadline (wakeups and migrations are in the generated traces of
// generated_test.cpp), renewals at ticks, yields beside other tasks and alone.
const char* const kMix = R"(eevdf-trace 1
topology 1x2
task 1
task 2 nice=5
task 3 slice=0.3ms
task 4 nice=-3 slice=5ms
task 5 cpu=1 slice=0.05ms
task 6 cpu=1
@0 fork 1
@0 fork 2
@0 fork 3
@0 fork 4
@0 fork 5
@0.5ms tick all
@1ms yield cpu=0
@1.2ms yield cpu=1
@1.5ms tick all
@2ms tick all
@2.2ms yield cpu=0
@2.5ms tick all
@3ms renice 4 2
@3.5ms tick all
@4ms setslice 1 1ms
@4.2ms yield cpu=0
@4.5ms tick all
@5ms sleep cpu=0
@5.5ms tick all
@5.7ms fork 6
@6ms sleep cpu=1
@6.2ms renice 3 -5
@7ms tick all
@7.2ms renice 3 4
@7.7ms yield cpu=1
@8ms tick all
@8.5ms tick all
@9ms yield cpu=0
@9.5ms tick all
@10ms tick all
)";

std::string as_612(const std::string& text) {
  return "eevdf-trace 1\nkernel 6.12\n" + text.substr(text.find('\n') + 1);
}

template <class A, class P = eevdf::model::profile_6_18>
int violations(const std::string& text) {
  Harness<A, P> h(text, kBoth);
  h.apply_until();
  return static_cast<int>(h.sink.violations.size());
}

eevdf::trace::Event yield_of(int task, std::uint64_t time_ns) {
  eevdf::trace::Event e;
  e.verb = eevdf::trace::Verb::yield;
  e.task = task;
  e.time_ns = time_ns;
  return e;
}

}  // namespace

TEST_CASE("deadline_rule and yield_rule hold on faithful runs", "[properties][deadline]") {
  for (const char* features : {"", "NO_PLACE_DEADLINE_INITIAL", "NO_PLACE_REL_DEADLINE", "NO_PLACE_LAG",
                               "NO_DELAY_DEQUEUE", "NEXT_BUDDY"}) {
    CAPTURE(features);
    const std::string text = *features == '\0' ? std::string(kMix) : with_features(kMix, features);
    CHECK(violations<K>(text) == 0);
    CHECK(violations<I>(text) == 0);
    CHECK(violations<K, P612>(as_612(text)) == 0);
    CHECK(violations<I, P612>(as_612(text)) == 0);
  }
  // Each is judged there: kMix places, renews and yields.
  Harness<K> h(kMix, kBoth);
  h.apply_until();
  h.checker().for_each([](const auto& p) {
    if (p.name() == "deadline_rule" || p.name() == "yield_rule") CHECK(p.evaluated() > 0);
  });
}

TEST_CASE("deadline_rule: the placed and renewed deadlines worked by hand", "[properties][deadline]") {
  for (const char* kernel : {"6.18", "6.12"}) {
    CAPTURE(kernel);
    const auto check = [&](auto& h) {
      h.apply_until(kFork2);
      CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 1'400'000);
      CHECK(h.task(2).se.deadline - h.task(2).se.vruntime == 4'279'403);
      CHECK(h.task(2).se.vruntime == h.task(1).se.vruntime);
      h.apply_until(kTick2);
      CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 2'800'000);
      CHECK(h.sink.violations.empty());
    };
    if (std::string(kernel) == "6.12") {
      Harness<K, P612> h(placements(kernel), {"deadline_rule"});
      check(h);
    } else {
      Harness<K> h(placements(kernel), {"deadline_rule"});
      check(h);
    }
  }
}

TEST_CASE("deadline_rule fails on a deadline that is not the rule's", "[properties][deadline]") {
  using eevdf::model::ENQUEUE_INITIAL;
  Harness<K> h(placements(), {"deadline_rule"});
  h.apply_until(kFork2);
  const auto& cfs = h.rq(0).cfs;
  auto& se2 = h.task(2).se;
  // The fork's placement as it is: clean, whatever flags the implementation passed
  // (a fork is known from the trace).
  h.checker().placed(cfs, se2, 0, 0, false, 0);
  CHECK(h.sink.violations.empty());
  // A placement in another event (a tick) gets the whole 8558806 after vruntime, even
  // when the implementation passes ENQUEUE_INITIAL.
  h.checker().before_event(eevdf::properties::testing::tick_event());
  h.checker().placed(cfs, se2, ENQUEUE_INITIAL, 0, false, 0);
  REQUIRE(h.sink.count("deadline_rule") == 1);
  CHECK(h.sink.violations.back().values.find("expected " + K::to_string(se2.vruntime + 8'558'806)) !=
        std::string::npos);
  // At task 2's fork again: one nanosecond off the halved slice.
  eevdf::trace::Event fork2;
  fork2.verb = eevdf::trace::Verb::fork;
  fork2.task = 2;
  h.checker().before_event(fork2);
  se2.deadline += 1;
  h.changed();
  h.checker().placed(cfs, se2, 0, 0, false, 0);
  CHECK(h.sink.count("deadline_rule") == 2);
  // A relative deadline of 5 ms carried in: deadline = vruntime + 5 ms exactly.
  se2.deadline = se2.vruntime + 5'000'000;
  h.changed();
  h.checker().placed(cfs, se2, 0, 0, true, 5'000'000);
  CHECK(h.sink.count("deadline_rule") == 2);
  h.checker().placed(cfs, se2, 0, 0, true, 4'999'999);
  CHECK(h.sink.count("deadline_rule") == 3);
  // A default slice that is not the base slice after a placement.
  se2.slice = 2'800'001;
  h.changed();
  h.checker().placed(cfs, se2, 0, 0, true, 5'000'000);
  CHECK(h.sink.count("deadline_rule") == 4);
}

TEST_CASE("deadline_rule fails on a renewal that is not the rule's, or a missing one", "[properties][deadline]") {
  Harness<K> h(placements(), {"deadline_rule"});
  h.apply_until(kTick2);
  const auto& cfs = h.rq(0).cfs;
  auto& se1 = h.task(1).se;
  h.checker().charged(cfs, se1, 1'000'000, true, true);
  CHECK(h.sink.violations.empty());
  se1.deadline += 1;  // vruntime + 2.8 ms + 1
  h.changed();
  h.checker().charged(cfs, se1, 1'000'000, true, true);
  CHECK(h.sink.count("deadline_rule") == 1);
  // Not renewed although vruntime reached the deadline (update_deadline's test, §5.2).
  se1.deadline = se1.vruntime;
  h.changed();
  h.checker().charged(cfs, se1, 1'000'000, false, false);
  CHECK(h.sink.count("deadline_rule") == 2);
  se1.deadline = se1.vruntime + 1;
  h.changed();
  h.checker().charged(cfs, se1, 1'000'000, false, false);
  CHECK(h.sink.count("deadline_rule") == 2);
}

TEST_CASE("deadline_rule keeps a custom slice as it was requested", "[properties][deadline]") {
  // Task 1 asks for 3 ms; `setslice 1 0` at 1 ms gives it the base slice (0.7 ms on
  // one CPU) again, `setslice 1 0.05ms` at 2 ms the clamped 0.1 ms.
  Harness<K> h("eevdf-trace 1\ntopology 1x1\ntask 1 slice=3ms\ntask 2\n@0 fork 1\n@0 fork 2\n"
               "@1ms setslice 1 0\n@2ms setslice 1 0.05ms\n@3ms tick 0\n",
               {"deadline_rule"});
  h.apply_until(6);
  const auto& cfs = h.rq(0).cfs;
  auto& se1 = h.task(1).se;
  CHECK(se1.slice == 3'000'000);
  // A renewal that refreshed the custom slice to the base slice.
  se1.slice = 700'000;
  se1.deadline = se1.vruntime + 700'000;
  h.changed();
  h.checker().charged(cfs, se1, 1, true, false);
  CHECK(h.sink.count("deadline_rule") == 1);
  se1.slice = 3'000'000;
  se1.deadline = se1.vruntime + 3'000'000;
  h.changed();
  h.checker().charged(cfs, se1, 1, true, false);
  CHECK(h.sink.count("deadline_rule") == 1);
  h.apply_until();
  CHECK(h.task(1).se.slice == 100'000);
  CHECK(h.sink.count("deadline_rule") == 1);
}

TEST_CASE("deadline_rule: a setslice takes effect between its dequeue and its placement", "[properties][deadline]") {
  // One CPU (base slice 0.7 ms): task 1 forks with its deadline 0.35 ms away and has
  // run 0.35 ms at the setslice. Its SAVE dequeue charges it and renews the deadline
  // with the old slice, 0.7 ms past vruntime, kept as relative; the RESTORE placement
  // gives it back: deadline - vruntime = 0.7 ms, while the slice is the new 0.1 ms.
  for (const char* kernel : {"6.18", "6.12"}) {
    CAPTURE(kernel);
    const std::string text = std::string("eevdf-trace 1\nkernel ") + kernel +
                             "\ntopology 1x1\ntask 1\n@0 fork 1\n@350us setslice 1 100us\n";
    const auto check = [](auto& h) {
      h.apply_until();
      CHECK(h.task(1).se.slice == 100'000);
      CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 700'000);
      CHECK(h.sink.violations.empty());
    };
    if (std::string(kernel) == "6.12") {
      Harness<K, P612> h(text, {"deadline_rule"});
      check(h);
    } else {
      Harness<K> h(text, {"deadline_rule"});
      check(h);
    }
  }
}

TEST_CASE("yield_rule: yields worked by hand", "[properties][deadline]") {
  for (const char* kernel : {"6.18", "6.12"}) {
    CAPTURE(kernel);
    const auto run = [&](const std::string& event, auto&& check) {
      if (std::string(kernel) == "6.12") {
        Harness<K, P612> h(two_tasks(event, kernel), {"yield_rule"});
        h.apply_until();
        check(h);
        CHECK(h.sink.violations.empty());
      } else {
        Harness<K> h(two_tasks(event, kernel), {"yield_rule"});
        h.apply_until();
        check(h);
        CHECK(h.sink.violations.empty());
      }
    };
    // Eligible: at 0.1 ms nothing is left to charge and both tasks sit at V (lag 0).
    // Task 1 forfeits: vruntime = its deadline (0.35 ms after the fork), deadline +=
    // 0.7 ms; task 2 (0.25 ms behind it now, eligible) runs.
    run("@0.1ms yield 1", [](auto& h) {
      CHECK(h.task(1).se.vruntime - h.task(2).se.vruntime == 250'000);
      CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 700'000);
      CHECK(h.rq(0).curr == &h.task(2));
    });
    // Ineligible: the yield charges task 1 0.1 ms (vruntime 0.2 ms after the fork,
    // before its deadline at 0.35 ms); V is halfway between the two tasks, 0.05 ms
    // behind task 1: it keeps both values, and task 2 runs.
    run("@0.2ms yield 1", [](auto& h) {
      CHECK(h.task(1).se.vruntime - h.task(2).se.vruntime == 100'000);
      CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 150'000);
      CHECK(h.rq(0).curr == &h.task(2));
    });
  }
  // Alone: the yield changes nothing; the schedule after it charges task 1 0.1 ms and
  // picks it again (deadline 0.35 ms after the fork, 0.25 ms ahead).
  Harness<K> h("eevdf-trace 1\ntopology 1x1\ntask 1\n@0 fork 1\n@0.1ms yield 1\n", {"yield_rule"});
  h.apply_until();
  CHECK(h.task(1).se.deadline - h.task(1).se.vruntime == 250'000);
  CHECK(h.sink.violations.empty());
}

TEST_CASE("yield_rule fails on a yield that breaks its rule", "[properties][deadline]") {
  const auto explanation = [](const auto& h) { return h.sink.violations.back().explanation; };
  {  // Alone, a yield that renews the deadline anyway.
    Harness<K> h("eevdf-trace 1\ntopology 1x1\ntask 1\n@0 fork 1\n", {"yield_rule"});
    h.apply_until();
    h.checker().before_event(yield_of(1, 100'000));
    h.task(1).se.deadline += 700'000;
    h.checker().yielded(h.rq(0), h.task(1).se);
    REQUIRE(h.sink.count("yield_rule") == 1);
    CHECK(explanation(h).find("one task changes nothing") != std::string::npos);
  }
  {  // Eligible (lag 0 beside task 2), a yield that forfeits nothing.
    Harness<K> h(two_tasks(""), {"yield_rule"});
    h.apply_until(kSecondFork);
    h.checker().before_event(yield_of(1, 100'000));
    h.checker().yielded(h.rq(0), h.task(1).se);
    REQUIRE(h.sink.count("yield_rule") == 1);
    CHECK(explanation(h).find("forfeits its request") != std::string::npos);
  }
  {  // Ineligible (0.1 ms ahead of task 2), a yield that forfeits all the same.
    Harness<K> h(two_tasks(""), {"yield_rule"});
    h.apply_until(kSecondFork);
    auto& se1 = h.task(1).se;
    se1.vruntime += 100'000;
    h.changed();
    h.checker().before_event(yield_of(1, 100'000));
    se1.vruntime = se1.deadline;
    se1.deadline += 700'000;
    h.changed();
    h.checker().yielded(h.rq(0), se1);
    REQUIRE(h.sink.count("yield_rule") == 1);
    CHECK(explanation(h).find("ineligible entity keeps") != std::string::npos);
  }
  {  // Eligible and forfeiting as it must, but still the next buddy.
    Harness<K> h(two_tasks(""), {"yield_rule"});
    h.apply_until(kSecondFork);
    auto& se1 = h.task(1).se;
    h.checker().before_event(yield_of(1, 100'000));
    se1.vruntime = se1.deadline;
    se1.deadline += 700'000;
    h.rq(0).cfs.next = &se1;
    h.checker().yielded(h.rq(0), se1);
    REQUIRE(h.sink.count("yield_rule") == 1);
    CHECK(explanation(h).find("next buddy") != std::string::npos);
  }
}
