// `tick all` across CPUs in lanes (model/fast/fast_tick_all.h): a case worked by hand
// from docs/MODEL.md §1.3/§5 on six busy CPUs (more than one vector of lanes, one
// padded), and fast_matches_reference on tick-all-heavy generated traces on 2x64 with
// many busy CPUs (more than one chunk of lanes), both builds, every field compared
// after every event against the reference (replay/fast_diff.h). The campaign's mix
// has `tick all` in one drawn tick in ten and at most 8 busy CPUs: this is the test
// that fills the lanes.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <algorithm>  // std::max

#include "model/fast/tests/first_mismatch.h"
#include "generator/generator.h"
#include "model/fast/fast_machine.h"
#include "model/topology.h"
#include "replay/apply_event.h"
#include "replay/fast_diff.h"
#include "replay/model_config.h"
#include "runner/diff_campaign.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

namespace {

using eevdf::model::Config;
using eevdf::model::TaskSpec;
using eevdf::model::Topology;

constexpr std::uint64_t kV0 = ~std::uint64_t{0} - (std::uint64_t{1} << 20) + 1;  // init_cfs_rq (§4.3)

// Six tasks alone on CPUs 0-5 of a 2x4 machine (base slice 0.7 ms x 4 = 2.8 ms, §2),
// forked at 0, then `tick all` at 1 ms and 2 ms.
template <bool Simd>
void six_cpus_worked() {
  Config c;
  c.topology = *Topology::short_form(2, 4).topology;
  c.sysctl_base_slice = 2'800'000;
  // id, nice, custom slice, CPU
  const std::vector<TaskSpec> specs{{1, 0, 0, 0}, {2, 19, 0, 1}, {3, 0, 0, 2}, {4, 0, 0, 3}, {5, 0, 0, 4}, {6, 0, 0, 5}};
  eevdf::model::fast::FastMachine<Simd> m(c, specs);
  for (int p = 0; p < 6; ++p) REQUIRE(m.fork(0, p, -1).empty());
  const auto& se = m.entities();
  // §6.1 alone: vruntime = v0, deadline half a slice away: 1.4 ms at nice 0; at nice 19
  // calc_delta_fair(1.4 ms) (below).
  CHECK(se[0].deadline == kV0 + 1'400'000);
  REQUIRE(m.tick(1'000'000, -1).empty());
  // §5.1 nice 0: 1 ms is 1 ms of virtual time, no renewal (1 ms < 1.4 ms), v0 follows.
  for (int p : {0, 2, 3, 4, 5}) {
    CHECK(se[static_cast<std::size_t>(p)].vruntime == kV0 + 1'000'000);
    CHECK(se[static_cast<std::size_t>(p)].sum_exec_runtime == 1'000'000);
    CHECK(se[static_cast<std::size_t>(p)].exec_start == 1'000'000);
    CHECK(se[static_cast<std::size_t>(p)].deadline == kV0 + 1'400'000);
    CHECK(m.rqs()[static_cast<std::size_t>(p)].min_vruntime == kV0 + 1'000'000);
  }
  // §1.3 nice 19 (weight 15, inv_weight 286331153): fact = 1024 * 286331153 =
  // 293203100672, whose bits above 32 are 68 (fls 7), so fact = 293203100672 >> 7 =
  // 2290649224 and shift = 32 - 7 = 25: floor(10^6 * 2290649224 / 2^25) = 68266666.
  CHECK(se[1].vruntime == kV0 + 68'266'666);
  CHECK(m.rqs()[1].min_vruntime == kV0 + 68'266'666);
  REQUIRE(m.tick(2'000'000, -1).empty());
  // §5.2 nice 0 at 2 ms has passed its deadline: renewed to vruntime + 2.8 ms. Alone,
  // no reschedule (§5.1 step 6).
  CHECK(se[4].vruntime == kV0 + 2'000'000);
  CHECK(se[4].deadline == kV0 + 4'800'000);
  CHECK(se[1].vruntime == kV0 + 2 * 68'266'666);
  for (int cpu = 0; cpu < 8; ++cpu) {
    CHECK_FALSE(m.rqs()[static_cast<std::size_t>(cpu)].need_resched);
    CHECK_FALSE(m.overflowed(cpu));
  }
  CHECK(m.rqs()[6].curr == -1);  // idle CPUs are not touched
}

// The generator knobs of a tick-all-heavy trace: the campaign's draws (features,
// an injection) on 2x64 with 48..128 busy CPUs and 64..192 tasks,
// every drawn tick a `tick all`, every verb on.
eevdf::generator::Options tick_all_options(std::uint64_t seed) {
  eevdf::generator::Options o = eevdf::runner::diff_trace_options(seed);
  eevdf::generator::Prng prng(eevdf::generator::Prng::split(seed, 0x71c4));
  o.topology = {};  // 2x64
  o.busy_cpus_max = static_cast<int>(prng.range_inclusive(48, 128));
  o.tasks_min = static_cast<int>(prng.range_inclusive(64, 96));
  o.tasks_max = static_cast<int>(prng.range_inclusive(static_cast<std::uint64_t>(o.tasks_min), 192));
  o.events_min = 300;
  o.events_max = 450;
  // Forks as often as ticks until every task is in (a fork proposal fails after).
  //               fork wake sleep tick migrate renice setslice yield exit
  o.verb_weights = {30, 4, 4, 30, 2, 1, 1, 2, 1};
  o.tick_all_cpus = {1, 1};
  // Dense (no burst of physical `tick <cpu>` lines after a long gap), or unphysical:
  // no physical ticks, and gaps of up to hours, whose charges take the scalar path.
  if (prng.chance({3, 4})) o.gap_max_ns = prng.range_inclusive(50'000, 1'000'000);
  else o.unphysical = true;
  return o;
}

using eevdf::model::fast::testing::first_mismatch;

}  // namespace

TEST_CASE("tick all charges six CPUs as worked by hand", "[fast][tick-all]") {
  six_cpus_worked<false>();
  six_cpus_worked<true>();
}

TEST_CASE("the tick-all-heavy traces fill the lanes", "[fast][tick-all]") {
  // The property below is only as good as its traces: nearly half the events
  // `tick all`, on more busy CPUs than one chunk of lanes (32) in most traces (the
  // generator's busy CPUs cluster by LLC, so 48..128 drawn give 30..50 distinct).
  std::uint64_t events = 0, tick_all = 0, traces_over_a_chunk = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto o = tick_all_options(seed);
    eevdf::generator::Generator gen(seed, o);
    eevdf::model::fast::FastMachine<false> m(eevdf::replay::make_config(gen.header(), {}, "<generated>"),
                                            eevdf::replay::make_task_specs(gen.header()));
    int busy_max = 0;
    while (auto e = gen.next()) {
      ++events;
      if (e->verb == eevdf::trace::Verb::tick && e->all_cpus) {
        ++tick_all;
        int busy = 0;
        for (const auto& rq : m.rqs()) busy += rq.curr >= 0 ? 1 : 0;
        busy_max = std::max(busy_max, busy);
      }
      REQUIRE(eevdf::replay::apply_event(m, *e).empty());
    }
    traces_over_a_chunk += busy_max > 32 ? 1 : 0;
  }
  CHECK(tick_all * 5 > events * 2);  // 46% with the seeds below
  CHECK(traces_over_a_chunk >= 10);  // 15 of 20
}

TEST_CASE("the fast model matches the reference on tick-all-heavy traces", "[fast][tick-all][generated]") {
  eevdf::trace::testing::check("fast-tick-all-matches-reference", 50, [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const eevdf::generator::Options o = tick_all_options(seed);
    for (const std::string& found : {first_mismatch<false>(seed, o), first_mismatch<true>(seed, o)}) {
      if (found.empty()) continue;
      RC_LOG() << "generator seed " << seed << ": " << found << "\n"
               << eevdf::trace::to_text(eevdf::generator::generate_trace(seed, o));
      RC_FAIL("the fast model differs from the reference on tick all");
    }
  });
}
