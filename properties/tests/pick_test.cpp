// The EEVDF core properties implemented in pick.h: lag_zero_sum, the pick rules
// and delayed_never_runs. Each holds on faithful runs and fires on a state or a
// hook call that breaks it (a check that cannot fail is a defect).
#include <catch2/catch.hpp>

#include <vector>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/pick.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using eevdf::properties::testing::kThree;
using K = eevdf::model::KernelArith;
using I = eevdf::model::IdealArith;

namespace {

const std::vector<std::string> kCore{"lag_zero_sum", "pick_eligible", "pick_earliest_deadline", "pick_nonempty"};

}  // namespace

TEST_CASE("core properties hold in both arithmetics", "[properties][pick]") {
  Harness<K> k(kThree, kCore);
  k.apply_until();
  CHECK(k.sink.violations.empty());
  Harness<I> i(kThree, kCore);
  i.apply_until();
  CHECK(i.sink.violations.empty());
}

TEST_CASE("lag_zero_sum catches a V that drifted from the queue", "[properties][pick]") {
  Harness<I> h(kThree, {"lag_zero_sum"});
  h.apply_until(10);
  h.rq(0).cfs.avg_vruntime += 1000;  // V = v0 + S/W moves; Σ w*lag becomes 1000, not 0
  h.apply_until();
  CHECK(h.sink.count("lag_zero_sum") >= 1);
}

TEST_CASE("pick rules catch an ineligible, late or missing pick", "[properties][pick]") {
  Harness<K> h(kThree, kCore);
  h.apply_until(10);
  auto& rq = h.rq(0);
  // The entity with the largest vruntime among the tree ones is ineligible (three
  // tasks have run unevenly); the latest deadline is not the earliest.
  const eevdf::model::sched_entity<K>* latest = nullptr;
  const eevdf::model::sched_entity<K>* highest = nullptr;
  for (const auto* se : rq.cfs.timeline) {
    if (latest == nullptr || se->deadline > latest->deadline) latest = se;
    if (highest == nullptr || se->vruntime > highest->vruntime) highest = se;
  }
  REQUIRE(latest != nullptr);
  h.checker().picked(rq, highest, false);
  h.checker().picked(rq, latest, false);
  h.checker().picked(rq, nullptr, false);
  CHECK(h.sink.count("pick_nonempty") == 1);
  CHECK(h.sink.count("pick_earliest_deadline") >= 1);
  CHECK(h.sink.count("pick_eligible") + h.sink.count("pick_earliest_deadline") >= 2);
}

TEST_CASE("pick_nonempty catches a CPU left idle beside a runnable entity", "[properties][pick]") {
  Harness<K> h(kThree, {"pick_nonempty"});
  h.apply_until(10);
  auto& rq = h.rq(0);
  const auto e = eevdf::properties::testing::tick_event();
  h.touch({0});
  h.checker().after_event(e);
  CHECK(h.sink.violations.empty());
  // Fabricated: the schedule returned nothing, three runnable tasks queued.
  auto* const curr = rq.curr;
  rq.curr = nullptr;
  h.touch({0});
  h.checker().after_event(e);
  CHECK(h.sink.count("pick_nonempty") == 1);
  // Delayed entities alone do not make the CPU busy: idle is right.
  std::vector<eevdf::model::sched_entity<K>*> queued(rq.cfs.timeline.begin(), rq.cfs.timeline.end());
  if (rq.cfs.curr != nullptr) queued.push_back(rq.cfs.curr);
  for (auto* se : queued) se->sched_delayed = true;
  h.changed();
  h.touch({0});
  h.checker().after_event(e);
  CHECK(h.sink.count("pick_nonempty") == 1);
  for (auto* se : queued) se->sched_delayed = false;
  rq.curr = curr;
  h.changed();
}

TEST_CASE("delayed_never_runs catches a delayed next buddy (buddy_accepts_delayed)", "[properties][pick]") {
  // docs/INJECTIONS.md buddy_accepts_delayed: with NEXT_BUDDY a delayed task migrated to a CPU
  // became its buddy. Task 1 sleeps while ineligible (delayed), moves to CPU 1.
  const char* const text = R"(eevdf-trace 1
topology 1x2
features NEXT_BUDDY
task 1
task 2
task 3
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@0 fork 3 cpu=1
@1ms tick 0
@2ms tick 0
@3ms tick 0
@3ms sleep 1
@3ms migrate 1 cpu=1
)";
  Harness<K> faithful(text, {"delayed_never_runs"});
  faithful.apply_until();
  CHECK(faithful.sink.violations.empty());
  Harness<K> injected(text, {"delayed_never_runs"}, {"buddy_accepts_delayed"});
  injected.apply_until();
  CHECK(injected.sink.count("delayed_never_runs") == 1);
}

// The Checker calls a property only at the hooks its class overrides (hooks.h): the
// masks are found at compile time, from the classes' own declarations.
TEST_CASE("a property's hook mask names exactly the hooks it overrides", "[hooks]") {
  using eevdf::properties::Hook;
  using eevdf::properties::hook_bit;
  using eevdf::properties::hooks_of;
  using P18 = eevdf::model::profile_6_18;
  constexpr auto pick_rules = hooks_of<eevdf::properties::PickRules<K, P18, eevdf::properties::PickRule::nonempty>, K, P18>();
  static_assert(pick_rules == (hook_bit(Hook::picked) | hook_bit(Hook::after_event_on)));
  constexpr auto never_runs = hooks_of<eevdf::properties::DelayedNeverRuns<K, P18>, K, P18>();
  static_assert(never_runs == (hook_bit(Hook::set_next) | hook_bit(Hook::buddy_set)));
  CHECK(pick_rules != never_runs);
  // A mask-less property (made without make_property) is called everywhere.
  CHECK(eevdf::properties::kAllHooks == hook_bit(Hook::count) - 1);
}
