// docs/PROPERTIES.md, EEVDF core: where a deadline is set (deadline_rule) and what a
// yield does (yield_rule). Each expected value is worked out here from the rules of
// docs/MODEL.md §2, §5.2, §6.1 and §12 with brute.h's calc_delta_fair, never through
// the model's place_entity, update_deadline or yield code.
#pragma once

#include <fmt/format.h>

#include <algorithm>  // clamp
#include <cstdint>    // slices
#include <string>     // report text
#include <vector>     // per-task slices

#include "model/features.h"
#include "properties/brute.h"
#include "properties/property.h"
#include "properties/registry_table.h"

namespace eevdf::properties {
namespace deadline_brute {

// §2 the slice a placement or renewal leaves: a task's custom slice as it was last
// given (at its creation, or by `setslice`, clamped to [0.1 ms, 100 ms]), else the
// scaled base slice (from the normalized one and the CPU count, brute.h). Kept per
// task from the trace's own requests, so that a custom slice refreshed to the base
// slice, or a default one left at another value, shows. A setslice takes effect
// between its SAVE dequeue (whose charge may renew the deadline with the old slice)
// and its RESTORE placement, or at the end of the event when the task is not queued.
class SliceRequests {
 public:
  // Before each event: the tasks' slices as created, at the first; the last event's
  // request if it is still pending; then this event's, if it is a setslice.
  template <class Env>
  void before_event(const Env& env, const trace::Event& e) {
    const auto& tasks = env.m.tasks();
    if (custom_.size() != tasks.size()) {
      custom_.assign(tasks.size(), 0);
      for (std::size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].se.custom_slice) custom_[i] = tasks[i].se.slice;
    }
    apply();
    if (e.verb != trace::Verb::setslice) return;
    pending_ = env.task_index(e.task);
    requested_ = e.slice_ns == 0 ? 0 : std::clamp(e.slice_ns, kMin, kMax);
  }
  // A placement of task `task`: a setslice's RESTORE placement comes after its slice
  // is set.
  void placed(int task) {
    if (task == pending_) apply();
  }
  template <class Env, class E>
  std::uint64_t slice(const Env& env, const E& se) const {
    const auto p = static_cast<std::size_t>(se.task);
    if (p < custom_.size() && custom_[p] != 0) return custom_[p];
    const auto& cfg = env.m.config();
    return brute::base_slice(cfg.normalized_base_slice, cfg.topology.ncpus());
  }

 private:
  void apply() {
    if (pending_ >= 0) custom_.at(static_cast<std::size_t>(pending_)) = requested_;
    pending_ = -1;
  }
  static constexpr std::uint64_t kMin = 100'000, kMax = 100'000'000;  // __setparam_fair's clamp (§2)
  std::vector<std::uint64_t> custom_;  // per task index: its custom slice, 0 for none
  int pending_ = -1;                   // the task of a setslice not yet in effect
  std::uint64_t requested_ = 0;
};

// calc_delta_fair(slice, se) as the tree computes it (Env::calc_delta_divides).
template <class A, class Env>
typename A::value vslice(const Env& env, const model::sched_entity<A>& se, std::uint64_t slice) {
  return brute::calc_delta_fair<A>(slice, se, env.calc_delta_divides);
}

}  // namespace deadline_brute

// deadline_rule (§6.1, §5.2): right after a placement the slice is the requested one
// (SliceRequests) and the deadline is vruntime + the relative deadline the entity
// carried (PLACE_REL_DEADLINE), else vruntime + calc_delta_fair(slice), halved
// (rounded down) for a fork (ENQUEUE_INITIAL) with PLACE_DEADLINE_INITIAL; at a
// charge that renews the deadline, the same slice and deadline = vruntime +
// calc_delta_fair(slice); at a charge that does not, vruntime is still before the
// deadline.
template <class A, class P = model::profile_6_18>
class DeadlineRule final : public Property<A, P> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;
  using Property<A, P>::Property;
  std::string_view name() const override { return "deadline_rule"; }

  // The task a fork places (ENQUEUE_INITIAL), from the trace rather than the
  // placement's flags.
  void before_event(const trace::Event& e) override {
    slices_.before_event(this->env_, e);
    forked_ = e.verb == trace::Verb::fork ? this->env_.task_index(e.task) : -1;
  }

  void placed(const model::cfs_rq<A>& cfs, const entity& se, unsigned, const value&, bool had_rel,
              const value& rel) override {
    this->judged();
    slices_.placed(se.task);
    const std::uint64_t slice = slices_.slice(this->env_, se);
    value expected = se.vruntime + rel;
    if (!had_rel) {
      value vslice = deadline_brute::vslice<A>(this->env_, se, slice);
      const bool initial = se.task == forked_;
      if (initial && this->env_.m.config().feat(model::Feature::PLACE_DEADLINE_INITIAL)) vslice = vslice / 2;
      expected = se.vruntime + vslice;
    }
    if (se.slice != slice || se.deadline != expected) [[unlikely]]
      report(cfs, se, slice, expected, had_rel ? "a placement with a relative deadline (§6.1 step 5)"
                                               : "a placement (§6.1 steps 2, 6, 7)");
  }

  void charged(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t, bool renewed, bool) override {
    this->judged();
    if (!renewed) {
      if (!(curr.vruntime < curr.deadline)) [[unlikely]]
        this->fail(
            cfs.rq_->cpu, this->env_.id_of(curr),
            [&] {
              return fmt::format("vruntime {}, deadline {}, not renewed", A::to_string(curr.vruntime),
                                 A::to_string(curr.deadline));
            },
            "update_deadline renews the deadline once vruntime reaches it (§5.2)");
      return;
    }
    const std::uint64_t slice = slices_.slice(this->env_, curr);
    const value expected = curr.vruntime + deadline_brute::vslice<A>(this->env_, curr, slice);
    if (curr.slice != slice || curr.deadline != expected) [[unlikely]]
      report(cfs, curr, slice, expected, "a renewal: deadline = vruntime + calc_delta_fair(slice) (§5.2)");
  }

 private:
  [[gnu::cold]] void report(const model::cfs_rq<A>& cfs, const entity& se, std::uint64_t slice,
                            const value& expected, const char* where) {
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("deadline {} (expected {}), vruntime {}, slice {} ns (expected {} ns), custom: {}",
                             A::to_string(se.deadline), A::to_string(expected), A::to_string(se.vruntime), se.slice,
                             slice, se.custom_slice ? "yes" : "no");
        },
        std::string("the deadline or slice set at ") + where + " is not the rule's");
  }

  deadline_brute::SliceRequests slices_;
  int forked_ = -1;  // the task index of this event's fork, else -1
};

// yield_rule (§12): a yield on a CPU with one task changes nothing of it. Otherwise
// the yielding entity stops being the next buddy, and, when it is eligible once the
// yield's own update_curr has charged it, it forfeits the rest of its request:
// vruntime = its deadline, then a new deadline = that deadline +
// calc_delta_fair(slice), the slice the requested one (6.18 and 6.19 add the slice to
// the deadline, 6.12, 7.0 and 7.1 call update_deadline, which refreshes a default
// slice first: a default slice is the base slice wherever it is set, so both give
// this value). An ineligible one keeps its vruntime and deadline.
template <class A, class P = model::profile_6_18>
class YieldRule final : public Property<A, P> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;
  using Property<A, P>::Property;
  std::string_view name() const override { return "yield_rule"; }

  // The yielding entity as the yield finds it: the running task of the event's CPU.
  void before_event(const trace::Event& e) override {
    slices_.before_event(this->env_, e);
    yield_ = {};
    if (e.verb != trace::Verb::yield) return;
    const auto& m = this->env_.m;
    int cpu = e.cpu.value_or(-1);
    if (e.task != 0) {
      const int p = this->env_.task_index(e.task);
      if (p < 0) return;
      cpu = m.tasks().at(static_cast<std::size_t>(p)).cpu;
    }
    if (cpu < 0 || cpu >= static_cast<int>(m.rqs().size())) return;
    const auto& rq = m.rqs()[static_cast<std::size_t>(cpu)];
    if (rq.curr == nullptr || rq.cfs.curr != &rq.curr->se) return;
    const QueueFacts<A>& f = this->env_.facts(cpu);
    yield_.se = &rq.curr->se;
    yield_.cpu = cpu;
    yield_.lone = f.queued == 1;  // nr_running: curr and every task queued, delayed ones too
    yield_.before = snapshot(*yield_.se, f);
    yield_.at_decision = yield_.before;
  }

  // The yield's update_curr: the state its eligibility test reads.
  void charged(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t, bool, bool) override {
    if (yield_.se != &curr || yield_.done) return;
    yield_.at_decision = snapshot(curr, this->env_.facts(cfs));
  }

  void yielded(const model::rq<A>& rq, const entity& curr) override {
    if (yield_.se != &curr || rq.cpu != yield_.cpu || yield_.done) return;
    yield_.done = true;
    this->judged();
    const Values& d = yield_.at_decision;
    Values want = yield_.lone ? yield_.before : d;
    const char* rule = "an ineligible entity keeps its vruntime and deadline (§12)";
    if (yield_.lone) {
      rule = "a yield on a CPU with one task changes nothing (§12)";
    } else if (d.eligible) {
      want.slice = slices_.slice(this->env_, curr);
      want.vruntime = d.deadline;
      want.deadline = d.deadline + deadline_brute::vslice<A>(this->env_, curr, want.slice);
      rule = "an eligible entity forfeits its request: vruntime = deadline, deadline += calc_delta_fair(slice) (§12)";
    }
    const bool still_buddy = !yield_.lone && rq.cfs.next == &curr;
    if (curr.vruntime != want.vruntime || curr.deadline != want.deadline || curr.slice != want.slice || still_buddy)
      [[unlikely]]
      report(rq.cpu, curr, want, still_buddy ? "a yield clears the yielding entity's next buddy (§12)" : rule);
  }

 private:
  struct Values {
    value vruntime{};
    value deadline{};
    std::uint64_t slice = 0;
    bool eligible = false;  // §4.2, recounted over Q
  };
  struct Yield {
    const entity* se = nullptr;  // the yielding entity (nullptr: no yield in this event)
    int cpu = -1;
    bool lone = false;
    bool done = false;
    Values before;       // at the start of the event
    Values at_decision;  // after the yield's charge (the start when it charged nothing)
  };
  static Values snapshot(const entity& se, const QueueFacts<A>& f) {
    return {se.vruntime, se.deadline, se.slice, f.q.eligible(se.vruntime)};
  }
  [[gnu::cold]] void report(int cpu, const entity& se, const Values& want, const char* rule) {
    const Values& d = yield_.at_decision;
    this->fail(
        cpu, this->env_.id_of(se),
        [&] {
          return fmt::format(
              "vruntime {} (expected {}), deadline {} (expected {}), slice {} ns (expected {} ns); at the eligibility "
              "test: vruntime {}, deadline {}, eligible: {}; tasks on the CPU: {}",
              A::to_string(se.vruntime), A::to_string(want.vruntime), A::to_string(se.deadline),
              A::to_string(want.deadline), se.slice, want.slice, A::to_string(d.vruntime), A::to_string(d.deadline),
              d.eligible ? "yes" : "no", yield_.lone ? "one" : "several");
        },
        rule);
  }

  Yield yield_;
  deadline_brute::SliceRequests slices_;
};

template <class A, class P>
void register_deadline(Table<A, P>& table) {
  table.push_back({"deadline_rule", plain<A, P, DeadlineRule<A, P>>()});
  table.push_back({"yield_rule", plain<A, P, YieldRule<A, P>>()});
}

}  // namespace eevdf::properties
