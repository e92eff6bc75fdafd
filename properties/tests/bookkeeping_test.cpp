// The bookkeeping properties (sums_consistent, counters_consistent,
// task_conservation, no_overflow) hold on a faithful run and fire when the state
// is broken on purpose or when the kernel arithmetic overflows. Each test breaks
// one thing and expects exactly that property to report it.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/arith_kernel.h"
#include "model/mirror.h"
#include "properties/bookkeeping.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using K = eevdf::model::KernelArith;

namespace {

// Two tasks on CPU 0 of a 1x2 machine, ticked: a small healthy runqueue.
const char* const kTwoTasks = R"(eevdf-trace 1
topology 1x2
task 1
task 2
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@1ms tick 0
@2ms tick 0
@3ms tick 0
@4ms tick 0
)";

// kTwoTasks up to its tick at 1 ms: task 2 runs at b (returned), task 1 (nice 0) has
// run 1 ms and waits in the tree at b + 1000000.
K::value after_first_tick(Harness<K>& h) {
  h.apply_until(7);
  const auto& cfs = h.rq(0).cfs;
  REQUIRE(cfs.curr == &h.task(2).se);
  REQUIRE(h.task(1).se.vruntime - cfs.curr->vruntime == 1000000);
  return cfs.curr->vruntime;
}

}  // namespace

TEST_CASE("bookkeeping holds on a faithful run", "[properties][bookkeeping]") {
  Harness<K> h(kTwoTasks, {"sums_consistent", "counters_consistent", "task_conservation", "no_overflow"});
  h.apply_until();
  CHECK(h.sink.violations.empty());
}

TEST_CASE("sums_consistent catches a kept sum that drifted", "[properties][bookkeeping]") {
  Harness<K> h(kTwoTasks, {"sums_consistent"});
  h.apply_until(7);
  h.rq(0).cfs.avg_load += 1;  // W no longer matches the tree
  h.apply_until();
  CHECK(h.sink.count("sums_consistent") >= 1);
}

TEST_CASE("sums_consistent catches v0 moving outside update_min_vruntime", "[properties][bookkeeping]") {
  Harness<K> h(kTwoTasks, {"sums_consistent"});
  h.apply_until(7);
  h.rq(0).cfs.min_vruntime -= 5;  // v0 may only move forward, and only at its update points
  h.apply_until();
  CHECK(h.sink.count("sums_consistent") >= 1);
}

TEST_CASE("sums_consistent: v0 re-based by __enqueue_entity / __dequeue_entity", "[properties][bookkeeping]") {
  // V0ByTreeChange. After the tick at 1 ms task 1 (nice 0, d = X + 0.7 ms) has run
  // 1 ms and waits at a = b + 1000000; task 2 runs at b. V of the tree and curr is
  // b + floor(1024 * 1000000 / 2048) = b + 500000. While put_prev_entity holds curr in
  // the tree as well it counts twice: b + floor(1024 * 1000000 / 3072) = b + 333333.
  Harness<K> h(kTwoTasks, {"sums_consistent"});
  h.env().v0_rule = eevdf::properties::V0Rule::zero_by_tree_change;
  const K::value b = after_first_tick(h);
  auto& cfs = h.rq(0).cfs;
  const K::value from = cfs.min_vruntime;
  h.checker().v0_moved(cfs, from, b + 500000);
  CHECK(h.sink.violations.empty());
  h.checker().v0_moved(cfs, from, b + 333333);  // V of the queue is b + 500000
  CHECK(h.sink.count("sums_consistent") == 1);
  h.rq(0).cfs.timeline.insert(cfs.curr);  // put_prev_entity's moment
  h.checker().v0_moved(cfs, from, b + 333333);
  CHECK(h.sink.count("sums_consistent") == 1);
  h.rq(0).cfs.timeline.erase(cfs.curr);
  // The same move under 6.18's rule (forward to the smallest vruntime, b) is wrong.
  h.env().v0_rule = eevdf::properties::V0Rule::profile;
  h.checker().v0_moved(cfs, from, b + 500000);
  CHECK(h.sink.count("sums_consistent") == 2);
}

TEST_CASE("sums_consistent: v0 re-based by a placement heavier than the queue", "[properties][bookkeeping]") {
  // A tree whose place_entity moves v0 to the placed entity (Env::v0_at_heavy_placement).
  // After the tick at 1 ms task 2 (nice 0, weight 1024) runs at b; task 1 is taken out
  // of the tree as a placement would hold it, at b + 1000000. V of the queue is b, so
  // a move to b + 1000000 is no avg_vruntime re-base: it holds only as the placement's,
  // and only when task 1 weighs more than the queue's 1024.
  Harness<K> h(kTwoTasks, {"sums_consistent"});
  h.env().v0_rule = eevdf::properties::V0Rule::zero_in_avg_vruntime;
  const K::value b = after_first_tick(h);
  auto& cfs = h.rq(0).cfs;
  auto& placed = h.task(1).se;
  const K::value from = cfs.min_vruntime;
  cfs.timeline.erase(&placed);
  h.env().v0_at_heavy_placement = true;
  h.env().v0_placing = &placed;
  h.checker().v0_moved(cfs, from, b + 1000000);  // nice 0 against 1024: not heavier
  CHECK(h.sink.count("sums_consistent") == 1);
  placed.load.weight = 1277 << 10;  // nice -1
  h.checker().v0_moved(cfs, from, b + 1000000);
  CHECK(h.sink.count("sums_consistent") == 1);
  h.checker().v0_moved(cfs, from, b + 999999);  // not the placed entity's vruntime
  CHECK(h.sink.count("sums_consistent") == 2);
  h.env().v0_at_heavy_placement = false;  // a tree whose place_entity never re-bases
  h.checker().v0_moved(cfs, from, b + 1000000);
  CHECK(h.sink.count("sums_consistent") == 3);
  h.env().v0_placing = nullptr;
  cfs.timeline.insert(&placed);
}

TEST_CASE("sums_consistent on a tree keeping full weights shifted by its sum_shift", "[properties][bookkeeping]") {
  // After the tick at 1 ms the tree holds task 1 alone (nice 0, full weight 1048576)
  // at key 1000000 (curr, task 2, runs at v0). Shifted by 3 a tree counts its weight
  // 1048576 >> 3 = 131072: Σ key*w = 131072000000, Σ w = 131072; unshifted
  // 1048576000000 and 1048576.
  using eevdf::properties::FullWeightSums;
  Harness<K> h(kTwoTasks, {"sums_consistent"});
  h.apply_until(6);
  auto& kept = h.env().full_weight_sums;
  kept = {FullWeightSums{true, 3, 131072000000, 131072}};
  h.apply_until(7);
  CHECK(h.sink.violations.empty());
  const auto recheck = [&](FullWeightSums sums) {
    kept = {sums};
    h.touch({0});
    h.checker().after_event(eevdf::properties::testing::tick_event());
    return h.sink.count("sums_consistent");
  };
  CHECK(recheck({true, 0, 1048576000000, 1048576}) == 0);
  // One off in Σ key*w: a violation, which the model's scaled-down copy of the sums
  // (>> 7) would not show.
  CHECK(eevdf::model::sum_scaled_down(131072000001, 3) == 1024000000);
  CHECK(recheck({true, 3, 131072000001, 131072}) == 1);
  CHECK(recheck({true, 3, 131072000000, 131073}) == 2);
  // The model's own sums are not read then: a drifted avg_load goes unseen.
  h.rq(0).cfs.avg_load += 1;
  CHECK(recheck({true, 3, 131072000000, 131072}) == 2);
  // A shift at which w >> shift < 2 counts 2 (the kernel's floor of a shifted weight).
  CHECK(eevdf::properties::shifted_sum_weight(1048576, 20) == 2);
  CHECK(eevdf::properties::shifted_sum_weight(1048576, 19) == 2);
  CHECK(eevdf::properties::shifted_sum_weight(1048576, 18) == 4);
}

TEST_CASE("counters_consistent catches a wrong nr_running", "[properties][bookkeeping]") {
  Harness<K> h(kTwoTasks, {"counters_consistent"});
  h.apply_until(7);
  h.rq(0).nr_running += 1;
  h.apply_until();
  CHECK(h.sink.count("counters_consistent") >= 1);
}

TEST_CASE("counters_consistent recounts h_nr_delayed where a tree keeps it", "[properties][bookkeeping]") {
  // Task 1 runs from 0 (forked first) and is charged 0.2 ms ahead of task 2, which
  // has not run: V lies between them and task 1 sleeps ineligible, so it stays
  // queued, delayed. CPU 0's queue then holds one delayed entity; before, none.
  Harness<K> h(R"(eevdf-trace 1
topology 1x2
task 1 cpu=0
task 2 cpu=0
@0 fork 1
@0 fork 2
@0.2ms sleep 1
)",
               {"counters_consistent"});
  auto& kept = h.env().h_nr_delayed;
  const auto recheck = [&](unsigned h_nr_delayed) {
    kept = {h_nr_delayed, std::nullopt};
    h.touch({0});
    h.checker().after_event(eevdf::properties::testing::tick_event());
    return h.sink.count("counters_consistent");
  };
  h.apply_until(6);
  REQUIRE(h.sink.violations.empty());
  CHECK(recheck(0) == 0);
  CHECK(recheck(1) == 1);
  h.apply_until(7);
  REQUIRE(h.task(1).se.sched_delayed);
  CHECK(recheck(1) == 1);
  CHECK(recheck(0) == 2);
  CHECK(recheck(2) == 3);
  // A tree that keeps none (the reference's own runs): nothing to recount.
  kept.clear();
  h.touch({0});
  h.checker().after_event(eevdf::properties::testing::tick_event());
  CHECK(h.sink.count("counters_consistent") == 3);
}

TEST_CASE("task_conservation catches a task queued on a foreign CPU", "[properties][bookkeeping]") {
  Harness<K> h(kTwoTasks, {"task_conservation"});
  h.apply_until(7);
  const int queued = h.rq(0).curr->id == 1 ? 2 : 1;
  h.task(queued).cpu = 1;  // still in CPU 0's tree
  h.apply_until();
  CHECK(h.sink.count("task_conservation") >= 1);
}

// task_conservation marks each queued task with the event's 8-bit pass, reset when
// the pass wraps: a task last marked 255 events ago must not read as seen in this
// one. CPU 1's tasks are marked, then CPU 0 alone is ticked for g events, for every
// g around 255 - 1, so that some gap puts the same pass value on both marks.
TEST_CASE("task_conservation's pass marks wrap without a false 'queued twice'", "[properties][bookkeeping]") {
  std::string trace = "eevdf-trace 1\ntopology 1x2\ntask 1\ntask 2\ntask 3\n"
                      "@0 fork 1 cpu=0\n@0 fork 2 cpu=1\n@0 fork 3 cpu=1\n";
  long us = 0;
  for (int gap = 245; gap <= 265; ++gap) {
    trace += fmt::format("@{}us tick 1\n", ++us);
    for (int i = 0; i < gap; ++i) trace += fmt::format("@{}us tick 0\n", ++us);
  }
  Harness<K> h(trace.c_str(), {"task_conservation"});
  h.apply_until();
  CHECK(h.sink.violations.empty());
}

// The after-event checks run on the CPUs an event touched, each once, ascending
// (Env::touched): a `tick all` names every busy CPU before and after the event.
// Busy CPUs at both ends of a 2x64 machine, few (sorted) and many (marked).
TEST_CASE("a tick all touches every busy CPU once, in order", "[properties][bookkeeping]") {
  for (const std::vector<int>& busy : {std::vector<int>{127, 0, 64}, std::vector<int>{127, 1, 5, 9, 13, 17, 21, 25, 29, 33,
                                                                                      63, 64, 70, 90, 100, 110, 120, 126, 0}}) {
    std::string trace = "eevdf-trace 1\ntopology 2x64\n";
    for (std::size_t i = 0; i < busy.size(); ++i) trace += fmt::format("task {}\n", i + 1);
    for (std::size_t i = 0; i < busy.size(); ++i) trace += fmt::format("@0 fork {} cpu={}\n", i + 1, busy[i]);
    trace += "@1ms tick all\n";
    Harness<K> h(trace, {});
    h.apply_until();
    std::vector<int> expected = busy;
    std::sort(expected.begin(), expected.end());
    CHECK(h.run->checker().env().touched == expected);
    CHECK(h.sink.violations.empty());
  }
}

TEST_CASE("no_overflow reports key*W in eligibility after a long tick-less run", "[properties][bookkeeping]") {
  // A nice-19 curr (w = 15, ~68.27 virtual ns per ns) runs 2000 s without a tick
  // beside a queued nice -20 task (w = 88761): its key is ~1.37e14 and key*W
  // ~1.2e19 > 2^63 ~ 9.2e18 (docs/PROPERTIES.md no_overflow; docs/INJECTIONS.md's finding).
  Harness<K> h(R"(eevdf-trace 1
topology 1x2
task 1 nice=19
task 2 nice=-20
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@2000s tick 0
)",
               {"no_overflow"});
  h.apply_until();
  CHECK(h.sink.count("no_overflow") >= 1);
}

// The per-CPU checks run after each event on the CPUs it touched, and once at the end
// of the trace on every other CPU: a runqueue that no later event names is judged too.
TEST_CASE("the end of a trace judges the CPUs its last events did not touch", "[properties][bookkeeping]") {
  const char* const kOtherCpu = R"(eevdf-trace 1
topology 1x2
task 1
task 2
@0 fork 1 cpu=0
@0 fork 2 cpu=1
@1ms tick 0
@2ms tick 0
)";
  Harness<K> h(kOtherCpu, {"sums_consistent", "counters_consistent"});
  h.apply_until(6);
  h.rq(1).cfs.avg_load += 1;  // CPU 1's W drifts; the events left tick CPU 0 only
  h.rq(1).nr_running += 1;
  h.apply_until();
  CHECK(h.sink.violations.empty());
  h.run->finish();
  CHECK(h.sink.count("sums_consistent") == 1);
  CHECK(h.sink.count("counters_consistent") == 1);
  for (const auto& v : h.sink.violations) CHECK(v.cpu == 1);
}

// The end of a trace walks every CPU's tree against its kept recount: a tree member
// changed behind the hooks (no generation bump, no queue move) is an internal error.
TEST_CASE("the end of a trace walks every runqueue's tree", "[properties][bookkeeping]") {
  const char* const kOtherCpu = R"(eevdf-trace 1
topology 1x2
task 1
task 2
task 3
@0 fork 1 cpu=0
@0 fork 2 cpu=1
@0 fork 3 cpu=1
@1ms tick 1
@2ms tick 0
)";
  Harness<K> h(kOtherCpu, {"sums_consistent"});
  h.apply_until();
  // CPU 1's tree member replaced by a twin equal in every value, behind the hooks.
  auto& cfs = const_cast<eevdf::model::cfs_rq<K>&>(h.run->machine().rqs().at(1).cfs);
  REQUIRE(cfs.timeline.size() == 1);
  eevdf::model::sched_entity<K>* member = *cfs.timeline.begin();
  eevdf::model::sched_entity<K> twin = *member;
  cfs.timeline.clear();
  cfs.timeline.insert(&twin);
  CHECK_THROWS_AS(h.run->finish(), eevdf::InternalError);
  cfs.timeline.clear();
  cfs.timeline.insert(member);
}
