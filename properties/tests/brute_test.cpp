// The oracle's own arithmetic (properties/brute.h): __calc_delta and calc_delta_fair
// against the worked vectors of docs/MODEL.md §1.3, the scaled base slice against §2,
// and calc_delta_fair differentially against the model's (model/calc_delta.h) over
// random deltas and weights: the one place where the oracle and the model it judges
// meet, so that a slip in either shows as a disagreement.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <cstdint>

#include "model/arith_kernel.h"
#include "model/calc_delta.h"
#include "model/tunables.h"
#include "model/weights.h"
#include "properties/brute.h"
#include "trace/tests/rc_check.h"

namespace brute = eevdf::properties::brute;
using K = eevdf::model::KernelArith;

namespace {

// An entity of nice `nice` as set_load_weight leaves it: the table weight and inverse,
// written here from §1.2 (scale_load: << 10).
eevdf::model::sched_entity<K> task_entity(std::uint64_t weight, std::uint32_t inverse) {
  eevdf::model::sched_entity<K> se{};
  se.load.weight = weight << 10;
  se.load.inv_weight = inverse;
  return se;
}

}  // namespace

TEST_CASE("the oracle's calc_delta_fair gives the worked vectors of §1.3", "[properties][brute]") {
  // nice, table weight, table inverse, then calc_delta_fair of 1 ms, 2.8 ms and 3 ms.
  struct Row {
    int nice;
    std::uint64_t weight;
    std::uint32_t inverse;
    std::uint64_t at_1ms, at_2_8ms, at_3ms;
  };
  const Row rows[] = {
      {-20, 88761, 48388, 11536, 32302, 34609},        {-10, 9548, 449829, 107247, 300293, 321742},
      {-5, 3121, 1376151, 328099, 918679, 984299},     {-1, 1277, 3363326, 801879, 2245262, 2405638},
      {0, 1024, 4194304, 1000000, 2800000, 3000000},   {1, 820, 5237765, 1248780, 3496585, 3746341},
      {5, 335, 12820798, 3056716, 8558806, 9170149},   {10, 110, 39045157, 9309090, 26065454, 27927272},
      {13, 56, 76695844, 18285714, 51199999, 54857142}, {19, 15, 286331153, 68266666, 191146666, 204799999},
  };
  for (const Row& r : rows) {
    CAPTURE(r.nice);
    const auto se = task_entity(r.weight, r.inverse);
    CHECK(brute::calc_delta_fair<K>(1'000'000, se) == K::value(r.at_1ms));
    CHECK(brute::calc_delta_fair<K>(2'800'000, se) == K::value(r.at_2_8ms));
    CHECK(brute::calc_delta_fair<K>(3'000'000, se) == K::value(r.at_3ms));
  }
  // A task's stored inverse is its table entry, looked up by weight: a wrong stored
  // value does not lead the oracle astray.
  CHECK(brute::calc_delta_fair<K>(2'800'000, task_entity(56, 1)) == K::value(51199999));
  // The lazy inverse (§1.3), worked by hand for w = 1000: inv = floor(4294967295 / 1000)
  // = 4294967; fact = 1024 * 4294967 = 4398046208 >= 2^32, fls(1) = 1: fact 2199023104,
  // shift 31; 1 ms: floor(10^6 * 2199023104 / 2^31) = 1023999 (1024000 exactly).
  CHECK(brute::calc_delta_fair<K>(1'000'000, task_entity(1000, 0)) == K::value(1023999));
}

TEST_CASE("calc_delta_fair of a tree whose __calc_delta divides", "[properties][brute]") {
  // Nice 6 (weight 272, table inverse 15790321), 31.37104 ms, worked by hand. Dividing:
  // floor(31371040 * 2^20 / (272 * 2^10)) = floor(31371040 * 1024 / 272) = 118102738.
  // By the inverse: fact = 1024 * 15790321 = 16169288704 >= 2^32, fls(3) = 2: fact
  // 4042322176, shift 30; floor(31371040 * 4042322176 / 2^30) = 118102739.
  const auto se = task_entity(272, 15790321);
  CHECK(brute::calc_delta_fair<K>(31'371'040, se, true) == K::value(118102738));
  CHECK(brute::calc_delta_fair<K>(31'371'040, se, false) == K::value(118102739));
  // At NICE_0_LOAD both are delta itself.
  CHECK(brute::calc_delta_fair<K>(31'371'040, task_entity(1024, 4194304), true) == K::value(31371040));
}

TEST_CASE("the oracle's scaled base slice is §2's factor times the normalized one", "[properties][brute]") {
  // 1 + ilog2(min(ncpus, 8)): 1, 2, 2, 3, 3, 3, 3, 4, 4 for 1..9 CPUs.
  const std::uint64_t factor[] = {1, 2, 2, 3, 3, 3, 3, 4, 4};
  for (int cpus = 1; cpus <= 9; ++cpus) {
    CAPTURE(cpus);
    CHECK(brute::base_slice(700'000, cpus) == 700'000 * factor[cpus - 1]);
  }
  CHECK(brute::base_slice(750'000, 128) == 3'000'000);
}

// Where the oracle meets the model: the same value for any delta, any table weight
// with its inverse, and any weight with an unset (lazy) inverse.
TEST_CASE("the oracle's calc_delta_fair equals the model's on random inputs", "[properties][brute]") {
  eevdf::trace::testing::check("brute-calc-delta-fair-matches-model", 2000, [] {
    const auto delta = *rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(0, 100'000'000),
                                       rc::gen::arbitrary<std::uint64_t>());
    const bool table = *rc::gen::arbitrary<bool>();
    eevdf::model::load_weight lw{};
    if (table) {
      lw = eevdf::model::load_weight_for_nice(*rc::gen::inRange(eevdf::model::NICE_MIN, eevdf::model::NICE_MAX + 1));
    } else {
      lw.weight = *rc::gen::inRange<std::uint64_t>(2048, std::uint64_t{1} << 40);
      lw.inv_weight = 0;
    }
    eevdf::model::sched_entity<K> se{};
    se.load = lw;
    RC_ASSERT(brute::calc_delta_fair<K>(delta, se) == K::value(eevdf::model::calc_delta_fair(delta, lw)));
  });
  eevdf::trace::testing::check("brute-base-slice-matches-model", 200, [] {
    const int cpus = *rc::gen::inRange(1, 1025);
    const auto normalized = *rc::gen::inRange<std::uint64_t>(1, eevdf::model::NORMALIZED_BASE_SLICE_MAX_NS + 1);
    RC_ASSERT(brute::base_slice(normalized, cpus) == eevdf::model::sched_base_slice(normalized, cpus));
  });
}
