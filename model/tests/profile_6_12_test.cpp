// The `kernel 6.12` profile (profile_6_12.h) against values worked by hand from
// Debian 6.12.117's rules, with the v6.18 profile on the same events for contrast:
// v0 is re-based to V inside avg_vruntime() (here at a deadline renewal), while
// 6.18's min_vruntime stays at the tree minimum; protection is vlag == deadline.
// 1 CPU, HZ 1000, base slice 0.7 ms; X = 2^64 - 2^20 (init_cfs_rq), kept unwrapped.
#include <catch2/catch.hpp>

#include "model/arith_kernel.h"
#include "model/machine.h"

namespace {

using eevdf::model::KernelArith;
using K612 = eevdf::model::Machine<KernelArith, eevdf::model::profile_6_12>;
using K618 = eevdf::model::Machine<KernelArith, eevdf::model::profile_6_18>;
using value = KernelArith::value;

const value X = (value{1} << 64) - (value{1} << 20);

eevdf::model::Config one_cpu() {
  eevdf::model::Config c;
  c.topology = *eevdf::model::Topology::short_form(1, 1).topology;
  c.sysctl_base_slice = 700'000;
  return c;
}

const std::vector<eevdf::model::TaskSpec> kTwo{{1, 0, 0, -1}, {2, 0, 0, -1}};

// fork 1 and 2 at 0, then run task 1 to its first deadline (X + 350000) at 350 us.
template <class M>
void run_to_first_deadline(M& m) {
  REQUIRE(m.fork(0, 0, -1).empty());
  REQUIRE(m.fork(0, 1, -1).empty());
  REQUIRE(m.tick(300'000, -1).empty());
  REQUIRE(m.tick(350'000, -1).empty());
}

}  // namespace

TEST_CASE("6.12: protection is the deadline stashed in vlag at pick", "[profile_6_12]") {
  K612 m(one_cpu(), kTwo);
  REQUIRE(m.fork(0, 0, -1).empty());
  const auto& t1 = m.tasks()[0];
  CHECK(t1.se.deadline == X + 350'000);  // V = X, half a slice (PLACE_DEADLINE_INITIAL)
  CHECK(t1.se.vlag == t1.se.deadline);   // set_next_entity's stash
  CHECK(m.protected_slice(t1));
  REQUIRE(m.fork(0, 1, -1).empty());    // equal deadline, curr eligible and protected: kept
  CHECK(m.rqs()[0].curr->id == 1);
}

TEST_CASE("6.12: a renewal re-bases v0 to V; 6.18 keeps the tree minimum", "[profile_6_12]") {
  K612 m(one_cpu(), kTwo);
  run_to_first_deadline(m);
  // At 350 us v1 = X+350000 reaches d1: d1 = X+1050000, then avg_vruntime(): the tree
  // holds task 2 (key 0, w 1024), curr adds 350000*1024; V = X + 358400000/2048 =
  // X+175000 becomes v0. Task 1 is then ineligible and task 2 runs; the sum is
  // re-based: 2's key is -175000, 1's 175000, so S = 175000*1024 after the switch.
  const auto& cfs = m.rqs()[0].cfs;
  CHECK(cfs.min_vruntime == X + 175'000);
  CHECK(m.rqs()[0].curr->id == 2);
  CHECK(cfs.avg_vruntime == value{175'000} * 1024);
  CHECK(cfs.avg_load == 1024);
  CHECK(m.tasks()[0].se.deadline == X + 1'050'000);
  CHECK(m.avg_vruntime_of(0) == X + 175'000);  // the view does not move v0
  CHECK(cfs.min_vruntime == X + 175'000);

  K618 r(one_cpu(), kTwo);
  run_to_first_deadline(r);
  CHECK(r.rqs()[0].cfs.min_vruntime == X);  // min(curr X+350000, tree min X)
  CHECK(r.rqs()[0].curr->id == 2);
  CHECK(r.avg_vruntime_of(0) == X + 175'000);  // the same V: v0 is only an origin
}
