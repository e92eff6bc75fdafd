// lag_bound skips its walk of the queue while the tree is unchanged and a bound
// settles the check (LagBound::settled_without_walk). Its measure must still be the
// largest ratio over every event: here it is recomputed by this test, event by
// event, from the model's queue (docs/MODEL.md §4.1 V, §16 the service lag).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "model/arith_kernel.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using K = eevdf::model::KernelArith;
using s128 = eevdf::model::s128;

namespace {

// §2 scale_load_down.
std::uint64_t scaled(std::uint64_t w) { return w == 0 ? 0 : std::max<std::uint64_t>(2, w >> 10); }

// floor(n / d), d > 0.
s128 floor_div(s128 n, s128 d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }

// max over Q of w * |V - v|, V = v0 + floor(S / W) over Q; -1 on an empty queue.
s128 largest_weighted_lag(const eevdf::model::cfs_rq<K>& cfs) {
  s128 sum = 0, weights = 0;
  const auto each = [&](auto&& f) {
    for (const auto* se : cfs.timeline) f(*se);
    if (cfs.curr != nullptr && cfs.curr->on_rq) f(*cfs.curr);
  };
  each([&](const auto& se) {
    sum += s128(scaled(se.load.weight)) * (se.vruntime - cfs.min_vruntime);
    weights += s128(scaled(se.load.weight));
  });
  if (weights == 0) return -1;
  const s128 V = cfs.min_vruntime + floor_div(sum, weights);
  s128 worst = -1;
  each([&](const auto& se) {
    const s128 d = V - se.vruntime;
    worst = std::max(worst, s128(scaled(se.load.weight)) * (d < 0 ? -d : d));
  });
  return worst;
}

s128 parse(const std::string& digits) {
  s128 v = 0;
  for (const char c : digits) v = v * 10 + (c - '0');
  return v;
}

}  // namespace

// One CPU, three tasks of mixed weight and long slices (29.5, 20 and 10.5 ms: off the
// tick grid, so the stretch is measured from its first check): the measure is the
// largest w*|V - v| / (1024 * (s_max + q)) after any event with two or more queued,
// s_max = 29.5 ms, q = 1 ms. Most ticks leave the tree as it was: curr runs on,
// protected, for about 10 of them. This guards the walk's arithmetic against an
// independent recount; the next test guards the walk-free bound.
TEST_CASE("lag_bound measures the largest ratio of every event, walked or bounded", "[delayed]") {
  std::string text =
      "eevdf-trace 1\ntopology 1x1\nhz 1000\n"
      "task 1 slice=29.5ms\ntask 2 nice=3 slice=20ms\ntask 3 nice=-4 slice=10.5ms\n"
      "@0 fork 1\n@0 fork 2\n@0 fork 3\n";
  for (int m = 1; m <= 80; ++m) text += "@" + std::to_string(m) + "ms tick 0\n";
  Harness<K> h(text, {"lag_bound"});
  s128 expected = -1;
  for (int line = 1; line <= 90; ++line) {  // every event, one at a time
    h.apply_until(line);
    const auto& cfs = h.run->machine().rqs()[0].cfs;
    if (cfs.nr_queued >= 2) expected = std::max(expected, largest_weighted_lag(cfs));
  }
  REQUIRE(expected > 0);
  const s128 den = s128(1024) * (29'500'000 + 1'000'000);
  std::string num_text, den_text;
  REQUIRE(h.run->checker().measure("lag_bound", num_text, den_text));
  CHECK(parse(num_text) * den == expected * parse(den_text));
  CHECK(h.sink.violations.empty());
}

// A tree entity's lag that grows while only curr moves must reach the measure: one
// of the tree is put 3 ms behind (a recount follows, and a walk), then curr is
// charged as update_curr would (its vruntime, a generation bump, the value patch).
// The tree is unchanged, V rises, and so does that entity's w*(V - v): the check may
// skip its walk only if a bound shows the measure cannot rise, and here it does.
TEST_CASE("lag_bound's measure follows a tree lag that grows without a walk", "[delayed]") {
  Harness<K> h(
      "eevdf-trace 1\ntopology 1x1\nhz 1000\ntask 1 slice=2.5ms\ntask 2 nice=3\ntask 3 nice=-4\n"
      "@0 fork 1\n@0 fork 2\n@0 fork 3\n@1ms tick 0\n@2ms tick 0\n@3ms tick 0\n",
      {"lag_bound"});
  h.apply_until();
  const auto& cfs = h.run->machine().rqs()[0].cfs;
  REQUIRE(cfs.curr != nullptr);
  REQUIRE(cfs.timeline.size() == 2);
  const int behind = h.run->machine().tasks()[static_cast<std::size_t>((*cfs.timeline.begin())->task)].id;
  h.task(behind).se.vruntime -= 3'000'000;
  h.touch({0});
  h.checker().after_event(eevdf::properties::testing::tick_event());
  const s128 before = largest_weighted_lag(cfs);
  std::string n1, d1;
  REQUIRE(h.run->checker().measure("lag_bound", n1, d1));
  // update_curr's charge of 0.5 ms of vruntime, as the model reports it.
  auto& curr = const_cast<eevdf::model::sched_entity<K>&>(*cfs.curr);
  curr.vruntime += 500'000;
  ++const_cast<eevdf::model::cfs_rq<K>&>(cfs).generation;
  h.checker().queue_changed(cfs, &curr);
  h.touch({0});
  h.checker().after_event(eevdf::properties::testing::tick_event());
  const s128 after = largest_weighted_lag(cfs);
  REQUIRE(after > before);
  std::string n2, d2;
  REQUIRE(h.run->checker().measure("lag_bound", n2, d2));
  // The measure moved from before/(1024 (s_max + q)) to after/(the same).
  CHECK(parse(n2) * parse(d1) * before == parse(n1) * parse(d2) * after);
}
