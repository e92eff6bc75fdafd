// The interface of one property of docs/PROPERTIES.md: an observer of the model's
// intermediate points plus hooks around each event. A property reads the model
// through const views only, and recomputes what it expects by brute force
// (brute.h), never by calling the model's own pick, placement or eligibility code.
#pragma once

#include <cstdint>      // ns
#include <memory>       // make_property
#include <optional>     // kept counters
#include <set>          // CPUs
#include <string>       // report text
#include <string_view>  // names
#include <type_traits>  // is_invocable, is_copy_assignable
#include <utility>      // forward
#include <vector>       // touched CPUs

#include "base/assert.h"
#include "model/machine.h"
#include "model/observer.h"
#include "properties/findings.h"
#include "properties/hooks.h"
#include "properties/queue_walk.h"
#include "trace/trace.h"

namespace eevdf::properties {

struct Violation {
  std::string_view property;
  int line = 0;
  std::uint64_t time_ns = 0;
  int cpu = -1;           // -1: not about one CPU
  int task = 0;           // 0: not about one task
  std::string values;     // the values involved, "expected X, found Y"
  std::string explanation;
  bool consequence = false;  // on a runqueue after its no_overflow (docs/PROPERTIES.md)
  std::string_view finding;  // the known finding it matches (findings.h), or empty
};

// Where violations and measures go (the replay engine, a test, the run command).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void violation(const Violation& v) = 0;
  // A measure's value, exact: numerator / denominator (ns, or a ratio).
  virtual void measure(std::string_view name, const std::string& numerator, const std::string& denominator) = 0;
};

// A runqueue's sums as a tree keeps them in full weights, each shifted down by the
// tree's own sum_shift (Env::full_weight_sums): Σ key*w and Σ w over the tree.
struct FullWeightSums {
  bool kept = false;  // this runqueue's sums were loaded in these terms
  unsigned shift = 0;
  std::int64_t sum = 0;
  std::uint64_t weight = 0;
};

// A runqueue's timeline as a tree's own rbtree holds it (Env::augmented): each member
// with its children and the augmented values the tree keeps for its subtree.
struct AugmentedNode {
  int task = -1;               // the task index
  int left = -1, right = -1;   // children: indices into AugmentedTree::nodes (-1: none)
  std::uint64_t vruntime = 0, slice = 0;
  std::uint64_t min_vruntime = 0, min_slice = 0, max_slice = 0;
};
struct AugmentedTree {
  bool kept = false;                       // this runqueue's tree was loaded
  bool has_min_slice = false, has_max_slice = false;  // the values the tree keeps besides min_vruntime
  int root = -1;                           // index into nodes, -1: empty
  std::vector<AugmentedNode> nodes;        // in tree order
};

// What every property sees: the model, where the replay is, which CPUs the current
// event can have changed, and the sink.
// P: the kernel profile of the machine (model/profile.h); the 6.12 forms of the
// checks that differ read it through Forms<P> (profile_forms.h).
// How v0 moves: by P's own rule (Forms<P>); as zero_vruntime re-based inside
// avg_vruntime (Forms<profile_6_12>); or as zero_vruntime re-based by the tree changes
// of __enqueue_entity / __dequeue_entity (V0ByTreeChange).
enum class V0Rule { profile, zero_in_avg_vruntime, zero_by_tree_change };

template <class A, class P = model::profile_6_18>
struct Env {
  using profile = P;
  Env(const model::Machine<A, P>& machine, Sink& s) : m(machine), sink(s) {}

  const model::Machine<A, P>& m;
  Sink& sink;
  int line = 0;
  std::uint64_t now = 0;
  const trace::Event* event = nullptr;  // the event being applied (nullptr between events)
  std::vector<int> touched;             // CPUs the current event may have changed
  std::set<int> overflowed;             // runqueues since their no_overflow, until they empty
  // The rule the implementation's v0 moves by, which a kernel-src tree judged by the
  // 6.18 forms may keep differently from P (sums_consistent).
  V0Rule v0_rule = V0Rule::profile;
  // The wakeup check limits curr's protection to the shortest queued slice whenever it
  // picks and does not preempt (RUN_TO_PARITY), not only when PREEMPT_SHORT acted: a
  // kernel-src tree whose check decides by a preempt action (slice_protection).
  bool wakeup_limits_protection_always = false;
  // The wakeup check's pick returns an eligible next buddy before anything else
  // (PICK_BUDDY), not only the schedule path's pick_next_entity: a kernel-src tree
  // whose pick_eevdf / __pick_eevdf tests PICK_BUDDY; `wakeup_buddy_only_protected`:
  // only when that pick protects curr (no PREEMPT_SHORT) (wakeup_preempt_rule).
  bool wakeup_picks_buddy = false;
  // The wakeup check may return (or preempt) before its pick on a fork, a delayed
  // wakee or a next buddy, unless PREEMPT_SHORT sends a shorter wakee to the pick: a
  // kernel-src tree whose check decides by a preempt action (wakeup_preempt_rule).
  bool wakeup_returns_before_pick = false;
  bool wakeup_buddy_only_protected = false;
  // update_entity_lag clamps by calc_delta_fair(the largest queued slice + TICK_NSEC)
  // (a tree that keeps max_slice), not by P's max(2 * slice, TICK_NSEC) (§5.3).
  bool lag_limit_by_max_slice = false;
  // update_entity_lag of a delayed entity stores max(its clamped lag, its stored vlag),
  // then at most 0 with DELAY_ZERO (a tree whose update_entity_lag returns whether it
  // moved the lag); P's stores the clamped lag and zeroes a positive one at completion.
  bool delayed_lag_keeps_stored = false;
  // The entity's vlag just before the lag store being observed (lag_stored), which a
  // delayed entity's store may keep (delayed_lag_keeps_stored): set by the caller that
  // fires the hook where that flag is set.
  typename A::value vlag_before_store{};
  // Per CPU, where a tree keeps its sums in full weights shifted by its sum_shift:
  // those sums, which sums_consistent recounts in the tree's terms (the cfs_rq's
  // avg_vruntime / avg_load then hold them scaled down). Empty: the model's sums.
  std::vector<FullWeightSums> full_weight_sums;
  // Per CPU, where a tree keeps cfs_rq->h_nr_delayed: its value, which
  // counters_consistent recounts as the queue's delayed members. Empty: none kept.
  std::vector<std::optional<unsigned>> h_nr_delayed;
  // Per CPU, the real code's rbtree after the event (kernel-src), which
  // augmented_consistent walks: the reference keeps no per-node values. Empty: none.
  std::vector<AugmentedTree> augmented;
  // calc_delta_fair divides (delta * NICE_0_LOAD / weight) instead of multiplying by
  // the inverse weight: a tree whose 64-bit __calc_delta divides (brute::calc_delta_fair).
  bool calc_delta_divides = false;
  // place_entity re-bases v0 to the placed entity's vruntime when its weight exceeds
  // the queue's (a tree whose place_entity calls update_zero_vruntime); v0_placing: the
  // entity being placed during such a move (sums_consistent), else nullptr.
  bool v0_at_heavy_placement = false;
  const model::sched_entity<A>* v0_placing = nullptr;

  // Cold: the compiler moves each check's report path (its formatting) out of the
  // hot code, which then fits the instruction cache better.
  [[gnu::cold]] void report(std::string_view property, int cpu, int task, std::string values, std::string why,
                            std::string_view finding = {}) {
    // A finding is known only for the profiles its entry names (findings.h).
    if (!finding.empty() && !finding_covers(finding, P::name)) finding = {};
    Violation v{property, line, now, cpu, task, std::move(values), std::move(why), false, finding};
    // Tainted: an overflow earlier on this runqueue, or one logged during this event
    // (hooks report before NoOverflow's after_event has seen it).
    v.consequence = property != "no_overflow" && cpu >= 0 &&
                    (overflowed.count(cpu) != 0 || !m.rqs().at(static_cast<std::size_t>(cpu)).cfs.overflow.empty());
    sink.violation(v);
  }
  // m.task_index(id), remembered for the last id asked: the checks ask for the
  // current event's task several times per event (a hash lookup each).
  int task_index(int id) const {
    if (!memo_valid_ || memo_id_ != id) {
      memo_index_ = m.task_index(id);
      memo_id_ = id;
      memo_valid_ = true;
    }
    return memo_index_;
  }
  int id_of(const model::sched_entity<A>& se) const {
    return m.tasks().at(static_cast<std::size_t>(se.task)).id;
  }

  // The recount of a runqueue as it is now, shared by every property and reused
  // while the runqueue's generation (bumped by the model at every change of its
  // queue, cfs_rq.h) stays the same: hooks and event ends often meet an unchanged
  // queue; a queue move patches it (moved). Debug builds (EEVDF_VALIDATE_CACHES: the
  // sanitize preset) recount at every reuse and assert that the counts agree, so a
  // change the model did not mark, or a wrong patch, cannot go unseen.
  const QueueFacts<A>& facts(int cpu) const {
#ifndef EEVDF_VALIDATE_CACHES
    // The common case inline: asked again with the queue unchanged (several checks
    // per hook and event end).
    const auto c = static_cast<std::size_t>(cpu);
    if (c < facts_generation_.size() && facts_generation_[c] == m.rqs()[c].cfs.generation) [[likely]]
      return facts_[c];
#endif
    return refreshed_facts(cpu);
  }
  // §3.3 a move of `se` in or out of the tree or curr (model::queue_move), right after
  // its generation bump: when the recount is from just before that bump, the moved
  // entity is counted in or out (QueueFacts::patch) instead of walking Q again.
  void moved(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, model::queue_move how) {
    if (follows_facts(cfs)) facts_[static_cast<std::size_t>(cfs.rq_->cpu)].patch(se, how);
  }
  // The same for a change of se's values, or of v0 when se is null
  // (model::Observer::queue_changed).
  void changed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>* se) {
    if (follows_facts(cfs)) facts_[static_cast<std::size_t>(cfs.rq_->cpu)].patch(cfs, se);
  }
  // Once per event, before its checks (Checker::after_event): each patched recount
  // that still describes its queue must read as the queue, member for member (an
  // internal error, exit 3, otherwise), so that a change of the model no hook marked
  // cannot reach the event's checks. The sums a patch keeps are its own exact
  // arithmetic: debug builds (EEVDF_VALIDATE_CACHES) count them again here and at
  // every reuse, and properties/tests/queue_facts_test.cpp checks each patch.
  // verify_patch(cpu) just before that CPU's checks, while its members are about to
  // be read (a `tick all` patches every busy CPU: verified all first, the first
  // ones' members would have left the cache by their checks); verify_patches for
  // the CPUs left.
  void verify_patch(int cpu) const {
    const auto c = static_cast<std::size_t>(cpu);
    if (c >= patched_.size() || patched_[c] == 0) return;
    const model::cfs_rq<A>& cfs = m.rqs()[c].cfs;
    if (facts_generation_[c] == cfs.generation) {
#ifdef EEVDF_VALIDATE_CACHES
      EEVDF_ASSERT(facts_[c].matches_recount(cfs), "a queue patch disagrees with a recount of the queue");
#else
      EEVDF_ASSERT(facts_[c].reads_as_queue(cfs), "a change of the queue no hook marked (a patched member differs)");
#endif
    }
    patched_[c] = 0;
  }
  // At the end of a trace (Checker::after_trace): a recount still kept for cpu's
  // queue must equal a recount by a walk of the model's tree and curr (an internal
  // error, exit 3, otherwise), patched or not.
  void verify_walk(int cpu) const {
    const auto c = static_cast<std::size_t>(cpu);
    if (c >= facts_generation_.size() || facts_generation_[c] != m.rqs()[c].cfs.generation) return;
    EEVDF_ASSERT(facts_[c].matches_recount(m.rqs()[c].cfs), "a change of the queue no hook marked (a recount differs)");
    patched_[c] = 0;
  }
  void verify_patches() const {
    for (const int cpu : patched_cpus_) verify_patch(cpu);
    patched_cpus_.clear();
  }
  const QueueFacts<A>& facts(const model::cfs_rq<A>& cfs) const { return facts(cfs.rq_->cpu); }
  // Advances (Checker) at each hook and event boundary: a cache key for per-hook
  // work of one property.
  std::uint64_t stamp = 1;
  // The events begun so far (Checker::before_event): what Property::judged counts
  // distinct values of. The end of a trace (finish) belongs to its last event.
  std::uint64_t ordinal = 0;

  // Makes this Env's state `o`'s, between events, for a machine that was just given
  // `o`'s machine state: the recounts are dropped (taken again from the new state).
  void copy_state_from(const Env& o) {
    line = o.line;
    now = o.now;
    event = nullptr;
    touched = o.touched;
    overflowed = o.overflowed;
    vlag_before_store = o.vlag_before_store;
    full_weight_sums = o.full_weight_sums;
    h_nr_delayed = o.h_nr_delayed;
    augmented = o.augmented;
    v0_placing = nullptr;
    stamp = o.stamp;
    ordinal = o.ordinal;
    memo_valid_ = false;
    facts_generation_.assign(facts_generation_.size(), kNever);
    patched_.assign(patched_.size(), 0);
    patched_cpus_.clear();
  }

 private:
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};

  // facts() when the queue changed since its recount (or to check a reuse).
  [[gnu::noinline]] const QueueFacts<A>& refreshed_facts(int cpu) const {
    const auto c = static_cast<std::size_t>(cpu);
    if (facts_.size() != m.rqs().size()) {
      facts_.resize(m.rqs().size());
      facts_generation_.assign(m.rqs().size(), kNever);
      patched_.assign(m.rqs().size(), 0);
    }
    const model::cfs_rq<A>& cfs = m.rqs()[c].cfs;
    if (facts_generation_[c] != cfs.generation) {
      facts_[c].recount(cfs);
      facts_generation_[c] = cfs.generation;
      patched_[c] = 0;
    } else {
#ifdef EEVDF_VALIDATE_CACHES
      QueueFacts<A> fresh;
      fresh.recount(cfs);
      EEVDF_ASSERT(fresh.same_as(facts_[c]), "a change of the queue without a cfs_rq generation bump, or a wrong patch");
#endif
    }
    return facts_[c];
  }
  // Whether cfs's recount is from just before the generation bump the model just
  // made, so that the change the bump marks can be patched in; if so the recount
  // takes the new generation and is marked for verify_patches.
  bool follows_facts(const model::cfs_rq<A>& cfs) {
    const auto c = static_cast<std::size_t>(cfs.rq_->cpu);
    if (c >= facts_.size() || facts_generation_[c] == kNever || facts_generation_[c] + 1 != cfs.generation) return false;
    facts_generation_[c] = cfs.generation;
    if (patched_[c] == 0) patched_cpus_.push_back(cfs.rq_->cpu);
    patched_[c] = 1;
    return true;
  }
  mutable bool memo_valid_ = false;  // task_index's memo: ids map to fixed indices
  mutable int memo_id_ = 0, memo_index_ = -1;
  mutable std::vector<QueueFacts<A>> facts_;
  mutable std::vector<std::uint64_t> facts_generation_;
  mutable std::vector<char> patched_;       // per CPU: patched since its last full recount
  mutable std::vector<int> patched_cpus_;   // the CPUs patched in this event
};

// One touched CPU as the after-event checks see it: its runqueue and the shared
// recount of its queue (Env::facts), looked up once per CPU for all the checks
// instead of once per check (a `tick all` touches every busy CPU).
template <class A>
struct TouchedCpu {
  int cpu;
  const model::rq<A>& rq;
  const QueueFacts<A>& facts;
};

template <class A, class P = model::profile_6_18>
class Property : public model::Observer<A> {
 public:
  explicit Property(Env<A, P>& env) : env_(env) {}
  Property(const Property&) = default;
  // A copy keeps its own Env: what is copied is the property's memory of the run.
  Property& operator=(const Property& o) {
    copier_ = o.copier_;
    hooks_ = o.hooks_;
    evaluated_ = o.evaluated_;
    judged_at_ = o.judged_at_;
    return *this;
  }
  virtual std::string_view name() const = 0;
  virtual void before_event(const trace::Event&) {}
  // After the event, once per touched CPU (Env::touched, ascending), CPU by CPU for
  // all properties: a runqueue's members, entities and tasks stay in the cache across
  // the checks of one CPU (a `tick all` touches every busy one). Then after_event.
  virtual void after_event_on(const trace::Event&, const TouchedCpu<A>&) {}
  virtual void after_event(const trace::Event&) {}
  virtual void finish() {}
  // A measure's current value as an exact fraction; false for pass/fail properties.
  virtual bool measure(std::string& /*numerator*/, std::string& /*denominator*/) const { return false; }
  // The events at which this property judged its statement (judged): with a gating
  // condition (a qualifying stretch, a pick, a placement) fewer than the events seen.
  std::uint64_t evaluated() const { return evaluated_; }
  // The hooks this property overrides (hooks.h; every one unless made by make_property).
  std::uint32_t hooks() const { return hooks_; }
  void set_hooks(std::uint32_t hooks) { hooks_ = hooks; }

  // Makes this property's memory of the run `o`'s (a property of the same class in a
  // run of the same machine): the concrete class's copy assignment, installed by
  // make_property. False for a class that cannot be copied (one holding a
  // reference).
  using Copier = void (*)(Property&, const Property&);
  void set_copier(Copier c) { copier_ = c; }
  bool copy_state_from(const Property& o) {
    if (copier_ == nullptr) return false;
    copier_(*this, o);
    return true;
  }

 protected:
  // `values`: the text, or a callable that formats it here, out of the check's hot
  // code (the checks of one event share the instruction cache with the model);
  // `finding`: the known finding (findings.h) whose condition this failure meets.
  template <class Values>
  [[gnu::cold, gnu::noinline]] void fail(int cpu, int task, Values&& values, std::string_view why,
                                         std::string_view finding = {}) {
    if constexpr (std::is_invocable_v<Values&>) {
      env_.report(name(), cpu, task, values(), std::string(why), finding);
    } else {
      env_.report(name(), cpu, task, std::string(std::forward<Values>(values)), std::string(why), finding);
    }
  }
  // Called where the check evaluates its statement (not where its hypothesis fails
  // and it returns without judging); counts each event once, branch-free: the hot
  // path of every check calls it.
  void judged() {
    evaluated_ += static_cast<std::uint64_t>(env_.ordinal != judged_at_);
    judged_at_ = env_.ordinal;
  }
  Env<A, P>& env_;

 private:
  Copier copier_ = nullptr;
  std::uint32_t hooks_ = kAllHooks;
  std::uint64_t evaluated_ = 0;
  std::uint64_t judged_at_ = 0;  // the Env::ordinal of the last judged event
};

// A property of class Check, called by the Checker only at the hooks Check overrides.
template <class Check, class A, class P, class... Args>
std::unique_ptr<Property<A, P>> make_property(Env<A, P>& env, Args&&... args) {
  auto p = std::make_unique<Check>(env, std::forward<Args>(args)...);
  p->set_hooks(hooks_of<Check, A, P>());
  if constexpr (std::is_copy_assignable_v<Check>)
    p->set_copier([](Property<A, P>& to, const Property<A, P>& from) {
      static_cast<Check&>(to) = static_cast<const Check&>(from);
    });
  return p;
}

}  // namespace eevdf::properties
