// Tests model/tunables.h (docs/MODEL.md §2): TICK_NSEC for HZ 1000, 250, 300, 100, the
// CPU-scaled base slice (LOG factor 1 + ilog2(min(ncpus, 8)); NONE and LINEAR too), the
// per-version normalized base slices and the custom-slice clamp. Expected values are the
// docs/MODEL.md's or worked by hand in the comments.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/tunables.h"

namespace m = eevdf::model;

TEST_CASE("tick_nsec rounds 1e9/HZ to nearest", "[tunables]") {
  CHECK(m::tick_nsec(1000) == 1'000'000U);   // (1e9 + 500) / 1000 = 1 000 000.5
  CHECK(m::tick_nsec(250) == 4'000'000U);    // (1e9 + 125) / 250 = 4 000 000.5
  CHECK(m::tick_nsec(300) == 3'333'333U);    // (1e9 + 150) / 300 = 3 333 333.83
  CHECK(m::tick_nsec(100) == 10'000'000U);   // (1e9 + 50) / 100 = 10 000 000.5
  CHECK(m::tick_nsec(3) == 333'333'333U);    // (1e9 + 1) / 3 = 333 333 333.67
  CHECK(m::tick_nsec(1'000'000'000) == 1U);  // (1e9 + 5e8) / 1e9 = 1.5
}

TEST_CASE("normalized base slices per profile", "[tunables]") {
  CHECK(m::NORMALIZED_BASE_SLICE_6_18_NS == 700'000U);
  CHECK(m::NORMALIZED_BASE_SLICE_6_12_NS == 700'000U);      // Debian 6.12.117
  CHECK(m::NORMALIZED_BASE_SLICE_6_12_19_NS == 750'000U);   // mainline stable v6.12.19
}

TEST_CASE("sched_base_slice: LOG factor 1 + ilog2(min(ncpus, 8))", "[tunables]") {
  const std::uint64_t base = m::NORMALIZED_BASE_SLICE_6_18_NS;
  CHECK(m::sched_base_slice(base, 1) == 700'000U);      // 1 + ilog2(1) = 1
  CHECK(m::sched_base_slice(base, 2) == 1'400'000U);    // 1 + ilog2(2) = 2
  CHECK(m::sched_base_slice(base, 3) == 1'400'000U);    // 1 + ilog2(3) = 2
  CHECK(m::sched_base_slice(base, 4) == 2'100'000U);    // 1 + ilog2(4) = 3
  CHECK(m::sched_base_slice(base, 7) == 2'100'000U);    // 1 + ilog2(7) = 3
  CHECK(m::sched_base_slice(base, 8) == 2'800'000U);    // 1 + ilog2(8) = 4
  CHECK(m::sched_base_slice(base, 128) == 2'800'000U);  // min(128, 8) = 8: 4
  // Before v6.15: 0.75/1.50/2.25/3.00 ms.
  const std::uint64_t old = m::NORMALIZED_BASE_SLICE_6_12_19_NS;
  CHECK(m::sched_base_slice(old, 1) == 750'000U);
  CHECK(m::sched_base_slice(old, 2) == 1'500'000U);
  CHECK(m::sched_base_slice(old, 4) == 2'250'000U);
  CHECK(m::sched_base_slice(old, 128) == 3'000'000U);
}

TEST_CASE("sched_base_slice: NONE and LINEAR scaling", "[tunables]") {
  using s = m::sched_tunable_scaling;
  CHECK(m::get_update_sysctl_factor(128, s::none) == 1U);
  CHECK(m::get_update_sysctl_factor(4, s::linear) == 4U);
  CHECK(m::get_update_sysctl_factor(128, s::linear) == 8U);
  CHECK(m::sched_base_slice(700'000, 6, s::linear) == 4'200'000U);  // 6 * 0.7 ms
  CHECK(m::sched_base_slice(700'000, 6, s::none) == 700'000U);
}

TEST_CASE("clamp_custom_slice: 0.1 ms .. 100 ms", "[tunables]") {
  CHECK(m::CUSTOM_SLICE_MIN_NS == 100'000U);
  CHECK(m::CUSTOM_SLICE_MAX_NS == 100'000'000U);
  CHECK(m::clamp_custom_slice(1) == 100'000U);
  CHECK(m::clamp_custom_slice(99'999) == 100'000U);
  CHECK(m::clamp_custom_slice(100'000) == 100'000U);
  CHECK(m::clamp_custom_slice(3'000'000) == 3'000'000U);
  CHECK(m::clamp_custom_slice(100'000'000) == 100'000'000U);
  CHECK(m::clamp_custom_slice(100'000'001) == 100'000'000U);
  CHECK(m::clamp_custom_slice(UINT64_MAX) == 100'000'000U);
}
