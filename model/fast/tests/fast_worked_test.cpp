// The fast model on cases worked by hand from docs/MODEL.md (both builds): a fork's
// placement, a tick's charge and deadline renewal, and the checked arithmetic
// reporting an overflow the reference reports too.
#include <catch2/catch.hpp>

#include "model/arith_kernel.h"
#include "model/fast/fast_machine.h"
#include "model/machine.h"
#include "model/topology.h"

namespace {

using eevdf::model::Config;
using eevdf::model::TaskSpec;
using eevdf::model::Topology;

constexpr std::uint64_t kV0 = ~std::uint64_t{0} - (std::uint64_t{1} << 20) + 1;  // init_cfs_rq (§4.3)

// One CPU: the base slice is 0.7 ms x (1 + ilog2(1)) = 700000 ns (§2).
Config one_cpu() {
  Config c;
  c.topology = *Topology::short_form(1, 1).topology;
  c.sysctl_base_slice = 700'000;
  return c;
}

template <bool Simd>
void fork_and_tick() {
  eevdf::model::fast::FastMachine<Simd> m(one_cpu(), {TaskSpec{1, 0, 0, -1}});
  REQUIRE(m.fork(0, 0, -1).empty());
  const auto& se = m.entities()[0];
  // §6.1: alone on the queue, V = v0 and no lag: vruntime = v0; the first deadline
  // is half a slice away (PLACE_DEADLINE_INITIAL): 350000.
  CHECK(se.vruntime == kV0);
  CHECK(se.deadline == kV0 + 350'000);
  CHECK(m.rqs()[0].curr == 0);
  // §5.1: 1 ms at nice 0 is 1 ms of virtual time; vruntime passes the deadline, so
  // the new deadline is vruntime + 700000 (§5.2); v0 follows the lone curr (§4.3).
  REQUIRE(m.tick(1'000'000, 0).empty());
  CHECK(se.vruntime == kV0 + 1'000'000);
  CHECK(se.deadline == kV0 + 1'700'000);
  CHECK(se.sum_exec_runtime == 1'000'000);
  CHECK(m.rqs()[0].min_vruntime == kV0 + 1'000'000);
  CHECK_FALSE(m.overflowed(0));
}

// A nice-19 task (weight 15) charged 3*10^17 ns: delta * 1024/15 is about 2*10^19 >
// 2^64, so __calc_delta's result does not fit u64 (no_overflow) in both models.
template <bool Simd>
void calc_delta_overflow() {
  const std::vector<TaskSpec> specs{TaskSpec{1, 19, 0, -1}};
  eevdf::model::fast::FastMachine<Simd> fast(one_cpu(), specs);
  eevdf::model::Machine<eevdf::model::KernelArith> reference(one_cpu(), specs);
  REQUIRE(fast.fork(0, 0, -1).empty());
  REQUIRE(reference.fork(0, 0, -1).empty());
  CHECK_FALSE(fast.overflowed(0));
  REQUIRE(fast.tick(300'000'000'000'000'000, 0).empty());
  REQUIRE(reference.tick(300'000'000'000'000'000, 0).empty());
  CHECK(fast.overflowed(0));
  CHECK_FALSE(reference.drain_overflows(0).empty());
}

}  // namespace

TEST_CASE("a fork and a tick, worked by hand (scalar build)", "[fast]") { fork_and_tick<false>(); }
TEST_CASE("a fork and a tick, worked by hand (SIMD build)", "[fast]") { fork_and_tick<true>(); }
TEST_CASE("the checked arithmetic reports a __calc_delta overflow (scalar build)", "[fast]") {
  calc_delta_overflow<false>();
}
TEST_CASE("the checked arithmetic reports a __calc_delta overflow (SIMD build)", "[fast]") {
  calc_delta_overflow<true>();
}
