// Tests of the checks' 6.12 forms (properties/profile_forms.h, protection_6_12.h;
// docs/PROPERTIES.md, Rules): each holds on a faithful `kernel 6.12` run and fails on a
// corrupted state or a fabricated hook call that the 6.12 rule forbids; min_slice_exact
// is refused, not passed, under 6.12; findings are known only for their profiles.
// The expected values are worked by hand in the comments from docs/MODEL.md (K6.12).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "model/arith_kernel.h"
#include "properties/findings.h"
#include "properties/registry.h"
#include "properties/tests/harness.h"
#include "replay/replay.h"

using eevdf::properties::testing::Harness;
using K = eevdf::model::KernelArith;
using P612 = eevdf::model::profile_6_12;
using H = Harness<K, P612>;

namespace {

// One CPU (base slice 0.7 ms, Debian 6.12.117), hz 1000, two nice-0 tasks; X = v0.
// fork 1: v1 = X, d1 = X + 350000 (half a slice), curr; set_next stashes vlag1 = d1.
// fork 2: v2 = V = X, d2 = X + 350000; equal slices (no PREEMPT_SHORT); curr is
//   eligible and, with RUN_TO_PARITY, protected (vlag1 == d1): kept, no preemption.
// tick 100us: v1 = X + 100000 < d1: no renewal; V = X + 50000, curr ineligible but
//   protected: no reschedule.
// tick 400us: v1 = X + 400000 >= d1: renewed, a reschedule; task 2 runs.
std::string two_tasks_612(const std::string& features = "") {
  return "eevdf-trace 1\n"
         "kernel 6.12\n"
         "topology 1x1\n"
         "hz 1000\n" +
         (features.empty() ? "" : "features " + features + "\n") +
         "task 1\n"
         "task 2\n"
         "@0 fork 1\n"
         "@0 fork 2\n"
         "@100us tick 0\n"
         "@400us tick 0\n";
}
constexpr int kFork2Line = 8;    // the line of `@0 fork 2` (no features line)
constexpr int kTick100 = 9;  // the line of `@100us tick 0`

const eevdf::model::sched_entity<K>& se(H& h, int id) { return h.task(id).se; }

}  // namespace

TEST_CASE("6.12 slice_protection holds on the faithful run", "[properties][6.12]") {
  H h(two_tasks_612(), {"slice_protection"});
  h.apply_until();
  CHECK(h.sink.count("slice_protection") == 0);
  CHECK(h.run->machine().rqs()[0].curr->id == 2);  // the renewal at 400 us rescheduled
}

TEST_CASE("6.12 slice_protection fails when a protected curr is rescheduled", "[properties][6.12]") {
  H h(two_tasks_612(), {"slice_protection"});
  h.apply_until(kFork2Line);
  // Cancel task 1's protection behind the check's back (vlag = deadline + 1): at the
  // 100 us tick the model's did_preempt_short sees an unprotected, ineligible curr
  // (v1 = X + 100000 > V = X + 50000) and reschedules; the check's own protection
  // (stashed at the pick, deadline unchanged, no PREEMPT_SHORT wakeup) says no.
  auto& s1 = h.task(1).se;
  s1.vlag = s1.deadline + 1;
  h.apply_until(kTick100);
  CHECK(h.run->machine().rqs()[0].curr->id == 2);
  CHECK(h.sink.count("slice_protection") == 1);
}

TEST_CASE("6.12 pick_earliest_deadline exempts curr only while vlag == deadline", "[properties][6.12]") {
  H h(two_tasks_612(), {"pick_earliest_deadline"});
  h.apply_until(kFork2Line);
  const auto& rq = h.rq(0);
  // curr 1 and task 2 tie at d = X + 350000, both eligible (v = V = X): a plain pick
  // takes the tree entity 2; task 1 is picked only as a protected curr.
  h.checker().picked(rq, &se(h, 1), false);
  CHECK(h.sink.count("pick_earliest_deadline") == 0);
  h.task(1).se.vlag = se(h, 1).deadline + 1;  // cancelled: no exemption
  h.checker().picked(rq, &se(h, 1), false);
  CHECK(h.sink.count("pick_earliest_deadline") == 1);
}

TEST_CASE("6.12 wakeup_preempt_rule: the pick keeps a protected curr only with RUN_TO_PARITY", "[properties][6.12]") {
  SECTION("RUN_TO_PARITY: curr 1 is kept, so a wakeup of 2 must not preempt") {
    H h(two_tasks_612(), {"wakeup_preempt_rule"});
    h.apply_until(kFork2Line);
    const auto& rq = h.rq(0);
    h.checker().wakeup_pick_step(rq, se(h, 1), se(h, 2), false);
    h.checker().wakeup_decided(rq, se(h, 2), false);
    CHECK(h.sink.count("wakeup_preempt_rule") == 0);
    h.checker().wakeup_pick_step(rq, se(h, 1), se(h, 2), false);
    h.checker().wakeup_decided(rq, se(h, 2), true);
    CHECK(h.sink.count("wakeup_preempt_rule") == 1);
  }
  SECTION("NO_RUN_TO_PARITY: the tie goes to the tree entity, so the wakee must preempt") {
    // The fork of 2 already preempted 1 (no protection in the pick, tie to the tree
    // entity): curr 2, tree {1}, both at v = X, d = X + 350000. A wakeup check of 1
    // picks 1 (the tree entity wins the tie): not preempting breaks the rule.
    H h(two_tasks_612("NO_RUN_TO_PARITY"), {"wakeup_preempt_rule"});
    h.apply_until(kFork2Line + 1);
    const auto& rq = h.rq(0);
    REQUIRE(rq.curr->id == 2);
    CHECK(h.sink.count("wakeup_preempt_rule") == 0);
    h.checker().wakeup_pick_step(rq, se(h, 2), se(h, 1), false);
    h.checker().wakeup_decided(rq, se(h, 1), false);
    CHECK(h.sink.count("wakeup_preempt_rule") == 1);
  }
}

TEST_CASE("6.12 wakeup_preempt_rule and slice_protection follow a do_preempt_short wakeup", "[properties][6.12]") {
  // Task 3 (slice 0.3 ms) forks at 100 us beside curr 1 (v1 = X + 100000) and task 2
  // (v2 = X): V = X + 50000, it is placed at v3 = X + 50000 with d3 = X + 200000
  // (half of 0.3 ms). do_preempt_short: 0.3 < 0.7 ms, 3 eligible (v3 = V), d3 < d1 =
  // X + 350000: curr's protection is cancelled; the pick: curr ineligible, the tree
  // {3 at X + 200000, 2 at X + 350000} both eligible: 3, the wakee: a preemption.
  const std::string t = "eevdf-trace 1\nkernel 6.12\ntopology 1x1\nhz 1000\ntask 1\ntask 2\ntask 3 slice=0.3ms\n"
                  "@0 fork 1\n@0 fork 2\n@100us fork 3\n";
  H h(t, {"wakeup_preempt_rule", "slice_protection"});
  h.apply_until();
  CHECK(h.sink.count("wakeup_preempt_rule") == 0);
  CHECK(h.sink.count("slice_protection") == 0);
  CHECK(h.run->machine().rqs()[0].curr->id == 3);
}

TEST_CASE("6.12 sums_consistent: v0 moves to V inside avg_vruntime", "[properties][6.12]") {
  H h(two_tasks_612(), {"sums_consistent"});
  h.apply_until(kTick100);
  const auto& cfs = h.rq(0).cfs;
  const K::value X = cfs.min_vruntime;  // no avg_vruntime() call has moved v0 yet (see two_tasks_612)
  // V = X + floor((1024 * 100000 + 1024 * 0) / 2048) = X + 50000: the re-base's target,
  // forward of v0 but not the smallest vruntime (X, task 2), which is 6.18's rule.
  h.checker().v0_moved(cfs, X, X + 50000);
  CHECK(h.sink.count("sums_consistent") == 0);
  h.checker().v0_moved(cfs, X, X + 100000);  // to curr's vruntime: not V
  CHECK(h.sink.count("sums_consistent") == 1);
}

TEST_CASE("6.12 reweight_preserves_lag: the relative deadline comes back unscaled", "[properties][6.12]") {
  // NO_PLACE_LAG: only the deadline part is judged. Task 2 (queued, v2 = X,
  // d2 = X + 350000) is reniced 0 -> 5 at 300 us: the SAVE dequeue makes its deadline
  // relative (350000); 6.12 rescales only vlag off the runqueue, so the RESTORE
  // placement gives d2' - v2' = 350000 again (6.18 would scale it by 1024/335).
  const std::string text =
      "eevdf-trace 1\nkernel 6.12\ntopology 1x1\nhz 1000\nfeatures NO_PLACE_LAG\ntask 1\ntask 2\ntask 3\n"
      "@0 fork 1\n@0 fork 2\n@0 fork 3\n@300us tick 0\n@300us renice 2 5\n";
  H h(text, {"reweight_preserves_lag"});
  h.apply_until();
  CHECK(h.sink.count("reweight_preserves_lag") == 0);
  CHECK(se(h, 2).deadline - se(h, 2).vruntime == 350000);
  // The same check fed a RESTORE whose relative deadline moved by 1 ns: 6.12 keeps it
  // exactly, so this fails (a 6.18 form would allow |error| < w_new).
  eevdf::trace::Event renice;
  renice.verb = eevdf::trace::Verb::renice;
  renice.task = 2;
  renice.nice = 0;
  h.env().event = &renice;
  h.checker().before_event(renice);
  const auto& cfs = h.rq(0).cfs;
  h.checker().lag_stored(cfs, se(h, 2), 0, 0, 0);
  h.task(2).se.deadline += 1;
  h.checker().placed(cfs, se(h, 2), 0, 0, true, 0);
  h.env().event = nullptr;
  CHECK(h.sink.count("reweight_preserves_lag") == 1);
}

TEST_CASE("min_slice_exact does not apply to 6.12: refused, never passed", "[properties][6.12]") {
  namespace p = eevdf::properties;
  CHECK(p::implemented("min_slice_exact", "6.18"));
  CHECK_FALSE(p::implemented("min_slice_exact", "6.12"));
  CHECK(p::implemented("slice_protection", "6.12"));
  CHECK(p::not_applicable("min_slice_exact", "6.12").find("not applicable to 6.12") != std::string::npos);
  CHECK(p::not_applicable("slice_protection", "6.12").empty());
  CHECK_FALSE(p::not_applicable("kernel_matches_reference", "6.18").empty());
  const auto replay_code = [](const std::string& text, std::vector<std::string> check) {
    std::istringstream in(text);
    std::ostringstream out, err;
    eevdf::replay::Options o;
    o.check = std::move(check);
    return eevdf::replay::replay(in, "t.trace", o, out, err);
  };
  CHECK(replay_code(two_tasks_612(), {"min_slice_exact"}) == eevdf::replay::Outcome::bad_input);
  const std::string expecting = "eevdf-trace 1\nkernel 6.12\nexpect violation min_slice_exact\ntask 1\n@0 fork 1\n";
  CHECK(replay_code(expecting, {}) == eevdf::replay::Outcome::bad_input);
  CHECK(replay_code(two_tasks_612(), {"slice_protection"}) == eevdf::replay::Outcome::clean);
}

TEST_CASE("a finding is known only under the profiles its entry names", "[properties][findings]") {
  namespace p = eevdf::properties;
  CHECK(p::finding_covers("monotone-min-vruntime-overflow", "6.18"));
  CHECK_FALSE(p::finding_covers("monotone-min-vruntime-overflow", "6.12"));
  CHECK(p::finding_covers("lag-bound-yield", "6.12"));
  CHECK(p::finding_covers("lag-bound-yield", "6.18"));
  CHECK(p::finding_covers("kernel-src-null-pick-after-overflow", "6.12"));
  CHECK_FALSE(p::finding_covers("kernel-src-null-pick-after-overflow", "6.18"));
  CHECK_FALSE(p::finding_covers("no-such-finding", "6.18"));
}
