// docs/PROPERTIES.md, EEVDF core: slice protection and rescheduling (wakeup_preempt_rule,
// lone_no_resched, slice_sane, min_slice_exact, slice_protection). Each check
// recomputes the pick, the minimum slice and the protection limit itself from the
// queued entities (docs/MODEL.md §5.1, §7.1, §7.3, §8.2, §9), never through the
// model's pick_eevdf / set_protect_slice / protect_slice code.
#pragma once

#include <fmt/format.h>

#include <cstdint>  // slices
#include <string>   // report text
#include <vector>   // per-CPU state

#include "model/features.h"
#include "properties/brute.h"
#include "properties/profile_forms.h"
#include "properties/property.h"
#include "properties/registry_table.h"

namespace eevdf::properties {
namespace protection_brute {

template <class A>
using entity = model::sched_entity<A>;

// |Q| (§3.2 nr_queued recounted): the tree plus an on_rq curr, delayed ones included.
template <class A>
std::size_t count_queued(const model::cfs_rq<A>& cfs) {
  return cfs.timeline.size() + (cfs.curr != nullptr && cfs.curr->on_rq ? 1 : 0);
}

// §7.1 __pick_eevdf(cfs, protect) as the wakeup check calls it (§8.2 step 8), from
// scratch: the earliest-deadline eligible entity of Q (ties: insertion order), curr
// winning only a strictly earlier deadline. `keeps_curr`: an eligible curr is
// returned at once (protected, and the profile's rule keeps it: Forms<P>);
// `keeps_ineligible`: RUN_TO_PARITY_WAKEUP (§8.3), curr stays a candidate even when
// ineligible; `takes_buddy`: an eligible next buddy is returned before anything else
// (a tree whose pick takes it: Env::wakeup_picks_buddy).
template <class A>
const entity<A>* wakeup_pick(const model::cfs_rq<A>& cfs, const QueueSums<A>& eligible_sums, bool keeps_curr,
                             bool keeps_ineligible, bool takes_buddy = false) {
  const std::size_t n = count_queued(cfs);
  const entity<A>* curr = cfs.curr != nullptr && cfs.curr->on_rq ? cfs.curr : nullptr;
  if (n == 0) return nullptr;
  if (n == 1) return curr != nullptr ? curr : *cfs.timeline.begin();  // the only one, unchecked
  const auto eligible = [&](const entity<A>& se) { return eligible_sums.eligible(se.vruntime); };
  if (takes_buddy && cfs.next != nullptr && eligible(*cfs.next)) return cfs.next;
  if (curr != nullptr && !eligible(*curr) && !keeps_ineligible) curr = nullptr;
  if (curr != nullptr && keeps_curr) return curr;
  const entity<A>* best = nullptr;
  for (const auto* se : cfs.timeline) {
    if (!eligible(*se)) continue;
    if (best == nullptr || se->deadline < best->deadline ||
        (se->deadline == best->deadline && se->tree_seq < best->tree_seq))
      best = se;
  }
  if (best == nullptr || (curr != nullptr && curr->deadline < best->deadline)) best = curr;
  return best;
}

// A yield moves curr's deadline without a charge after it (§12): after each event
// the per-CPU state of a slice check (`at(cfs)`, with `curr` and `deadline`)
// follows the deadline of the curr it belongs to.
template <class Env, class At>
void follow_curr_deadlines(const Env& env, At&& at) {
  for (int cpu : env.touched) {
    const auto& cfs = env.m.rqs().at(static_cast<std::size_t>(cpu)).cfs;
    auto& st = at(cfs);
    if (cfs.curr != nullptr && st.curr == cfs.curr->task) st.deadline = cfs.curr->deadline;
  }
}

}  // namespace protection_brute

// wakeup_preempt_rule (§8.2): a wakeup-preemption check that reaches its pick step
// picks, and with no reschedule pending asks for one iff the wakee is what
// __pick_eevdf picks at that moment (curr's protection honoured unless PREEMPT_SHORT
// applies); a schedule then runs on that CPU iff it asked. A renice follows
// prio_changed_fair (§9): of the running task, a reschedule iff its nice rose with
// >= 2 queued, or the renice's own update_curr asked for one; of a queued task that
// is not running, with >= 2 queued under a fair curr, a wakeup check for it.
template <class A, class P = model::profile_6_18>
class WakeupPreemptRule final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "wakeup_preempt_rule"; }

  void before_event(const trace::Event& e) override {
    judged_cpu_ = decided_cpu_ = entered_cpu_ = returns_cpu_ = stepped_cpu_ = -1;
    picked_ = charged_resched_ = false;
    renice_ = {};
    renice_wakee_ = nullptr;
    const auto& m = this->env_.m;
    if (e.verb != trace::Verb::renice || this->env_.task_index(e.task) < 0) return;
    const auto& p = m.tasks().at(static_cast<std::size_t>(this->env_.task_index(e.task)));
    const auto& rq = m.rqs().at(static_cast<std::size_t>(p.cpu));
    if (e.nice == p.nice) return;
    const std::size_t queued = protection_brute::count_queued(rq.cfs);
    if (rq.curr == &p) {
      renice_ = {p.cpu, p.id, p.nice, e.nice, queued};
    } else if (p.on_rq && rq.curr != nullptr && queued >= 2) {
      renice_wakee_ = &p.se;  // §9: a queued task that is not running gets the wakeup check
      renice_cpu_ = p.cpu;
    }
  }

  // §8.2 steps 1-6: a check under a fair curr that is not the wakee, with no reschedule
  // pending and WAKEUP_PREEMPTION on, has no return before its pick step (its own
  // update_curr may ask to reschedule, after this test); with one pending or the
  // feature off it returns before it. A tree whose check decides
  // by a preempt action returns before its pick on a fork, a delayed wakee or a next
  // buddy, unless PREEMPT_SHORT sends a shorter wakee to its pick first
  // (Env::wakeup_returns_before_pick): there only that case is judged.
  void wakeup_entered(const model::rq<A>& rq, const model::sched_entity<A>& wakee) override {
    if (entered_cpu_ >= 0) report_no_pick();
    if (stepped_cpu_ >= 0) report_no_decision();
    if (&wakee == renice_wakee_ && rq.cpu == renice_cpu_) renice_wakee_ = nullptr;
    returns_cpu_ = -1;
    if (rq.curr == nullptr || &rq.curr->se == &wakee) return;
    const auto& cfg = this->env_.m.config();
    if (rq.need_resched || !cfg.feat(model::Feature::WAKEUP_PREEMPTION)) {
      this->judged();
      returns_cpu_ = rq.cpu;
      return;
    }
    if (this->env_.wakeup_returns_before_pick &&
        !(cfg.feat(model::Feature::PREEMPT_SHORT) && wakee.slice < rq.curr->se.slice))
      return;
    this->judged();
    entered_cpu_ = rq.cpu;
    entered_task_ = this->env_.id_of(wakee);
  }

  void wakeup_pick_step(const model::rq<A>& rq, const model::sched_entity<A>& curr,
                        const model::sched_entity<A>& wakee, bool /*short_*/) override {
    judged_cpu_ = -1;
    if (rq.cpu == entered_cpu_) entered_cpu_ = -1;
    // A check that reached its pick step picks, and decides on that pick (§8.2 step 8).
    stepped_cpu_ = rq.cpu;
    stepped_task_ = this->env_.id_of(wakee);
    if (rq.cpu == returns_cpu_) [[unlikely]]
      this->fail(rq.cpu, this->env_.id_of(wakee), "the wakeup check went on to its pick",
                 "a wakeup check with a reschedule pending or WAKEUP_PREEMPTION off returns before its pick "
                 "(§8.2 step 3)");
    if (rq.need_resched) return;  // asked already, by this check's own update_curr: not the rule's
    const auto& cfg = this->env_.m.config();
    const QueueSums<A>& sums = this->env_.facts(rq.cfs).q;
    const bool short_ = Forms<P>::preempt_short(cfg, sums, curr, wakee);
    const bool prot = Forms<P>::is_protected(curr);  // before the check's own protection change
    const auto* pick = protection_brute::wakeup_pick(rq.cfs, sums, Forms<P>::wakeup_keeps(cfg, curr, short_),
                                                     Forms<P>::wakeup_keeps_ineligible(cfg, curr, short_),
                                                     takes_buddy(cfg, short_));
    judged_cpu_ = rq.cpu;
    expected_ = pick == &wakee;
    judged_ = {&curr, pick, short_, prot};  // the queue stays as it is until wakeup_decided
  }

  void wakeup_decided(const model::rq<A>& rq, const model::sched_entity<A>& wakee, bool preempted) override {
    if (stepped_cpu_ == rq.cpu) stepped_cpu_ = -1;
    if (judged_cpu_ != rq.cpu) return;
    this->judged();
    judged_cpu_ = -1;
    decided_cpu_ = rq.cpu;
    decided_ = preempted;
    decided_task_ = this->env_.id_of(wakee);
    if (preempted != expected_)
      this->fail(
          rq.cpu, decided_task_,
          [&] { return fmt::format("{}; the check {}", describe(rq.cfs, wakee), preempted ? "preempted" : "did not"); },
          "wakeup preemption happens iff the wakee is what EEVDF picks now (§8.2)");
  }

  void charged(const model::cfs_rq<A>& cfs, const model::sched_entity<A>&, std::uint64_t, bool, bool resched) override {
    if (cfs.rq_->cpu == renice_.cpu && resched && !picked_) charged_resched_ = true;
  }
  void picked(const model::rq<A>& rq, const model::sched_entity<A>*, bool) override {
    if (rq.cpu == decided_cpu_ || rq.cpu == renice_.cpu) picked_ = true;
  }

  void after_event(const trace::Event&) override {
    if (entered_cpu_ >= 0) report_no_pick();
    if (stepped_cpu_ >= 0) report_no_decision();
    if (renice_wakee_ != nullptr) {
      this->judged();
      this->fail(renice_cpu_, this->env_.id_of(*renice_wakee_), "no wakeup check ran for the reniced task",
                 "prio_changed_fair runs the wakeup check for a queued task that is not running (§9)");
    }
    if (decided_cpu_ >= 0 && picked_ != decided_)
      this->fail(
          decided_cpu_, decided_task_,
          [&] {
            return fmt::format("the check {}, a schedule {}", decided_ ? "preempted" : "did not preempt",
                               picked_ ? "ran" : "did not run");
          },
          "a wakeup preemption is a reschedule request, and nothing else asked for one (§8.2, §19)");
    if (renice_.cpu >= 0) check_renice();
  }

 private:
  [[gnu::cold]] void report_no_pick() {
    this->fail(entered_cpu_, entered_task_, "the wakeup check returned without its pick",
               "a wakeup check with no reschedule pending reaches its pick (§8.2 steps 1-6)");
    entered_cpu_ = -1;
  }

  [[gnu::cold]] void report_no_decision() {
    this->fail(stepped_cpu_, stepped_task_, "the wakeup check made no pick after its pick step",
               "a wakeup check that reaches its pick step decides on what __pick_eevdf picks (§8.2 step 8)");
    stepped_cpu_ = -1;
  }

  struct Renice {
    int cpu = -1;
    int task = 0;
    int old_nice = 0;
    int new_nice = 0;
    std::size_t queued = 0;
  };

  void check_renice() {
    this->judged();
    const bool expected = charged_resched_ || (renice_.new_nice > renice_.old_nice && renice_.queued > 1);
    if (expected != picked_)
      this->fail(
          renice_.cpu, renice_.task,
          [&] {
            return fmt::format(
                "renice of the running task {} -> {} with {} queued; update_curr asked: {}; a schedule {}",
                renice_.old_nice, renice_.new_nice, renice_.queued, charged_resched_ ? "yes" : "no",
                picked_ ? "ran" : "did not run");
          },
          "prio_changed_fair reschedules a running task iff its nice rose (§9)");
  }

  // A tree whose wakeup pick takes an eligible next buddy first (PICK_BUDDY), some only
  // when it protects curr, that is without PREEMPT_SHORT (Env::wakeup_picks_buddy,
  // wakeup_buddy_only_protected). The reference's pick never does (§8.2 step 8).
  bool takes_buddy(const model::Config& cfg, bool short_) const {
    const auto& env = this->env_;
    return env.wakeup_picks_buddy && cfg.feat(model::Feature::PICK_BUDDY) &&
           !(short_ && env.wakeup_buddy_only_protected);
  }

  // What the pick step saw, for the report: read only when it fails.
  struct Judged {
    const model::sched_entity<A>* curr = nullptr;
    const model::sched_entity<A>* pick = nullptr;
    bool short_ = false;
    bool prot = false;
  };

  std::string describe(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& wakee) const {
    const auto& [curr, pick, short_, prot] = judged_;
    const QueueSums<A>& sums = this->env_.facts(cfs).q;
    const auto eligible = [&](const model::sched_entity<A>& x) { return sums.eligible(x.vruntime); };
    const auto one = [&](const char* role, const model::sched_entity<A>& se) {
      return fmt::format("{} task {}: deadline {}, slice {}, {}", role, this->env_.id_of(se), A::to_string(se.deadline),
                         se.slice, eligible(se) ? "eligible" : "ineligible");
    };
    return fmt::format("{}; {}, {}; PREEMPT_SHORT {}; next buddy: {}; brute-force pick: {}", one("wakee", wakee),
                       one("curr", *curr), prot ? "protected" : "unprotected", short_ ? "applies" : "no",
                       cfs.next == nullptr ? std::string("none") : fmt::format("task {}", this->env_.id_of(*cfs.next)),
                       pick == nullptr ? std::string("none") : fmt::format("task {}", this->env_.id_of(*pick)));
  }

  int entered_cpu_ = -1;  // the CPU whose check must still reach its pick step
  int entered_task_ = 0;
  int returns_cpu_ = -1;  // the CPU whose check must return before its pick step
  int judged_cpu_ = -1;   // the CPU whose check reached its pick step unasked
  int stepped_cpu_ = -1;  // the CPU whose check reached its pick step and has not picked
  int stepped_task_ = 0;
  const model::sched_entity<A>* renice_wakee_ = nullptr;  // a reniced queued task owed a wakeup check
  int renice_cpu_ = -1;
  bool expected_ = false;
  Judged judged_;
  int decided_cpu_ = -1;  // the CPU whose check decided, to see a schedule follow
  bool decided_ = false;
  int decided_task_ = 0;
  bool picked_ = false;
  bool charged_resched_ = false;
  Renice renice_;
};

// lone_no_resched (§5.1 step 6): an update_curr on a runqueue with one queued entity
// (delayed ones count) never asks to reschedule; judged when it decides.
template <class A, class P = model::profile_6_18>
class LoneNoResched final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "lone_no_resched"; }

  void charged(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& curr, std::uint64_t delta, bool renewed,
               bool resched) override {
    if (cfs.nr_queued == 1) this->judged();  // the model's count: a statistic, not the judgement
    if (!resched || protection_brute::count_queued(cfs) != 1) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(curr),
        [&] {
          return fmt::format("1 queued entity, charged {} ns, deadline renewed: {}, vruntime {}, {}", delta,
                             renewed ? "yes" : "no", A::to_string(curr.vruntime), Forms<P>::protection_text(curr));
        },
        "a lone entity is never asked to reschedule (update_curr returns when nr_queued == 1)");
  }
};

// slice_sane (§2): a custom slice is within [0.1 ms, 100 ms], no slice is 0 or
// U64_MAX, and a default slice is the scaled base slice right after placement
// (§6.1 step 2) or deadline renewal (§5.2).
template <class A, class P = model::profile_6_18>
class SliceSane final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "slice_sane"; }

  void placed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, unsigned, const typename A::value&, bool,
              const typename A::value&) override {
    check(cfs.rq_->cpu, se, "placement");
  }
  void charged(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& curr, std::uint64_t, bool renewed,
               bool) override {
    check(cfs.rq_->cpu, curr, renewed ? "deadline renewal" : nullptr);
  }
  // The bounds over each touched runqueue come from the shared recount (its custom
  // slice extremes and absurd slices); only on a failure are the entities walked to
  // name one. Curr and the event's own task (maybe on no runqueue) are checked whole.
  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    this->judged();
    const int cpu = at.cpu;
    const auto& cfs = at.rq.cfs;
    const QueueFacts<A>& f = at.facts;
    const bool bounded = f.absurd_slices == 0 && (f.custom_slice_max == 0 || (f.custom_slice_min >= kCustomMin &&
                                                                               f.custom_slice_max <= kCustomMax));
    if (!bounded)
      for (const auto* se : cfs.timeline) check(cpu, *se, nullptr);
    if (cfs.curr != nullptr) check(cpu, *cfs.curr, nullptr);
  }
  void after_event(const trace::Event& e) override {
    const auto& m = this->env_.m;
    if (e.task != 0 && this->env_.task_index(e.task) >= 0) {  // a setslice may change a task on no runqueue
      this->judged();
      const auto& p = m.tasks().at(static_cast<std::size_t>(this->env_.task_index(e.task)));
      check(p.cpu, p.se, nullptr);
    }
  }

 private:
  static constexpr std::uint64_t kCustomMin = 100'000;      // __setparam_fair's clamp (§2)
  static constexpr std::uint64_t kCustomMax = 100'000'000;

  // §2 the scaled base slice a default slice is refreshed to, from the normalized
  // one and the CPU count (brute.h), not the model's own product.
  std::uint64_t base_slice() const {
    const auto& cfg = this->env_.m.config();
    return brute::base_slice(cfg.normalized_base_slice, cfg.topology.ncpus());
  }
  // `refreshed`: the point where a default slice was just set ("placement", ...).
  // The test inline, the reasons and the report cold (several calls per event).
  // Not counted here: the placements and charges it checks are on a runqueue the
  // event touched, where after_event_on counts the event.
  void check(int cpu, const model::sched_entity<A>& se, const char* refreshed) {
    const std::uint64_t slice = se.slice;
    const bool absurd = slice == 0 || slice == ~std::uint64_t{0};
    const bool bad = se.custom_slice ? absurd || slice < kCustomMin || slice > kCustomMax
                                     : absurd || (refreshed != nullptr && slice != base_slice());
    if (bad) [[unlikely]]
      report(cpu, se, refreshed);
  }
  // check's failure, with the rule it broke.
  [[gnu::cold]] void report(int cpu, const model::sched_entity<A>& se, const char* refreshed) {
    const std::uint64_t base = base_slice();
    const std::string why = se.slice == 0 || se.slice == ~std::uint64_t{0} ? "a slice is never 0 or U64_MAX"
                            : se.custom_slice ? "a custom slice is clamped to [0.1 ms, 100 ms] (§2)"
                                              : fmt::format("a default slice equals the scaled base slice after {} (§2)", refreshed);
    this->fail(
        cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("slice {} ns, custom: {}, base slice {} ns", se.slice, se.custom_slice ? "yes" : "no",
                             base);
        },
        why);
  }
};

// min_slice_exact (§7.3, §3.3): with RUN_TO_PARITY, the minimum slice that
// set_protect_slice uses equals the true minimum over the other queued entities
// (the picked one has left the tree; ~0 when nothing else is queued).
template <class A, class P = model::profile_6_18>
class MinSliceExact final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "min_slice_exact"; }

  void protection_set(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, std::uint64_t min_slice) override {
    if (!this->env_.m.config().feat(model::Feature::RUN_TO_PARITY)) return;
    this->judged();
    const std::uint64_t truth = this->env_.facts(cfs).min_slice_except(&se);
    if (truth != min_slice)
      this->fail(
          cfs.rq_->cpu, this->env_.id_of(se),
          [&] {
            return fmt::format("min slice used {} ns, true minimum of the {} other queued entities {} ns", min_slice,
                               protection_brute::count_queued(cfs), truth);
          },
          "slice protection uses the shortest slice queued beside the pick");
  }
};

// slice_protection (§5.1 step 6, §7.3, §8.2 steps 9-10, §19): at each update_curr
// that charges delta > 0 with >= 2 queued, a reschedule is asked iff vruntime has
// reached the deadline it had before the charge, or vprot*, this check's own
// protection limit: set where set_protect_slice runs from the true minimum of the
// other queued slices (the unscaled base slice with NO_RUN_TO_PARITY), shrunk on a
// PREEMPT_SHORT wakeup that does not preempt (RUN_TO_PARITY; on a tree whose wakeup
// check always limits it, on any check that picks and does not preempt), cancelled by a
// PREEMPT_SHORT preemption, and not renewed when the pick keeps the same task. A
// renice or setslice of curr sets it again through set_next_entity: where that call
// protects every pick (the model, 6.18), vprot* is set anew like the kernel's vprot;
// where it protects only a first set (set_next_entity(..., first), 7.0+), the same
// curr set again keeps its vprot* (an absolute virtual time, as the kernel's vprot).
template <class A, class P = model::profile_6_18>
class SliceProtection final : public Property<A, P> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;

  explicit SliceProtection(Env<A, P>& env) : Property<A, P>(env), cpus_(env.m.rqs().size()) {}
  std::string_view name() const override { return "slice_protection"; }

  // §7.3 set_next_entity: curr is `se` from here; its protection is what
  // set_protect_slice sets next, or, for the same curr set again without that call,
  // the one it had.
  void set_next(const model::cfs_rq<A>& cfs, const entity& se) override {
    State& st = at(cfs);
    if (st.curr != se.task || !se.on_rq) st = State{};
    if (!se.on_rq) return;  // no protection is set (§7.3)
    st.curr = se.task;
    st.deadline = se.deadline;
  }

  // §7.3 set_protect_slice, recomputed: se has left the tree; curr is NULL.
  void protection_set(const model::cfs_rq<A>& cfs, const entity& se, std::uint64_t) override {
    State& st = at(cfs);
    const auto& cfg = this->env_.m.config();
    const std::uint64_t others = cfg.feat(model::Feature::RUN_TO_PARITY)
                                     ? this->env_.facts(cfs).min_slice_except(&se)
                                     : cfg.normalized_base_slice;
    const std::uint64_t slice = others < se.slice ? others : se.slice;
    st.vprot = se.deadline;
    if (slice != se.slice) {
      const value limit = se.vruntime + brute::calc_delta_fair<A>(slice, se, this->env_.calc_delta_divides);
      if (limit < st.vprot) st.vprot = limit;
    }
    st.curr = se.task;
    st.deadline = se.deadline;
    st.how = Origin::pick;
    st.slice = slice;
  }

  // §8.2 steps 9-10: PREEMPT_SHORT cancels protection on a preemption and shrinks
  // it to the shortest queued slice otherwise (RUN_TO_PARITY only); where the tree's
  // check limits it on every check it does not preempt (Env), whatever the slices.
  void wakeup_decided(const model::rq<A>& rq, const entity& wakee, bool preempted) override {
    State& st = at(rq.cfs);
    const entity* curr = rq.cfs.curr;
    const auto& cfg = this->env_.m.config();
    if (curr == nullptr || st.curr != curr->task) return;
    const bool short_ = cfg.feat(model::Feature::PREEMPT_SHORT) && wakee.slice < curr->slice;
    if (!short_ && (preempted || !this->env_.wakeup_limits_protection_always)) return;
    if (preempted) {
      if (st.vprot > curr->vruntime) st.vprot = curr->vruntime;
      st.how = Origin::cancelled;
    } else if (cfg.feat(model::Feature::RUN_TO_PARITY)) {
      const std::uint64_t min_slice = this->env_.facts(rq.cfs).min_slice_except(nullptr);
      const value limit = curr->vruntime + brute::calc_delta_fair<A>(min_slice, *curr, this->env_.calc_delta_divides);
      if (limit < st.vprot) st.vprot = limit;
      st.how = Origin::shrunk;
      st.slice = min_slice;
    }
  }

  void charged(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t delta, bool, bool resched) override {
    State& st = at(cfs);
    if (st.curr != curr.task) return;  // never the case: every curr came through set_next
    const std::size_t queued = protection_brute::count_queued(cfs);
    if (delta > 0 && queued >= 2) {
      this->judged();
      const bool expired = !(curr.vruntime < st.deadline);
      const bool unprotected = !(curr.vruntime < st.vprot);
      if (resched != (expired || unprotected))
        this->fail(
            cfs.rq_->cpu, this->env_.id_of(curr),
            [&] {
              return fmt::format(
                  "{} queued, charged {} ns: vruntime {}, deadline before the charge {}, vprot* {} ({}), "
                  "model vprot {}; rescheduled: {}",
                  queued, delta, A::to_string(curr.vruntime), A::to_string(st.deadline), A::to_string(st.vprot),
                  origin(st), A::to_string(curr.vprot), resched ? "yes" : "no");
            },
            "update_curr asks to reschedule iff the deadline or the end of slice protection is reached");
    }
    st.deadline = curr.deadline;
  }

  void after_event(const trace::Event&) override {
    protection_brute::follow_curr_deadlines(this->env_, [this](const auto& cfs) -> State& { return at(cfs); });
  }

 private:
  enum class Origin { pick, shrunk, cancelled };
  struct State {
    int curr = -1;  // the task whose entity vprot* belongs to (an index: a copied run's is its own)
    value vprot{};
    value deadline{};  // curr's deadline as last seen, before the next charge
    Origin how = Origin::pick;  // what set vprot* last, for the report
    std::uint64_t slice = 0;    // the slice it was set or shrunk with
  };
  static std::string origin(const State& st) {
    switch (st.how) {
      case Origin::pick: return fmt::format("set at the pick with slice {} ns", st.slice);
      case Origin::shrunk:
        return fmt::format("shrunk by a wakeup check that did not preempt, to slice {} ns", st.slice);
      case Origin::cancelled: return "cancelled by a PREEMPT_SHORT preemption";
    }
    return {};
  }
  State& at(const model::cfs_rq<A>& cfs) { return cpus_.at(static_cast<std::size_t>(cfs.rq_->cpu)); }

  std::vector<State> cpus_;
};

// The checks both profiles share; then each profile's slice protection (6.12 has no
// minimum slice in its protection, so no min_slice_exact: catalogue.h).
template <class A, class P>
void register_protection_common(Table<A, P>& table) {
  table.push_back({"wakeup_preempt_rule", plain<A, P, WakeupPreemptRule<A, P>>()});
  table.push_back({"lone_no_resched", plain<A, P, LoneNoResched<A, P>>()});
  table.push_back({"slice_sane", plain<A, P, SliceSane<A, P>>()});
}

template <class A>
void register_protection(Table<A, model::profile_6_18>& table) {
  using P = model::profile_6_18;
  register_protection_common(table);
  table.push_back({"min_slice_exact", plain<A, P, MinSliceExact<A, P>>()});
  table.push_back({"slice_protection", plain<A, P, SliceProtection<A, P>>()});
}

}  // namespace eevdf::properties
