// docs/PROPERTIES.md slice_protection in its 6.12 form (Debian 6.12.117; docs/MODEL.md
// §5.1 K6.12 step 6, §7.3 K6.12, §8.2 K6.12). 6.12 has no vprot: set_next_entity
// stashes the deadline in vlag, curr is protected while vlag == deadline, i.e. until
// update_deadline() renews the deadline or a PREEMPT_SHORT wakeup cancels it
// (vlag = deadline + 1); the protection acts in the pick (pick_earliest_deadline's
// exemption), and update_curr reschedules on a renewed deadline or, through
// did_preempt_short(), whenever curr is unprotected and ineligible.
#pragma once

#include <fmt/format.h>

#include <cstdint>  // ns
#include <string>   // reports
#include <vector>   // per-CPU state

#include "model/features.h"
#include "properties/profile_forms.h"
#include "properties/property.h"
#include "properties/protection.h"
#include "properties/queue_walk.h"

namespace eevdf::properties {

// slice_protection (6.12): at each update_curr that charges delta > 0 with >= 2
// queued, a reschedule is asked iff vruntime has reached the deadline it had before
// the charge, or PREEMPT_SHORT is on, curr is not protected* and curr is ineligible
// (recounted from the queue after the charge). Protected* is this check's own: set
// at set_next_entity of a queued entity (the deadline of that moment), ended when
// curr's deadline differs from it (a renewal, a yield) and cancelled when a wakeup
// check's do_preempt_short holds (recomputed by Forms<6.12>::preempt_short).
template <class A, class P>
class SliceProtection612 final : public Property<A, P> {
 public:
  using entity = model::sched_entity<A>;

  explicit SliceProtection612(Env<A, P>& env) : Property<A, P>(env), cpus_(env.m.rqs().size()) {}
  std::string_view name() const override { return "slice_protection"; }

  // §7.3 (K6.12): set_next_entity() stashes the deadline when se is queued.
  void set_next(const model::cfs_rq<A>& cfs, const entity& se) override {
    State& st = at(cfs);
    st = State{se.task, se.on_rq, false, se.deadline, se.deadline};
  }

  // §8.2 (K6.12) step 7: do_preempt_short cancels the protection before the pick.
  void wakeup_pick_step(const model::rq<A>& rq, const entity& curr, const entity& wakee, bool) override {
    State& st = at(rq.cfs);
    if (st.curr != curr.task) return;
    if (Forms<P>::preempt_short(this->env_.m.config(), this->env_.facts(rq.cfs).q, curr, wakee)) st.cancelled = true;
  }

  void charged(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t delta, bool, bool resched) override {
    State& st = at(cfs);
    if (st.curr != curr.task) return;  // never the case: every curr came through set_next
    const bool protected_now = st.stashed && !st.cancelled && curr.deadline == st.stash;
    if (delta > 0 && protection_brute::count_queued(cfs) >= 2) {
      this->judged();
      const bool expired = !(curr.vruntime < st.deadline);
      const bool eligible = this->env_.facts(cfs).q.eligible(curr.vruntime);
      const bool short_ = this->env_.m.config().feat(model::Feature::PREEMPT_SHORT) && !protected_now && !eligible;
      if (resched != (expired || short_))
        this->fail(
            cfs.rq_->cpu, this->env_.id_of(curr),
            [&] {
              return fmt::format(
                  "{} queued, charged {} ns: vruntime {}, deadline before the charge {}, now {}; "
                  "protected* {} ({}), eligible {}; rescheduled: {}",
                  protection_brute::count_queued(cfs), delta, A::to_string(curr.vruntime), A::to_string(st.deadline),
                  A::to_string(curr.deadline), protected_now ? "yes" : "no", origin(st, curr), eligible ? "yes" : "no",
                  resched ? "yes" : "no");
            },
            "6.12 update_curr asks to reschedule iff the deadline is reached or curr is unprotected and "
            "ineligible with PREEMPT_SHORT (did_preempt_short, §5.1 K6.12)");
    }
    st.deadline = curr.deadline;
  }

  void after_event(const trace::Event&) override {
    protection_brute::follow_curr_deadlines(this->env_, [this](const auto& cfs) -> State& { return at(cfs); });
  }

 private:
  struct State {
    int curr = -1;  // the task whose entity the stash belongs to (an index: a copied run's is its own)
    bool stashed = false;          // set_next_entity found it queued
    bool cancelled = false;        // by a do_preempt_short wakeup
    typename A::value stash{};     // its deadline at set_next_entity
    typename A::value deadline{};  // curr's deadline as last seen, before the next charge
  };
  static std::string origin(const State& st, const entity& curr) {
    if (!st.stashed) return "not queued at set_next_entity";
    if (st.cancelled) return "cancelled by a PREEMPT_SHORT wakeup";
    return curr.deadline == st.stash ? "the deadline stashed at the pick" : "the deadline was renewed since the pick";
  }
  State& at(const model::cfs_rq<A>& cfs) { return cpus_.at(static_cast<std::size_t>(cfs.rq_->cpu)); }

  std::vector<State> cpus_;
};

template <class A>
void register_protection(Table<A, model::profile_6_12>& table) {
  using P = model::profile_6_12;
  register_protection_common(table);
  table.push_back({"slice_protection", plain<A, P, SliceProtection612<A, P>>()});
}

}  // namespace eevdf::properties
