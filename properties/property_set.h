// The registered property classes behind one Property: each hook reaches every
// adopted property of the classes that override it with a direct call instead of a
// virtual one per property (the classes are final), and at the event boundaries and
// the frequent hooks the checks are compiled into one body (docs/PROPERTIES.md: a
// checked replay costs at most 3x a plain one). Each property stays its own check
// with its own state; the set only calls them, in the order of its classes (the
// registry's).
#pragma once

#include <cstddef>  // class indices
#include <cstdint>  // masks
#include <tuple>    // the per-class slots
#include <utility>  // index_sequence

#include "base/assert.h"
#include "properties/hooks.h"
#include "properties/property.h"

namespace eevdf::properties {

template <class A, class P, class... Ts>
class PropertySet final : public Property<A, P> {
 public:
  using value = typename A::value;
  using entity = model::sched_entity<A>;

  explicit PropertySet(Env<A, P>& env) : Property<A, P>(env) {
    this->set_hooks(0);
    this->set_copier([](Property<A, P>&, const Property<A, P>&) {});  // the slots are structure, not memory
  }
  std::string_view name() const override { return "registered properties"; }
  bool empty() const { return adopted_ == 0; }

  // Takes over the calls of `p` when its class is one of Ts (the Checker still owns
  // it, for its name and measure); false otherwise. Properties must come in the order
  // of Ts, so that each hook calls them in the order they were added.
  bool adopt(Property<A, P>* p) { return adopt_as<0, Ts...>(p); }

  // Flattened: the event boundaries run every check of a CPU, and one body for all
  // of them spares a call, a prologue and the reloads of each.
  [[gnu::flatten]] void before_event(const trace::Event& e) override {
    each<Hook::before_event>([&](auto* p) { p->before_event(e); });
  }
  [[gnu::flatten]] void after_event_on(const trace::Event& e, const TouchedCpu<A>& at) override {
    each<Hook::after_event_on>([&](auto* p) { p->after_event_on(e, at); });
  }
  [[gnu::flatten]] void after_event(const trace::Event& e) override {
    each<Hook::after_event>([&](auto* p) { p->after_event(e); });
  }
  void finish() override {
    each<Hook::finish>([&](auto* p) { p->finish(); });
  }
  // The model's hooks (model::Observer), passed on as they come; the frequent ones
  // flattened as the event boundaries are.
  [[gnu::flatten]] void lag_stored(const model::cfs_rq<A>& c, const entity& se, const value& raw, const value& limit,
                                   const value& V) override {
    each<Hook::lag_stored>([&](auto* p) { p->lag_stored(c, se, raw, limit, V); });
  }
  [[gnu::flatten]] void placed(const model::cfs_rq<A>& c, const entity& se, unsigned flags, const value& vlag,
                               bool had_rel, const value& rel) override {
    each<Hook::placed>([&](auto* p) { p->placed(c, se, flags, vlag, had_rel, rel); });
  }
  [[gnu::flatten]] void picked(const model::rq<A>& rq, const entity* se, bool buddy) override {
    each<Hook::picked>([&](auto* p) { p->picked(rq, se, buddy); });
  }
  [[gnu::flatten]] void set_next(const model::cfs_rq<A>& c, const entity& se) override {
    each<Hook::set_next>([&](auto* p) { p->set_next(c, se); });
  }
  void protection_set(const model::cfs_rq<A>& c, const entity& se, std::uint64_t min_slice) override {
    each<Hook::protection_set>([&](auto* p) { p->protection_set(c, se, min_slice); });
  }
  void buddy_set(const model::cfs_rq<A>& c, const entity& se) override {
    each<Hook::buddy_set>([&](auto* p) { p->buddy_set(c, se); });
  }
  [[gnu::flatten]] void charged(const model::cfs_rq<A>& c, const entity& curr, std::uint64_t delta, bool renewed,
                                bool resched) override {
    each<Hook::charged>([&](auto* p) { p->charged(c, curr, delta, renewed, resched); });
  }
  void wakeup_entered(const model::rq<A>& rq, const entity& wakee) override {
    each<Hook::wakeup_entered>([&](auto* p) { p->wakeup_entered(rq, wakee); });
  }
  [[gnu::flatten]] void wakeup_pick_step(const model::rq<A>& rq, const entity& curr, const entity& wakee,
                                         bool short_) override {
    each<Hook::wakeup_pick_step>([&](auto* p) { p->wakeup_pick_step(rq, curr, wakee, short_); });
  }
  void wakeup_decided(const model::rq<A>& rq, const entity& wakee, bool preempted) override {
    each<Hook::wakeup_decided>([&](auto* p) { p->wakeup_decided(rq, wakee, preempted); });
  }
  void yielded(const model::rq<A>& rq, const entity& curr) override {
    each<Hook::yielded>([&](auto* p) { p->yielded(rq, curr); });
  }
  void wakeup_skipped(const model::rq<A>& rq, const entity& wakee) override {
    each<Hook::wakeup_skipped>([&](auto* p) { p->wakeup_skipped(rq, wakee); });
  }
  void protection_changed(const model::cfs_rq<A>& c, const entity& curr, bool cancelled) override {
    each<Hook::protection_changed>([&](auto* p) { p->protection_changed(c, curr, cancelled); });
  }
  void delay_entered(const model::cfs_rq<A>& c, const entity& se, unsigned flags) override {
    each<Hook::delay_entered>([&](auto* p) { p->delay_entered(c, se, flags); });
  }
  void delay_left(const model::cfs_rq<A>& c, const entity& se, model::delay_exit how) override {
    each<Hook::delay_left>([&](auto* p) { p->delay_left(c, se, how); });
  }
  void block_completed(const model::rq<A>& rq, const model::task_struct<A>& t) override {
    each<Hook::block_completed>([&](auto* p) { p->block_completed(rq, t); });
  }
  void v0_moved(const model::cfs_rq<A>& c, const value& from, const value& to) override {
    each<Hook::v0_moved>([&](auto* p) { p->v0_moved(c, from, to); });
  }

 private:
  template <std::size_t I>
  bool adopt_as(Property<A, P>*) {
    return false;
  }
  template <std::size_t I, class T, class... Rest>
  bool adopt_as(Property<A, P>* p) {
    auto* typed = dynamic_cast<T*>(p);
    if (typed == nullptr) return adopt_as<I + 1, Rest...>(p);
    EEVDF_ASSERT(I >= next_class_, "properties reach a PropertySet out of the order of its classes, or twice");
    next_class_ = I + 1;
    std::get<I>(slots_) = typed;
    this->set_hooks(this->hooks() | hooks_of<T, A, P>());
    ++adopted_;
    return true;
  }

  // f(p) for the adopted property p of each class that overrides hook H, class by
  // class; the classes that do not are left out at compile time.
  template <Hook H, class F>
  void each(F&& f) {
    each_slot<H>(f, std::index_sequence_for<Ts...>{});
  }
  // Each slot read where it is called, not all copied out first (std::apply would
  // pass them all as arguments, spilled to the stack at every hook).
  template <Hook H, class F, std::size_t... I>
  void each_slot(F& f, std::index_sequence<I...>) {
    (call<H>(std::get<I>(slots_), f), ...);
  }
  template <Hook H, class T, class F>
  static void call(T* p, F& f) {
    if constexpr ((hooks_of<T, A, P>() & hook_bit(H)) != 0)
      if (p != nullptr) f(p);
  }

  // One property per class at most: a check is one class (PickRules and LagBound
  // are one per rule), so a slot is a pointer, not a list.
  std::tuple<Ts*...> slots_{};
  std::size_t next_class_ = 0;
  std::size_t adopted_ = 0;
};

}  // namespace eevdf::properties
