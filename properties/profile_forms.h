// What a check reads differently under each kernel profile (docs/PROPERTIES.md, Rules:
// "on 6.12 use the 6.12 rules where they differ"): one specialization of Forms<P>
// per profile, like the model's profile_ops, so that a check asks its form instead of
// testing a version. Every member recomputes from the model's fields; none calls the
// model's protect_slice, pick or avg_vruntime (in 6.12 avg_vruntime re-bases v0).
#pragma once

#include <string_view>  // names

#include "model/config.h"
#include "model/features.h"
#include "model/profile.h"
#include "model/task.h"
#include "properties/brute.h"
#include "properties/findings.h"
#include "properties/queue_walk.h"

namespace eevdf::properties {

template <class P>
struct Forms;

// What every profile's form shares, written over that profile's is_protected.
template <class F>
struct SharedForms {
  // §8.3 RUN_TO_PARITY_WAKEUP: a protected curr stays a wakeup candidate even when
  // ineligible.
  template <class A>
  static bool wakeup_keeps_ineligible(const model::Config& cfg, const model::sched_entity<A>& curr, bool short_) {
    return cfg.feat(model::Feature::RUN_TO_PARITY_WAKEUP) && !short_ && F::is_protected(curr);
  }
};

// v6.18.2 (docs/MODEL.md §4.3, §7.1, §7.3, §8.2, §9 as K6.18).
template <>
struct Forms<model::profile_6_18> : SharedForms<Forms<model::profile_6_18>> {
  static constexpr std::string_view profile = model::profile_6_18::name;

  // §7.3 protect_slice(): (s64)(vprot - vruntime) > 0 (unwrapped: the difference).
  template <class A>
  static bool is_protected(const model::sched_entity<A>& se) {
    return se.vprot - se.vruntime > 0;
  }
  template <class A>
  static std::string protection_text(const model::sched_entity<A>& se) {
    return "vprot " + A::to_string(se.vprot);
  }
  // §7.1 step 3: the schedule path's pick (protect = true) keeps an eligible
  // protected curr.
  template <class A>
  static bool pick_keeps(const model::Config&, const model::sched_entity<A>& curr) {
    return is_protected(curr);
  }
  // §8.2 step 7: PREEMPT_SHORT on a shorter slice; eligibility is left to the pick.
  template <class A>
  static bool preempt_short(const model::Config& cfg, const QueueSums<A>&, const model::sched_entity<A>& curr,
                            const model::sched_entity<A>& wakee) {
    return cfg.feat(model::Feature::PREEMPT_SHORT) && wakee.slice < curr.slice;
  }
  // §8.2 step 8: __pick_eevdf(protect = !short) returns a protected eligible curr at
  // once; with RUN_TO_PARITY_WAKEUP (§8.3) a protected curr stays a candidate even
  // when ineligible.
  template <class A>
  static bool wakeup_keeps(const model::Config&, const model::sched_entity<A>& curr, bool short_) {
    return !short_ && is_protected(curr);
  }
  // §4.3 update_min_vruntime(): v0 moves only forward, to the smallest vruntime of Q.
  // A walk of Q, not the shared recount: the model bumps the generation right after
  // moving v0, so a recount here would serve nobody else.
  template <class A>
  static bool v0_moves_to(const model::cfs_rq<A>& cfs, const typename A::value& from, const typename A::value& to,
                          typename A::value& expected) {
    bool any = false;
    for_each_queued(cfs, [&](const model::sched_entity<A>& se) {
      if (!any || se.vruntime < expected) expected = se.vruntime;
      any = true;
    });
    return any && expected == to && to > from;
  }
  static constexpr std::string_view v0_rule = "v0 must advance to the smallest vruntime of curr and the tree (§4.3)";
  static constexpr std::string_view v0_where = "v0 changed outside update_min_vruntime (§4.3)";
  // §9: a relative deadline is rescaled by w_old/w_new with vlag.
  static constexpr bool reweight_scales_rel_deadline = true;
  // no_overflow after a tick-less stretch of >= 1 s (findings.h).
  static constexpr std::string_view tickless_overflow = known_finding("monotone-min-vruntime-overflow");
};

// Debian's 6.12.117 (docs/MODEL.md §4.3 zero_vruntime, §5.1, §7.1, §7.3, §8.2, §9
// as K6.12): protection is the deadline stashed in vlag at pick.
template <>
struct Forms<model::profile_6_12> : SharedForms<Forms<model::profile_6_12>> {
  static constexpr std::string_view profile = model::profile_6_12::name;

  // §7.3 (K6.12) protect_slice(): vlag == deadline.
  template <class A>
  static bool is_protected(const model::sched_entity<A>& se) {
    return se.vlag == se.deadline;
  }
  template <class A>
  static std::string protection_text(const model::sched_entity<A>& se) {
    return "vlag " + A::to_string(se.vlag) + (is_protected(se) ? " (= deadline: protected)" : " (unprotected)");
  }
  // §7.1 (K6.12) step 3: RUN_TO_PARITY ∧ vlag == deadline keeps an eligible curr.
  template <class A>
  static bool pick_keeps(const model::Config& cfg, const model::sched_entity<A>& curr) {
    return cfg.feat(model::Feature::RUN_TO_PARITY) && is_protected(curr);
  }
  // §8.2 (K6.12) do_preempt_short(): an eligible wakee with a shorter slice and an
  // earlier deadline ((s64)(d_wakee - d_curr) < 0), or an ineligible curr.
  template <class A>
  static bool preempt_short(const model::Config& cfg, const QueueSums<A>& sums, const model::sched_entity<A>& curr,
                            const model::sched_entity<A>& wakee) {
    if (!cfg.feat(model::Feature::PREEMPT_SHORT) || !(wakee.slice < curr.slice)) return false;
    if (!sums.eligible(wakee.vruntime)) return false;
    return wakee.deadline < curr.deadline || !sums.eligible(curr.vruntime);
  }
  // §8.2 (K6.12) step 8: do_preempt_short cancels the protection before pick_eevdf,
  // which keeps a protected eligible curr only with RUN_TO_PARITY. `curr` as it was
  // before that cancel (the wakeup_pick_step hook fires before it).
  template <class A>
  static bool wakeup_keeps(const model::Config& cfg, const model::sched_entity<A>& curr, bool short_) {
    return !short_ && pick_keeps(cfg, curr);
  }
  // §4.3 zero_vruntime (the 6.12.117 back-port): avg_vruntime() re-bases v0 to V,
  // the floored mean of Q (curr's vruntime when it is alone), in either direction.
  template <class A>
  static bool v0_moves_to(const model::cfs_rq<A>& cfs, const typename A::value& from, const typename A::value& to,
                          typename A::value& expected) {
    expected = brute::avg_vruntime(cfs);
    return !brute::queued(cfs).empty() && expected == to && to != from;
  }
  static constexpr std::string_view v0_rule = "v0 (zero_vruntime) is re-based to V of Q inside avg_vruntime (§4.3)";
  static constexpr std::string_view v0_where = "v0 changed outside avg_vruntime's re-base (§4.3)";
  // §9 (K6.12): off the runqueue reweight_entity rescales vlag only; the relative
  // deadline of the SAVE dequeue is restored as it was.
  static constexpr bool reweight_scales_rel_deadline = false;
  // no_overflow after a tick-less stretch of >= 1 s, found on kernel-src (findings.h).
  static constexpr std::string_view tickless_overflow = known_finding("k612-tickless-eligibility-overflow");
};

// A tree whose __enqueue_entity / __dequeue_entity re-base zero_vruntime (6.19's
// one-argument update_zero_vruntime; KSRC_SHAPE_V0_BY_TREE_CHANGE): v0 := avg_vruntime()
// taken between the sums' update and the rbtree's, judged once the tree change is
// complete. That mean covers the tree and an on_rq curr: put_prev_entity returns curr
// to the tree before it clears cfs_rq->curr, so there curr counts twice, as in the walk
// of Q (the tree holds it and it is the on_rq curr); set_next_entity dequeues with curr
// cleared. Only the reference point of the sums moves: V does not depend on it.
struct V0ByTreeChange {
  template <class A>
  static bool v0_moves_to(const model::cfs_rq<A>& cfs, const typename A::value& from, const typename A::value& to,
                          typename A::value& expected) {
    expected = brute::avg_vruntime(cfs);
    return !brute::queued(cfs).empty() && expected == to && to != from;
  }
  static constexpr std::string_view v0_rule =
      "v0 (zero_vruntime) is re-based to V of the tree and curr by __enqueue_entity / __dequeue_entity (§4.3)";
  static constexpr std::string_view v0_where =
      "v0 changed outside the re-base of __enqueue_entity / __dequeue_entity (§4.3)";
};

}  // namespace eevdf::properties
