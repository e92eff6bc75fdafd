// The property checker: the set of enabled properties, installed as the model's one
// observer, fanning every hook out to the properties that override it (hooks.h),
// plus the event boundaries.
#pragma once

#include <algorithm>  // find
#include <array>   // per-hook lists
#include <cstdint>  // hook masks
#include <memory>  // properties
#include <string>  // measure values
#include <vector>  // the enabled set

#include "base/assert.h"
#include "properties/property.h"

namespace eevdf::properties {

template <class A, class P = model::profile_6_18>
class Checker final : public model::Observer<A> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;

  explicit Checker(Env<A, P>& env) : env_(env) {}
  void add(std::unique_ptr<Property<A, P>> p) {
    for (unsigned h = 0; h < static_cast<unsigned>(Hook::count); ++h)
      if ((p->hooks() & (std::uint32_t{1} << h)) != 0) by_hook_[h].push_back(p.get());
    properties_.push_back(std::move(p));
  }
  // Keeps `p` for its name and measure without calling it: another property calls
  // its hooks (the registry's PropertySet).
  void own(std::unique_ptr<Property<A, P>> p) { properties_.push_back(std::move(p)); }
  bool empty() const { return properties_.empty(); }
  // Makes each property's memory that of the same property in `o`, a checker built
  // with the same selection over a machine of the same config (explore's snapshots);
  // the Env is copied by its owner.
  void copy_state_from(const Checker& o) {
    EEVDF_ASSERT(properties_.size() == o.properties_.size(), "a checker copied from one of another selection");
    for (std::size_t i = 0; i < properties_.size(); ++i) {
      const bool copied = properties_[i]->copy_state_from(*o.properties_[i]);
      EEVDF_ASSERT(copied, "a run whose checks cannot be copied");
    }
  }
  const Env<A, P>& env() const { return env_; }

  void before_event(const trace::Event& e) {
    ++env_.stamp;
    ++env_.ordinal;
    for (auto* p : at(Hook::before_event)) p->before_event(e);
  }
  void after_event(const trace::Event& e) {
    ++env_.stamp;
    const auto& per_cpu = at(Hook::after_event_on);
    if (!per_cpu.empty())
      for (const int cpu : env_.touched) {
        env_.verify_patch(cpu);
        const TouchedCpu<A> at{cpu, env_.m.rqs().at(static_cast<std::size_t>(cpu)), env_.facts(cpu)};
        for (auto* p : per_cpu) p->after_event_on(e, at);
      }
    env_.verify_patches();
    for (auto* p : at(Hook::after_event)) p->after_event(e);
  }
  // Once at the end of a trace, after `last` (its last applied event), on every CPU
  // but `checked` (the CPUs `last` touched, checked after it): each CPU's recount is
  // verified against a walk of its queue, then its per-CPU checks run, so that a
  // runqueue the events did not name since it changed is judged too.
  void after_trace(const trace::Event& last, const std::vector<int>& checked) {
    ++env_.stamp;
    const auto& per_cpu = at(Hook::after_event_on);
    env_.touched.clear();
    for (int cpu = 0; cpu < static_cast<int>(env_.m.rqs().size()); ++cpu) {
      env_.verify_walk(cpu);
      if (std::find(checked.begin(), checked.end(), cpu) == checked.end()) env_.touched.push_back(cpu);
    }
    for (const int cpu : env_.touched) {
      const TouchedCpu<A> at{cpu, env_.m.rqs().at(static_cast<std::size_t>(cpu)), env_.facts(cpu)};
      for (auto* p : per_cpu) p->after_event_on(last, at);
    }
  }

  // The end of the trace: the properties' last checks, then each measure's final
  // value to the sink (Sink::measure).
  void finish() {
    for (auto* p : at(Hook::finish)) p->finish();
    std::string numerator, denominator;
    for (const auto& p : properties_)
      if (p->measure(numerator, denominator)) env_.sink.measure(p->name(), numerator, denominator);
  }
  // f(property) for each property and probe added or owned, in that order (the
  // registered set among them, under its own name: it judges nothing itself).
  template <class F>
  void for_each(F&& f) const {
    for (const auto& p : properties_) f(static_cast<const Property<A, P>&>(*p));
  }
  // The current value of measure `name`; false when no enabled property measures it.
  bool measure(std::string_view name, std::string& numerator, std::string& denominator) const {
    for (const auto& p : properties_)
      if (p->name() == name && p->measure(numerator, denominator)) return true;
    return false;
  }

  void lag_stored(const model::cfs_rq<A>& c, const entity& se, const value& raw, const value& limit,
                  const value& V) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::lag_stored)) p->lag_stored(c, se, raw, limit, V);
  }
  void placed(const model::cfs_rq<A>& c, const entity& se, unsigned flags, const value& vlag, bool had_rel,
              const value& rel) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::placed)) p->placed(c, se, flags, vlag, had_rel, rel);
  }
  void picked(const model::rq<A>& rq, const entity* se, bool buddy) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::picked)) p->picked(rq, se, buddy);
  }
  void set_next(const model::cfs_rq<A>& c, const entity& se) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::set_next)) p->set_next(c, se);
  }
  void protection_set(const model::cfs_rq<A>& c, const entity& se, std::uint64_t min_slice) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::protection_set)) p->protection_set(c, se, min_slice);
  }
  void buddy_set(const model::cfs_rq<A>& c, const entity& se) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::buddy_set)) p->buddy_set(c, se);
  }
  void charged(const model::cfs_rq<A>& c, const entity& curr, std::uint64_t delta, bool renewed,
               bool resched) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::charged)) p->charged(c, curr, delta, renewed, resched);
  }
  void wakeup_entered(const model::rq<A>& rq, const entity& wakee) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::wakeup_entered)) p->wakeup_entered(rq, wakee);
  }
  void wakeup_pick_step(const model::rq<A>& rq, const entity& curr, const entity& wakee, bool short_) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::wakeup_pick_step)) p->wakeup_pick_step(rq, curr, wakee, short_);
  }
  void wakeup_decided(const model::rq<A>& rq, const entity& wakee, bool preempted) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::wakeup_decided)) p->wakeup_decided(rq, wakee, preempted);
  }
  void yielded(const model::rq<A>& rq, const entity& curr) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::yielded)) p->yielded(rq, curr);
  }
  void wakeup_skipped(const model::rq<A>& rq, const entity& wakee) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::wakeup_skipped)) p->wakeup_skipped(rq, wakee);
  }
  void protection_changed(const model::cfs_rq<A>& c, const entity& curr, bool cancelled) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::protection_changed)) p->protection_changed(c, curr, cancelled);
  }
  void delay_entered(const model::cfs_rq<A>& c, const entity& se, unsigned flags) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::delay_entered)) p->delay_entered(c, se, flags);
  }
  void delay_left(const model::cfs_rq<A>& c, const entity& se, model::delay_exit how) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::delay_left)) p->delay_left(c, se, how);
  }
  void block_completed(const model::rq<A>& rq, const model::task_struct<A>& t) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::block_completed)) p->block_completed(rq, t);
  }
  // Not fanned out: the shared recount follows the move (Env::moved). Both flattened:
  // a pick makes four moves, a charge one change, each a few dozen instructions.
  [[gnu::flatten]] void queue_moved(const model::cfs_rq<A>& c, const entity& se, model::queue_move how) override {
    ++env_.stamp;  // the model changed since the last hook
    env_.moved(c, se, how);
  }
  // Not fanned out either: the recount follows the change (Env::changed).
  [[gnu::flatten]] void queue_changed(const model::cfs_rq<A>& c, const entity* se) override {
    ++env_.stamp;  // the model changed since the last hook
    env_.changed(c, se);
  }
  void v0_moved(const model::cfs_rq<A>& c, const value& from, const value& to) override {
    ++env_.stamp;  // the model may have changed since the last hook
    for (auto* p : at(Hook::v0_moved)) p->v0_moved(c, from, to);
  }

 private:
  const std::vector<Property<A, P>*>& at(Hook h) const { return by_hook_[static_cast<unsigned>(h)]; }

  Env<A, P>& env_;
  std::vector<std::unique_ptr<Property<A, P>>> properties_;
  // Per hook, the properties that override it, in the order they were added.
  std::array<std::vector<Property<A, P>*>, static_cast<unsigned>(Hook::count)> by_hook_;
};

}  // namespace eevdf::properties
