// The placement and lag properties of properties/lag.h (placement_eligible,
// placement_preserves_lag, migration_preserves_lag, reweight_preserves_lag,
// lag_clamped) and service_conservation. Each holds on faithful runs in both
// arithmetics and fires on a historical bug switched on (docs/INJECTIONS.md), on a state
// broken on purpose, or on a fabricated hook call; the kernel bound of a
// placement is tested at its edges, with values worked by hand.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/lag.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using K = eevdf::model::KernelArith;
using I = eevdf::model::IdealArith;

namespace {

const std::vector<std::string> kLag{"placement_eligible",     "placement_preserves_lag", "migration_preserves_lag",
                                    "reweight_preserves_lag", "lag_clamped",             "service_conservation"};

// Two CPUs, five tasks of mixed weight: forks, a migration of a queued task to a
// busy CPU and of a delayed one, renices of a running and of queued tasks, delayed
// sleeps woken with negative and with positive lag (DELAY_ZERO re-placement), a
// setslice and an exit, with ticks between.
const char* const kMixed = R"(eevdf-trace 1
topology 1x2
hz 1000
task 1
task 2 nice=5
task 3
task 4 nice=-3
task 5 nice=2
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@0 fork 3 cpu=1
@0 fork 4 cpu=0
@0.5ms tick 0
@0.5ms migrate 2 cpu=1
@1ms tick all
@1.2ms renice 4 2
@1.5ms tick all
@2ms fork 5 cpu=1
@2.5ms tick all
@3ms renice 2 -5
@3.5ms tick all
@4ms sleep 1
@4ms sleep 5
@4.5ms tick all
@5ms wake 1
@5ms wake 5
@5.5ms tick all
@6ms sleep 1
@6ms migrate 1 cpu=1
@6ms migrate 2 cpu=0
@6.5ms tick all
@7ms wake 1
@7ms setslice 3 3ms
@7.5ms tick all
@8ms sleep 4
@8.5ms wake 4
@9ms tick all
@9.5ms renice 5 -10
@10ms tick all
@10.5ms exit 4
@11ms tick all
)";

// corpus/scenarios/migrate-lag-inflation.trace: task 2 (nice 5) has stored lag
// 376747 when it moves to CPU 1 (task 3 alone); the kernel gives back 376746.
const char* const kMigrate = R"(eevdf-trace 1
topology 1x2
hz 1000
task 1
task 2 nice=5
task 3
@0 fork 1 cpu=0
@0 fork 2 cpu=0
@0 fork 3 cpu=1
@0.5ms tick 0
@0.5ms migrate 2 cpu=1
)";

// corpus/scenarios/renice-queued-task.trace: after the tick (line 10) tasks 2 and 3
// are queued with lag 100000 and curr 1 has -200000; renice 2 5 (line 11), then
// renice 3 -5 (line 12), after which 3 runs and 1 is queued with lag -199998.
const char* const kRenice = R"(eevdf-trace 1
topology 1x1
hz 1000
task 1
task 2
task 3
@0 fork 1
@0 fork 2
@0 fork 3
@300us tick 0
@300us renice 2 5
@300us renice 3 -5
)";

// One CPU (base slice 0.7 ms, tick 1 ms: limit calc_delta_fair(1.4 ms) = 1400000
// at nice 0). Task 1 runs 30 ms without a tick beside queued task 2, so at the
// renice V = 15 ms and task 2's lag is 15000000, ten times the limit.
const char* const kClamp = R"(eevdf-trace 1
topology 1x1
hz 1000
task 1
task 2
@0 fork 1
@0 fork 2
@30ms renice 2 1
@31ms tick 0
)";

// docs/INJECTIONS.md reweight_unclamped_lag: a nice-10 task runs 9499 s without a tick beside
// a queued nice -20 task (clean: no key*W overflow yet), whose lag grows to
// ~1.09e11; its renice stores that raw lag and vlag * w_old (90891264) overflows
// s64; the wrapped lag leaves no entity eligible. Found by a search over weights,
// run lengths and renice targets.
const char* const kOverflow = R"(eevdf-trace 1
topology 1x1
hz 1000
task 1 nice=10
task 2 nice=-20
@0 fork 1
@0 fork 2
@9499s renice 2 -19
@9500s tick 0
@9501s tick 0
)";

template <class A>
void placed(Harness<A>& h, int cpu, int task, const typename A::value& vlag) {
  h.checker().placed(h.rq(cpu).cfs, h.task(task).se, 0, vlag, false, typename A::value{});
}

}  // namespace

TEST_CASE("lag properties hold on faithful runs in both arithmetics", "[properties][lag]") {
  for (const char* text : {kMixed, kMigrate, kRenice, kClamp, kOverflow}) {
    Harness<K> k(text, kLag);
    k.apply_until();
    k.run->finish();
    CHECK(k.sink.violations.empty());
    Harness<I> i(text, kLag);
    i.apply_until();
    i.run->finish();
    CHECK(i.sink.violations.empty());
  }
}

TEST_CASE("placement_eligible catches an entity placed with zero lag to the right of V", "[properties][lag]") {
  Harness<K> h(kRenice, {"placement_eligible"});
  h.apply_until(10);
  placed(h, 0, 2, K::value{100000});  // task 2 at lag 100000: eligible, nothing to report
  CHECK(h.sink.violations.empty());
  h.task(2).se.vruntime += 1'000'000;  // now lag ~ -650000 although "placed" with lag 0
  placed(h, 0, 2, K::value{0});
  CHECK(h.sink.count("placement_eligible") == 1);
}

TEST_CASE("placement_preserves_lag allows exactly the kernel's rounding", "[properties][lag]") {
  // Kernel bound (lag.h): V' - v is l - 1 or l for l >= 0, l or l + 1 for l < 0.
  Harness<K> h(kRenice, {"placement_preserves_lag"});
  h.apply_until(10);  // task 2 queued with V - v = 100000
  for (const std::int64_t l : {100000, 100001}) placed(h, 0, 2, K::value{l});
  CHECK(h.sink.violations.empty());
  placed(h, 0, 2, K::value{100002});  // two more than given back
  placed(h, 0, 2, K::value{99999});   // a positive lag never comes back larger
  CHECK(h.sink.count("placement_preserves_lag") == 2);

  h.apply_until();  // task 1 queued with V - v = -199998 (renice-queued-task.trace)
  h.sink.violations.clear();
  for (const std::int64_t l : {-199998, -199999}) placed(h, 0, 1, K::value{l});
  CHECK(h.sink.violations.empty());
  placed(h, 0, 1, K::value{-200000});
  placed(h, 0, 1, K::value{-199997});  // a negative lag never comes back smaller
  CHECK(h.sink.count("placement_preserves_lag") == 2);
}

TEST_CASE("placement_preserves_lag: on an empty queue the entity lands on v0", "[properties][lag]") {
  // Task 1 forks onto the idle CPU: no lag to keep, vruntime = v0 exactly.
  Harness<K> h("eevdf-trace 1\ntopology 1x1\ntask 1\n@0 fork 1\n", {"placement_preserves_lag"});
  h.apply_until();
  REQUIRE(h.rq(0).cfs.nr_queued == 1);
  CHECK(h.task(1).se.vruntime == h.rq(0).cfs.min_vruntime);
  placed(h, 0, 1, K::value{0});
  placed(h, 0, 1, K::value{5000});  // a stored lag does not matter on an empty queue
  CHECK(h.sink.violations.empty());
  h.task(1).se.vruntime -= 1;
  placed(h, 0, 1, K::value{0});
  CHECK(h.sink.count("placement_preserves_lag") == 1);
}

TEST_CASE("placement_preserves_lag without PLACE_LAG: the entity is placed at V", "[properties][lag]") {
  // kRenice's state at line 10: task 2 queued with V - v = 100000, as its stored
  // lag asks. Without PLACE_LAG the stored lag is not used: the same placement is
  // 100000 off V.
  Harness<K> h(std::string(kRenice), {"placement_preserves_lag"});
  h.apply_until(10);
  placed(h, 0, 2, K::value{100000});
  CHECK(h.sink.violations.empty());
  const_cast<eevdf::model::Config&>(h.env().m.config()).features.set(eevdf::model::Feature::PLACE_LAG, false);
  placed(h, 0, 2, K::value{100000});
  CHECK(h.sink.count("placement_preserves_lag") == 1);
}

TEST_CASE("placement_preserves_lag is exact in the ideal arithmetic", "[properties][lag]") {
  Harness<I> h(kRenice, {"placement_preserves_lag"});
  h.apply_until(10);
  placed(h, 0, 2, I::value{100000});  // exact: V = 300000/3 = 100000 past task 2
  CHECK(h.sink.violations.empty());
  placed(h, 0, 2, I::value{100001});
  CHECK(h.sink.count("placement_preserves_lag") == 1);
}

TEST_CASE("migration_preserves_lag holds with the kernel's one-ns rounding", "[properties][lag]") {
  // Stored 376747, given back 376746 (corpus/scenarios/migrate-lag-inflation.trace).
  Harness<K> h(kMigrate, {"migration_preserves_lag", "placement_preserves_lag"});
  h.apply_until();
  CHECK(h.sink.violations.empty());
  CHECK(h.run->machine().avg_vruntime_of(1) - h.task(2).se.vruntime == 376746);
}

TEST_CASE("migration_preserves_lag catches a destination whose V is off", "[properties][lag]") {
  Harness<K> h(kMigrate, {"migration_preserves_lag"});
  h.apply_until(10);
  // CPU 1's kept sum no longer matches its queue: the model's V there is 100000
  // too high, so the migrated task lands 100000 * 1024/1359 short of its lag.
  h.rq(1).cfs.avg_vruntime += K::value{1024} * 100000;
  h.apply_until();
  CHECK(h.sink.count("migration_preserves_lag") == 1);
}

TEST_CASE("migration_preserves_lag catches a source that stored the wrong lag", "[properties][lag]") {
  Harness<I> h(kMigrate, {"migration_preserves_lag"});
  h.apply_until(10);
  h.rq(0).cfs.avg_vruntime += I::value{5000};  // the source's V moves: the stored lag is not V - v
  h.apply_until();
  CHECK(h.sink.count("migration_preserves_lag") >= 1);
}

TEST_CASE("reweight_preserves_lag catches a renice that keeps the lag unscaled", "[properties][lag]") {
  // docs/INJECTIONS.md reweight_unscaled_lag: task 2 (lag 100000) goes 1024 -> 335 and keeps
  // vlag 100000 instead of 305671: its service lag drops to ~335/1024 of itself.
  Harness<K> k(kRenice, {"reweight_preserves_lag"}, {"reweight_unscaled_lag"});
  k.apply_until(11);
  CHECK(k.sink.count("reweight_preserves_lag") == 1);
  Harness<I> i(kRenice, {"reweight_preserves_lag"}, {"reweight_unscaled_lag"});
  i.apply_until();
  CHECK(i.sink.count("reweight_preserves_lag") == 2);
}

TEST_CASE("reweight_preserves_lag accepts the kernel's rounding of a renice", "[properties][lag]") {
  // renice 2 5: 1024 * 100000 = 102400000 before, 335 * 305670 = 102399450 after:
  // the difference 550 (in w*lag) is within 2 * w_new = 670; V stays X+100000.
  Harness<K> h(kRenice, {"reweight_preserves_lag"});
  h.apply_until(11);
  CHECK(h.sink.violations.empty());
  CHECK(h.run->machine().avg_vruntime_of(0) - h.task(2).se.vruntime == 305670);
}

TEST_CASE("lag_clamped catches a renice that stores the raw lag", "[properties][lag]") {
  // docs/INJECTIONS.md reweight_unclamped_lag, short form: the SAVE dequeue stores 15000000.
  Harness<K> h(kClamp, {"lag_clamped"}, {"reweight_unclamped_lag"});
  h.apply_until();
  REQUIRE(h.sink.count("lag_clamped") == 1);
  CHECK(h.sink.violations[0].values.find("stored vlag 15000000, limit 1400000") != std::string::npos);
}

TEST_CASE("reweight_unclamped_lag overflows and leaves nothing eligible", "[properties][lag]") {
  const std::vector<std::string> caught{"no_overflow", "lag_clamped", "pick_nonempty"};
  Harness<K> clean(kOverflow, caught);
  clean.apply_until();
  CHECK(clean.sink.violations.empty());
  Harness<K> h(kOverflow, caught, {"reweight_unclamped_lag"});
  h.apply_until();
  CHECK(h.sink.count("lag_clamped") == 1);
  CHECK(h.sink.count("no_overflow") >= 1);
  CHECK(h.sink.count("pick_nonempty", true) >= 1);
}

TEST_CASE("service_conservation catches time charged but never run", "[properties][lag]") {
  Harness<K> h(kMixed, {"service_conservation"});
  h.apply_until(14);
  h.rq(0).curr->se.sum_exec_runtime += 7;  // 7 ns more charged than CPU 0 was busy
  h.apply_until(15);
  REQUIRE(h.sink.count("service_conservation") == 1);
  CHECK(h.sink.violations[0].cpu == 0);
}

TEST_CASE("service_conservation catches an exec_start moved back", "[properties][lag]") {
  Harness<I> h(kMixed, {"service_conservation"});
  h.apply_until(14);
  h.rq(1).curr->se.exec_start -= 5;  // the next update_curr charges 5 ns never run
  h.apply_until(15);
  CHECK(h.sink.count("service_conservation") == 1);
}

TEST_CASE("service_conservation recounts every task at the end", "[properties][lag]") {
  Harness<K> h(kMixed, {"service_conservation"});
  h.apply_until(14);
  const int queued = h.rq(0).curr->id == 1 ? 4 : 1;
  h.task(queued).se.sum_exec_runtime += 3;  // not a curr: no CPU's books see it
  h.apply_until();
  CHECK(h.sink.violations.empty());
  h.run->finish();
  CHECK(h.sink.count("service_conservation") == 1);
}

namespace {

// Nice 0 (calc_delta_fair is the identity), HZ 1000: task 1 (3 ms) runs, task 2
// (0.3 ms) is queued. §5.3's limit for task 2: max(2 * 0.3 ms, 1 ms) = 1 ms; a
// max_slice tree's: the largest queued slice + TICK_NSEC = 3 ms + 1 ms.
const char* const kLongAndShort = R"(eevdf-trace 1
topology 1x1
hz 1000
task 1 slice=3ms
task 2 slice=0.3ms
@0 fork 1
@0 fork 2
)";

}  // namespace

TEST_CASE("the lag store's forms: the max_slice clamp and the delayed store", "[properties][lag]") {
  Harness<K> h(kLongAndShort, {"migration_preserves_lag"});
  h.apply_until();
  const auto& cfs = h.run->machine().rqs().at(0).cfs;
  const auto& se2 = h.run->machine().tasks().at(1).se;
  auto& env = h.env();
  CHECK(eevdf::properties::lag_detail::lag_limit(env, cfs, se2) == 1'000'000);
  env.lag_limit_by_max_slice = true;
  CHECK(eevdf::properties::lag_detail::lag_limit(env, cfs, se2) == 4'000'000);

  // The store for a lag `raw` within ±100: clamped; a delayed entity whose stored
  // vlag is -30 keeps at least -30 under delayed_lag_keeps_stored, and at most 0
  // with DELAY_ZERO (on by default).
  using eevdf::properties::lag_detail::stored_lag;
  const K::value limit{100}, before{-30};
  CHECK(stored_lag(env, K::value{150}, limit, true, before) == 100);
  CHECK(stored_lag(env, K::value{-150}, limit, true, before) == -100);
  CHECK(stored_lag(env, K::value{-80}, limit, false, before) == -80);
  env.delayed_lag_keeps_stored = true;
  CHECK(stored_lag(env, K::value{-80}, limit, true, before) == -30);
  CHECK(stored_lag(env, K::value{-10}, limit, true, before) == -10);
  CHECK(stored_lag(env, K::value{50}, limit, true, before) == 0);
  CHECK(stored_lag(env, K::value{-80}, limit, false, before) == -80);
  CHECK(stored_lag(env, K::value{50}, limit, false, before) == 50);
}

TEST_CASE("lag_clamped in a tree's forms: the max_slice limit, a delayed store keeping its vlag", "[properties][lag]") {
  // kLongAndShort: task 2's limit is 1 ms by §5.3, 4 ms on a max_slice tree. Stores
  // of task 2's vlag fed to the hook by hand.
  Harness<K> h(kLongAndShort, {"lag_clamped"});
  h.apply_until();
  auto& env = h.env();
  const auto& cfs = h.rq(0).cfs;
  auto& se2 = h.task(2).se;
  const auto store = [&](std::int64_t vlag) {
    se2.vlag = K::value{vlag};
    h.checker().lag_stored(cfs, se2, 0, 0, 0);
    return h.sink.count("lag_clamped");
  };
  CHECK(store(1'000'000) == 0);
  CHECK(store(-1'000'000) == 0);
  CHECK(store(1'000'001) == 1);
  env.lag_limit_by_max_slice = true;
  CHECK(store(4'000'000) == 1);
  CHECK(store(-4'000'000) == 1);
  CHECK(store(-4'000'001) == 2);

  // A delayed entity whose vlag before the store was 5 ms: a tree whose store keeps
  // it (delayed_lag_keeps_stored) may store exactly that, beyond the limit; any other
  // value beyond it, or the same value without that rule or not delayed, is a violation.
  se2.sched_delayed = true;
  env.vlag_before_store = K::value{5'000'000};
  CHECK(store(5'000'000) == 3);
  env.delayed_lag_keeps_stored = true;
  CHECK(store(5'000'000) == 3);
  CHECK(store(4'999'999) == 4);
  CHECK(store(-5'000'000) == 5);
  se2.sched_delayed = false;
  CHECK(store(5'000'000) == 6);
}
