// The observer hooks in lockstep (kernel_src/hooks.h): kernel-src's wrapped
// place_entity / pick_eevdf / reweight_entity report the same calls with the same
// values as the reference's placed / picked / reweighted, and an altered stream is a
// difference. Expected values are corpus/scenarios/k612-renice-queued-task.trace's,
// worked by hand there (X = v0 = -(1<<20) mod 2^64).
#include <catch2/catch.hpp>

#include <vector>

#include "kernel_src/hooks.h"

namespace {

using eevdf::kernel_src::Hook;
using eevdf::kernel_src::HookCall;

constexpr std::uint64_t X = ~std::uint64_t{0} - (std::uint64_t{1} << 20) + 1;

struct Scenario {
  Scenario() : ref(config(), specs()), k(config(), specs()), hooks(ref, nullptr, k) {
    ref.set_observer(hooks.observer());
  }
  static eevdf::model::Config config() {
    eevdf::model::Config c;
    c.topology = *eevdf::model::Topology::short_form(1, 1).topology;
    c.sysctl_base_slice = 700'000;
    return c;
  }
  static std::vector<eevdf::model::TaskSpec> specs() { return {{1, 0, 0, -1}, {2, 0, 0, -1}, {3, 0, 0, -1}}; }
  eevdf::kernel_src::Reference612 ref;
  eevdf::kernel_src::Machine k;
  eevdf::kernel_src::HookLockstep hooks;
};

}  // namespace

TEST_CASE("kernel-src's hooks fire where the reference's do, with the same values", "[kernel_src]") {
  Scenario s;
  REQUIRE(s.ref.fork(0, 0, -1).empty());
  REQUIRE(s.k.fork(0, 0, -1).empty());
  const std::vector<HookCall> fork1{{Hook::placed, 0, 1, X, X + 350'000, 0}, {Hook::picked, 0, 1, 0, 0, 0}};
  CHECK(s.hooks.reference_calls() == fork1);
  CHECK(s.hooks.kernel_src_calls() == fork1);
  CHECK(s.hooks.take_difference().empty());
  for (int p : {1, 2}) {
    REQUIRE(s.ref.fork(0, p, -1).empty());
    REQUIRE(s.k.fork(0, p, -1).empty());
  }
  REQUIRE(s.ref.tick(300'000, 0).empty());
  REQUIRE(s.k.tick(300'000, 0).empty());
  CHECK(s.hooks.take_difference().empty());
  // renice 2 to 5: reweight 1024 -> 335 (scaled up by 1024), the RESTORE placement at
  // v2 = X-205670, d2 = X+144330, then the schedule path's pick of task 2 (the wakeup
  // check's pick_eevdf is not `picked`).
  REQUIRE(s.ref.renice(300'000, 1, 5).empty());
  REQUIRE(s.k.renice(300'000, 1, 5).empty());
  const std::vector<HookCall> renice{{Hook::reweighted, 0, 2, 0, 0, 335 * 1024},
                                     {Hook::placed, 0, 2, X - 205'670, X + 144'330, 0},
                                     {Hook::picked, 0, 2, 0, 0, 0}};
  CHECK(s.hooks.reference_calls() == renice);
  CHECK(s.hooks.kernel_src_calls() == renice);
  CHECK(s.hooks.take_difference().empty());
  CHECK(s.hooks.reference_calls().empty());  // taken
}

TEST_CASE("an altered hook stream is a difference naming the hook and both values", "[kernel_src]") {
  Scenario s;
  REQUIRE(s.ref.fork(0, 0, -1).empty());
  REQUIRE(s.k.fork(0, 0, -1).empty());
  s.hooks.kernel_src_calls()[0].deadline += 1;
  CHECK(s.hooks.take_difference() ==
        "hook call 1 of the event: reference placed(CPU 0, task 1, vruntime 18446744073708503040, deadline "
        "18446744073708853040), kernel-src placed(CPU 0, task 1, vruntime 18446744073708503040, deadline "
        "18446744073708853041)");
  REQUIRE(s.ref.fork(0, 1, -1).empty());
  REQUIRE(s.k.fork(0, 1, -1).empty());
  s.hooks.reference_calls().push_back({Hook::picked, 0, 2, 0, 0, 0});  // a pick the real code did not make
  const std::string d = s.hooks.take_difference();
  CHECK(d.find("reference picked(CPU 0, task 2), kernel-src no call") != std::string::npos);
}
