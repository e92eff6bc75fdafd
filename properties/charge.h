// docs/PROPERTIES.md, EEVDF core: charge_rule, how the fair class accounts the time
// curr runs (docs/MODEL.md §5.1, §5.2, §13). Virtual time is EEVDF's clock: V, every
// lag and every eligibility read curr's vruntime, so each must include the time curr
// has run up to the moment they are read, and advance at the rate 1/w. The expected
// values come from brute.h's calc_delta_fair and the trace's time, never from the
// model's update_curr.
#pragma once

#include <fmt/format.h>

#include <cstdint>  // ns
#include <string>   // report text
#include <vector>   // per-task values

#include "properties/brute.h"
#include "properties/property.h"
#include "properties/registry_table.h"

namespace eevdf::properties {

// charge_rule: a charge of delta ns advances curr's vruntime by exactly
// calc_delta_fair(delta) (§5.1, the tree's form: Env::calc_delta_divides); it renews
// the deadline only once vruntime has reached the deadline it had (§5.2), and a
// charge that does not renew leaves the deadline as it was. And curr is charged up to
// now (exec_start = now) when a placement ends (§6.1: enqueue_entity charges before
// it places), when the schedule path or the wakeup check picks (§7.3, §8.2) and after
// a tick (§13). A delayed
// entity's requeue places without a charge (§10), so its placement is not judged.
template <class A, class P = model::profile_6_18>
class ChargeRule final : public Property<A, P> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;
  using Property<A, P>::Property;
  std::string_view name() const override { return "charge_rule"; }

  // A renice or setslice may reweight the task where no hook sees it: what it had
  // is no longer known.
  void before_event(const trace::Event& e) override {
    const auto& tasks = this->env_.m.tasks();
    if (seen_.size() != tasks.size()) seen_.assign(tasks.size(), {});
    if (e.verb != trace::Verb::renice && e.verb != trace::Verb::setslice) return;
    const int p = this->env_.task_index(e.task);
    if (p >= 0) seen_.at(static_cast<std::size_t>(p)).known = false;
  }

  void set_next(const model::cfs_rq<A>&, const entity& se) override { remember(se); }
  void yielded(const model::rq<A>&, const entity& curr) override { remember(curr); }

  void placed(const model::cfs_rq<A>& cfs, const entity& se, unsigned, const value&, bool, const value&) override {
    remember(se);
    if (se.sched_delayed) return;
    this->judged();
    charged_to_now(cfs, "a placement (§6.1: enqueue_entity charges curr first)");
  }

  void picked(const model::rq<A>& rq, const entity*, bool) override {
    this->judged();
    charged_to_now(rq.cfs, "the schedule path's pick (§7.3: pick_task_fair charges curr first)");
  }

  void wakeup_pick_step(const model::rq<A>& rq, const entity&, const entity&, bool) override {
    this->judged();
    charged_to_now(rq.cfs, "the wakeup check's pick (§8.2 step 6: check_preempt_wakeup_fair charges curr first)");
  }

  void after_event_on(const trace::Event& e, const TouchedCpu<A>& at) override {
    if (e.verb != trace::Verb::tick) return;
    const int cpu = e.cpu.value_or(-1);  // -1: `tick all`
    if (cpu >= 0 && cpu != at.cpu) return;
    this->judged();
    charged_to_now(at.rq.cfs, "a tick (§13: entity_tick charges curr)");
  }

  void charged(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t delta, bool renewed, bool) override {
    Seen& was = seen_.at(static_cast<std::size_t>(curr.task));
    if (was.known) {
      this->judged();
      const value advance = brute::calc_delta_fair<A>(delta, curr, this->env_.calc_delta_divides);
      if (curr.vruntime != was.vruntime + advance) [[unlikely]]
        fail_charge(cfs, curr, delta, was, advance, "a charge of delta ns advances vruntime by calc_delta_fair(delta) (§5.1)");
      else if (renewed && curr.vruntime < was.deadline) [[unlikely]]
        fail_charge(cfs, curr, delta, was, advance, "the deadline is renewed only once vruntime reaches it (§5.2)");
      else if (!renewed && curr.deadline != was.deadline) [[unlikely]]
        fail_charge(cfs, curr, delta, was, advance, "a charge that does not renew the deadline leaves it (§5.2)");
    }
    remember(curr);
  }

 private:
  struct Seen {
    bool known = false;
    value vruntime{};
    value deadline{};
  };

  void remember(const entity& se) { seen_.at(static_cast<std::size_t>(se.task)) = {true, se.vruntime, se.deadline}; }

  void charged_to_now(const model::cfs_rq<A>& cfs, const char* where) {
    const entity* curr = cfs.curr;
    if (curr == nullptr || curr->exec_start == this->env_.now) [[likely]]
      return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(*curr),
        [&] { return fmt::format("curr's exec_start {}, now {}", curr->exec_start, this->env_.now); },
        std::string("curr is charged up to now before ") + where);
  }

  [[gnu::cold]] void fail_charge(const model::cfs_rq<A>& cfs, const entity& curr, std::uint64_t delta, const Seen& was,
                                 const value& advance, const char* rule) {
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(curr),
        [&] {
          return fmt::format(
              "charged {} ns (calc_delta_fair: {}); vruntime {} -> {}, deadline {} -> {}", delta,
              A::to_string(advance), A::to_string(was.vruntime), A::to_string(curr.vruntime),
              A::to_string(was.deadline), A::to_string(curr.deadline));
        },
        rule);
  }

  std::vector<Seen> seen_;  // per task index: curr's values after the last hook that showed them
};

template <class A, class P>
void register_charge(Table<A, P>& table) {
  table.push_back({"charge_rule", plain<A, P, ChargeRule<A, P>>()});
}

}  // namespace eevdf::properties
