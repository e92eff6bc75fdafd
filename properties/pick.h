// docs/PROPERTIES.md, EEVDF core: lag_zero_sum and the pick properties (pick_eligible,
// pick_earliest_deadline, pick_nonempty), recomputed from the queued entities.
#pragma once

#include <fmt/format.h>

#include "properties/brute.h"
#include "properties/profile_forms.h"
#include "properties/property.h"
#include "properties/queue_walk.h"

namespace eevdf::properties {

// Σ w_i * lag_i over Q, with lag_i = V - v_i and V the model's avg_vruntime (the
// quantity checked), is 0 exactly (ideal); with the kernel's floored V it lies in
// (-W, 0] (§4.1, §16.2). The sum itself is recomputed here from each entity.
template <class A, class P = model::profile_6_18>
class LagZeroSum final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "lag_zero_sum"; }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    const int cpu = at.cpu;
    const auto& cfs = at.rq.cfs;
    const typename A::value V = this->env_.m.avg_vruntime_of(cpu);
    // Σ w (V - v) = W (V - v0) - Σ w (v - v0), from the shared recount.
    const QueueFacts<A>& f = at.facts;
    const typename A::value sum = f.q.weights * (V - cfs.min_vruntime) - f.q.keys;
    const std::uint64_t W = f.tree_weights + (cfs.curr != nullptr && cfs.curr->on_rq ? brute::weight_of(cfs.curr->load.weight) : 0);
    if (W == 0) return;  // an empty runqueue has no lags
    this->judged();
    const bool ok = brute::kernel_arith<A> ? (sum <= 0 && sum > -typename A::value(W)) : sum == 0;
    if (!ok)
      this->fail(
          cpu, 0, [&] { return fmt::format("sum of w*lag = {}, W = {}", A::to_string(sum), W); },
          brute::kernel_arith<A> ? "with a floored V the weighted lags sum into (-W, 0]"
                                 : "the weighted lags sum to zero exactly");
  }
};

// Which of the pick properties a PickRules checks.
enum class PickRule { nonempty, eligible, earliest };

// The schedule path's pick: on a queue with a runnable entity it returns one, eligible
// unless alone, with the earliest deadline among the eligible (ties: insertion
// order; a tie with curr goes to the tree entity), unless it is a protected curr or
// an eligible next buddy; after the pick, curr is not delayed. One class per rule,
// so that each is its own check (pick_nonempty, pick_eligible, pick_earliest_deadline).
template <class A, class P, PickRule R>
class PickRules final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override {
    if constexpr (R == PickRule::nonempty) return "pick_nonempty";
    if constexpr (R == PickRule::eligible) return "pick_eligible";
    return "pick_earliest_deadline";
  }

  void picked(const model::rq<A>& rq, const model::sched_entity<A>* se, bool buddy) override {
    const auto& cfs = rq.cfs;
    if constexpr (R == PickRule::nonempty) {
      if (cfs.nr_queued > 0) this->judged();
      if (se == nullptr && cfs.nr_queued > 0)
        this->fail(
            rq.cpu, 0, [&] { return fmt::format("nr_queued = {}, pick = none", cfs.nr_queued); },
            "a pick on a non-empty runqueue returns an entity");
      return;
    }
    if (se == nullptr || cfs.nr_queued == 1) return;  // pick_nonempty's, or alone
    const QueueFacts<A>& f = this->env_.facts(cfs);
    const bool eligible = f.q.eligible(se->vruntime);
    if constexpr (R == PickRule::eligible) {
      this->judged();
      if (!eligible)
        this->fail(
            rq.cpu, this->env_.id_of(*se), [&] { return lag_text(cfs, *se); },
            "the pick is eligible unless it is alone");
      return;
    }
    if (buddy && eligible) return;  // an eligible next buddy wins by design (§7.2)
    if (se == cfs.curr && Forms<P>::pick_keeps(this->env_.m.config(), *se)) return;
    this->judged();
    const auto* best = earliest_eligible(cfs, f);
    if (best != nullptr && best != se)
      this->fail(
          rq.cpu, this->env_.id_of(*se),
          [&] {
            return fmt::format("picked deadline {}, task {} has {}", A::to_string(se->deadline),
                               this->env_.id_of(*best), A::to_string(best->deadline));
          },
          "EEVDF picks the eligible entity with the earliest deadline");
  }

  // After the event: curr is not delayed, and a CPU whose queue holds a runnable
  // (not delayed) entity is not idle: its schedule picked one (a pick that returns
  // nothing without asking __pick_eevdf is seen here, not at `picked`).
  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    if constexpr (R == PickRule::nonempty) {
      const auto& rq = at.rq;
      this->judged();
      if (rq.curr != nullptr) {
        if (rq.curr->se.sched_delayed)
          this->fail(at.cpu, rq.curr->id, "curr is delayed", "after a pick completes, curr is not delayed");
        return;
      }
      if (at.facts.queued > at.facts.delayed) [[unlikely]] {
        int task = 0;
        for (const auto& member : at.facts.members)
          if (!member.delayed) task = this->env_.m.tasks().at(static_cast<std::size_t>(member.task)).id;
        this->fail(at.cpu, task, "the CPU is idle while this task is runnable on it",
                   "a CPU with a runnable entity queued runs one (the schedule path's pick)");
      }
    }
  }

 private:
  // The first eligible tree entity in (deadline, insertion) order, or an on_rq curr
  // with a strictly earlier deadline.
  static const model::sched_entity<A>* earliest_eligible(const model::cfs_rq<A>& cfs, const QueueFacts<A>& f) {
    const QueueSums<A>& sums = f.q;
    const model::sched_entity<A>* best = nullptr;
    for (const auto& member : f.members) {
      if (!member.in_tree) continue;
      const auto* se = member.se;
      // The order first: it is cheaper than eligibility and usually settles it.
      const bool earlier = best == nullptr || se->deadline < best->deadline ||
                           (se->deadline == best->deadline && se->tree_seq < best->tree_seq);
      if (earlier && sums.eligible(se->vruntime)) best = se;
    }
    const auto* curr = cfs.curr;
    if (curr != nullptr && curr->on_rq && sums.eligible(curr->vruntime) &&
        (best == nullptr || curr->deadline < best->deadline))
      best = curr;
    return best;
  }

  std::string lag_text(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se) const {
    return fmt::format("lag = V - v = {}", A::to_string(this->env_.facts(cfs).avg_vruntime() - se.vruntime));
  }
};

// §10: a delayed entity never becomes curr and never becomes the next buddy.
template <class A, class P = model::profile_6_18>
class DelayedNeverRuns final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "delayed_never_runs"; }
  void set_next(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se) override {
    this->judged();
    if (se.sched_delayed)
      this->fail(cfs.rq_->cpu, this->env_.id_of(se), "set running while delayed", "a delayed entity never runs");
  }
  void buddy_set(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se) override {
    this->judged();
    if (se.sched_delayed)
      this->fail(cfs.rq_->cpu, this->env_.id_of(se), "became the next buddy while delayed",
                 "a delayed entity never becomes a buddy (493afbd187c4)");
  }
};

}  // namespace eevdf::properties
