// docs/PROPERTIES.md, EEVDF core and fairness bounds: placement and lag
// (placement_eligible, placement_preserves_lag, migration_preserves_lag,
// reweight_preserves_lag, lag_clamped) and, from Bookkeeping, service_conservation.
// The placement and lag checks are judged at the model's own intermediate points
// (the lag store of update_entity_lag, the end of a placement), recomputing V, the
// lags and the clamp by brute force; service_conservation after each event, on the
// CPUs the event touched.
//
// The kernel bound of a PLACE_LAG placement (docs/MODEL.md §4.1, §6.1, §17.2),
// used by three of the checks. Others' sums S and L (scaled weights) with exact
// mean m = S/L; V = m - f, f in [0, (L-1)/L] (the floor); the entity of weight w
// with stored lag l is put at v = V - lag', lag' = l(L+w)/L - t, t the truncation
// toward zero: t in [0, (L-1)/L] for l >= 0, [-(L-1)/L, 0] for l < 0. After the
// insertion its exact lag is l + (f - t)L/(L+w), and the floored V' takes off
// f' in [0, (L+w-1)/(L+w)]. So V' - v - l lies in (-2, 1) for l >= 0 and in (-1, 2)
// for l < 0: being an integer, V' - v is l - 1 or l when l >= 0, l or l + 1 when
// l < 0 (the corpus trace migrate-lag-inflation.trace shows the l - 1). Ideal: l.
#pragma once

#include <fmt/format.h>

#include <algorithm>  // std::max
#include <cstdint>    // ns, weights
#include <string>     // report text
#include <vector>     // per-CPU books

#include "properties/brute.h"
#include "properties/profile_forms.h"
#include "properties/property.h"
#include "properties/registry_table.h"

namespace eevdf::properties {
namespace lag_detail {

// The clamp of update_entity_lag in the implementation judged: §5.3's
// calc_delta_fair(max(2 * slice, TICK_NSEC)), or calc_delta_fair(the largest slice of
// Q + TICK_NSEC) of a tree that keeps max_slice (Env::lag_limit_by_max_slice; the
// entity storing its lag is still in Q), with the tree's calc_delta_fair.
template <class A, class P>
typename A::value lag_limit(const Env<A, P>& env, const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se) {
  const std::uint64_t tick = env.m.config().tick_nsec;
  std::uint64_t slice = std::max(2 * se.slice, tick);
  if (env.lag_limit_by_max_slice) {
    std::uint64_t max_slice = 0;
    for_each_queued(cfs, [&](const model::sched_entity<A>& e) { max_slice = std::max(max_slice, e.slice); });
    slice = max_slice + tick;
  }
  return brute::calc_delta_fair<A>(slice, se, env.calc_delta_divides);
}

// The vlag update_entity_lag stores for a lag `raw`: clamped to ±limit; for a delayed
// entity under Env::delayed_lag_keeps_stored, at least its stored vlag `before` and,
// with DELAY_ZERO, at most 0.
template <class A, class P>
typename A::value stored_lag(const Env<A, P>& env, const typename A::value& raw, const typename A::value& limit,
                             bool delayed, const typename A::value& before) {
  typename A::value v = raw > limit ? limit : (raw < -limit ? -limit : raw);
  if (!delayed || !env.delayed_lag_keeps_stored) return v;
  if (v < before) v = before;
  if (env.m.config().feat(model::Feature::DELAY_ZERO) && v > 0) v = 0;
  return v;
}

// The lag V - v of an entity against the queue as it is now (V floored in the
// kernel arithmetic, exact in the ideal one), from the shared recount.
template <class A>
typename A::value lag_now(const QueueFacts<A>& f, const model::sched_entity<A>& se) {
  return f.avg_vruntime() - se.vruntime;
}

// Σ w_i over Q without `se` (which is in Q): the L of the placement formula.
template <class A>
std::uint64_t others_weight(const QueueFacts<A>& f, const model::sched_entity<A>& se) {
  return f.q_weights - brute::weight_of(se.load.weight);
}

// Whether the lag measured right after a PLACE_LAG placement is the stored one,
// within the bound derived at the top of this file.
template <class A>
bool placement_lag_ok(const typename A::value& measured, const typename A::value& stored) {
  if constexpr (brute::kernel_arith<A>) {
    const typename A::value e = measured - stored;
    return stored >= 0 ? (e == 0 || e == -1) : (e == 0 || e == 1);
  } else {
    return measured == stored;
  }
}

template <class A>
const char* placement_bound_text() {
  return brute::kernel_arith<A> ? "(kernel: V' - v in {l-1, l} for l >= 0, {l, l+1} for l < 0)" : "(ideal: exactly)";
}

// The task index the current event names, when it is the verb `verb`; -1 otherwise.
template <class A, class P>
int event_task(const Env<A, P>& env, trace::Verb verb) {
  if (env.event == nullptr || env.event->verb != verb || env.event->task == 0) return -1;
  return env.task_index(env.event->task);
}

}  // namespace lag_detail

// placement_eligible (docs/PROPERTIES.md, EEVDF core; docs/MODEL.md §4.1, §6.1): an
// entity placed with non-negative stored lag (a fork, a zero-lag wakeup, a
// positive-lag DELAY_ZERO requeue), or with PLACE_LAG off (placed at V), is
// eligible right after its placement: V floors, so v <= V' (the left bias).
template <class A, class P = model::profile_6_18>
class PlacementEligible final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "placement_eligible"; }

  void placed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, unsigned /*flags*/,
              const typename A::value& vlag, bool /*had_rel*/, const typename A::value& /*rel*/) override {
    const bool zero_lag = !this->env_.m.config().feat(model::Feature::PLACE_LAG);
    if (vlag < 0 && !zero_lag) return;
    this->judged();
    if (this->env_.facts(cfs).q.eligible(se.vruntime)) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("stored vlag {}, lag after placement V - v = {}", A::to_string(vlag),
                             A::to_string(lag_detail::lag_now(this->env_.facts(cfs), se)));
        },
        "an entity placed with lag >= 0 is eligible right after its placement (left bias, §4.1)");
  }
};

// placement_preserves_lag (docs/PROPERTIES.md, EEVDF core; docs/MODEL.md §6.1 step 3):
// right after a PLACE_LAG placement of an entity with stored vlag l on a queue that
// held others, V' - v = l: the (L+w)/L inflation undoes the insertion's dilution;
// without PLACE_LAG the same with l = 0. Ideal: exactly; kernel: within the bound
// derived at the top of this file. On an empty queue there is no lag to keep: the
// entity lands on v0 exactly (wherever a tree moves v0 at the insertion, it moves it
// to V of a queue holding that entity alone, its own vruntime).
template <class A, class P = model::profile_6_18>
class PlacementPreservesLag final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "placement_preserves_lag"; }

  void placed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, unsigned /*flags*/,
              const typename A::value& stored, bool /*had_rel*/, const typename A::value& /*rel*/) override {
    if (cfs.nr_queued == 1) {
      this->judged();
      if (se.vruntime != cfs.min_vruntime) [[unlikely]]
        this->fail(
            cfs.rq_->cpu, this->env_.id_of(se),
            [&] { return fmt::format("vruntime {}, v0 {}", A::to_string(se.vruntime), A::to_string(cfs.min_vruntime)); },
            "an entity placed on an empty queue lands on v0 (§6.1: no lag to keep)");
      return;
    }
    // A curr re-placed in its own sums (group entities only, §9) is outside the
    // derivation.
    if (&se == cfs.curr) return;
    this->judged();
    const bool place_lag = this->env_.m.config().feat(model::Feature::PLACE_LAG);
    const typename A::value vlag = place_lag ? stored : typename A::value{};
    const typename A::value measured = lag_detail::lag_now(this->env_.facts(cfs), se);
    if (lag_detail::placement_lag_ok<A>(measured, vlag)) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("stored vlag l = {}, V' - v = {} after placement, L = {}, w = {} {}", A::to_string(vlag),
                             A::to_string(measured), lag_detail::others_weight(this->env_.facts(cfs), se),
                             brute::weight_of(se.load.weight), lag_detail::placement_bound_text<A>());
        },
        place_lag ? "PLACE_LAG placement must give back the stored lag (§6.1 inflation by (L+w)/L)"
                  : "without PLACE_LAG an entity is placed at V (§6.1)");
  }
};

// migration_preserves_lag (docs/PROPERTIES.md, EEVDF core; docs/MODEL.md §6.3, §6.1,
// §11, §19 migrate): with PLACE_LAG and PLACE_REL_DEADLINE, a `migrate` to a
// non-empty runqueue stores vlag = clamp(V_src - v, ±limit) (§5.3) at the source,
// the destination's placement consumes that value and gives it back as the lag
// (within the placement bound in the kernel), and deadline - vruntime is unchanged.
// Not checked when the destination is empty: the task lands at v0.
template <class A, class P = model::profile_6_18>
class MigrationPreservesLag final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "migration_preserves_lag"; }

  // The migrating task's vlag before the event: a delayed entity's stored lag, which
  // the source's store may keep (Env::delayed_lag_keeps_stored).
  void before_event(const trace::Event&) override {
    seen_ = pending_ = false;
    const int task = lag_detail::event_task(this->env_, trace::Verb::migrate);
    if (task >= 0) vlag_before_ = this->env_.m.tasks().at(static_cast<std::size_t>(task)).se.vlag;
  }

  // The first store of the event for the migrating task is the source's dequeue.
  void lag_stored(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, const typename A::value& /*raw*/,
                  const typename A::value& /*limit*/, const typename A::value& /*V*/) override {
    if (seen_ || se.task != lag_detail::event_task(this->env_, trace::Verb::migrate)) return;
    seen_ = true;
    this->judged();
    const typename A::value raw = lag_detail::lag_now(this->env_.facts(cfs), se);
    const typename A::value limit = lag_detail::lag_limit(this->env_, cfs, se);
    const typename A::value expected = lag_detail::stored_lag(this->env_, raw, limit, se.sched_delayed, vlag_before_);
    if (se.vlag != expected)
      this->fail(
          cfs.rq_->cpu, this->env_.id_of(se),
          [&] {
            return fmt::format("stored vlag {}, V - v = {}, limit {}{}: expected {}", A::to_string(se.vlag),
                               A::to_string(raw), A::to_string(limit),
                               se.sched_delayed ? ", delayed with vlag " + A::to_string(vlag_before_) : "",
                               A::to_string(expected));
          },
          "a migrating task stores its lag V - v clamped to the §5.3 limit");
    pending_ = true;
    stored_ = se.vlag;
    rel_ = se.deadline - se.vruntime;  // still absolute: made relative after the store (§6.3)
  }

  void placed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, unsigned /*flags*/,
              const typename A::value& vlag, bool had_rel, const typename A::value& /*rel*/) override {
    if (!pending_ || se.task != lag_detail::event_task(this->env_, trace::Verb::migrate)) return;
    pending_ = false;
    const auto& cfg = this->env_.m.config();
    if (!cfg.feat(model::Feature::PLACE_LAG) || !cfg.feat(model::Feature::PLACE_REL_DEADLINE)) return;
    if (cfs.nr_queued < 2) return;  // the destination was empty: the lag is dropped
    this->judged();
    check(cfs, se, vlag, had_rel);
  }

 private:
  void check(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, const typename A::value& vlag,
             bool had_rel) {
    const int cpu = cfs.rq_->cpu, id = this->env_.id_of(se);
    const typename A::value measured = lag_detail::lag_now(this->env_.facts(cfs), se);
    if (vlag != stored_ || !lag_detail::placement_lag_ok<A>(measured, stored_))
      this->fail(
          cpu, id,
          [&] {
            return fmt::format("stored at the source {}, consumed by the placement {}, lag at the destination {} {}",
                               A::to_string(stored_), A::to_string(vlag), A::to_string(measured),
                               lag_detail::placement_bound_text<A>());
          },
          "a migration to a non-empty runqueue keeps the stored (clamped) lag (§11)");
    const typename A::value rel = se.deadline - se.vruntime;
    if (!had_rel || rel != rel_)
      this->fail(
          cpu, id,
          [&] {
            return fmt::format("deadline - vruntime {} at the source, {} at the destination (relative: {})",
                               A::to_string(rel_), A::to_string(rel), had_rel);
          },
          "PLACE_REL_DEADLINE carries the remaining request across a migration (§6.3 step 6, §6.1 step 5)");
  }

  bool seen_ = false, pending_ = false;
  typename A::value stored_{};
  typename A::value rel_{};
  typename A::value vlag_before_{};
};

// reweight_preserves_lag (docs/PROPERTIES.md, EEVDF core; docs/MODEL.md §9, §19 renice):
// a renice of a queued task is a SAVE dequeue (lag stored, deadline made relative),
// a scaling of vlag and the relative deadline by W_old/W_new, and a RESTORE
// placement. Checked, with PLACE_LAG on and other entities queued:
//  * service lag: W_new * (V' - v') = W_old * vlag_stored, where vlag_stored is the
//    clamped lag when the clamp acted (the scaling and the placement carry whatever
//    was stored; the clamp itself is lag_clamped's). Kernel: vlag scales by a
//    truncation toward zero (error < 1) and the placement loses at most 1 more
//    toward zero (the bound at the top), so |difference| < 2 * W_new.
//  * V at the lag store equals V at the end of the RESTORE enqueue, unless the stored
//    lag was clamped (then V moves with the dropped lag). Kernel: with λ the exact
//    lags, L(m' - m) = w_o λ_o - w_n λ_n, whose size is < 2 w_n (above) plus
//    max(w_o, w_n) (the floors in λ = V - v + f), and the floors add < 1, so
//    L |V' - V| < 2 w_n + max(w_o, w_n) + L (scaled weights).
//  * with PLACE_REL_DEADLINE: (d' - v') * W_new = (d - v) * W_old; kernel: |error| < W_new.
//    6.12 form: d' - v' = d - v exactly (only vlag is rescaled off the runqueue, §9 K6.12).
// The lag store of the event's first dequeue of the reniced task is the SAVE one;
// the first placement after it is the RESTORE (set_user_nice, §19).
template <class A, class P = model::profile_6_18>
class ReweightPreservesLag final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "reweight_preserves_lag"; }

  void before_event(const trace::Event&) override { saved_ = Saved{}; }

  void lag_stored(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, const typename A::value& /*raw*/,
                  const typename A::value& /*limit*/, const typename A::value& /*V*/) override {
    if (saved_.seen || se.task != lag_detail::event_task(this->env_, trace::Verb::renice)) return;
    saved_.seen = saved_.pending = true;  // the first store of the event is the SAVE dequeue
    saved_.V = this->env_.facts(cfs).avg_vruntime();
    saved_.lag = saved_.V - se.vruntime;
    saved_.stored = se.vlag;
    saved_.rel = se.deadline - se.vruntime;
    saved_.weight = se.load.weight;
  }

  void placed(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, unsigned /*flags*/,
              const typename A::value& /*vlag*/, bool had_rel, const typename A::value& /*rel*/) override {
    if (!saved_.pending || se.task != lag_detail::event_task(this->env_, trace::Verb::renice)) return;
    saved_.pending = false;
    const auto& cfg = this->env_.m.config();
    const std::uint64_t others = lag_detail::others_weight(this->env_.facts(cfs), se);
    const bool lag = cfg.feat(model::Feature::PLACE_LAG) && others != 0;
    if (lag || cfg.feat(model::Feature::PLACE_REL_DEADLINE)) this->judged();
    if (lag) check_lag(cfs, se, others);
    if (cfg.feat(model::Feature::PLACE_REL_DEADLINE)) check_deadline(cfs, se, had_rel);
  }

 private:
  using value = typename A::value;
  struct Saved {
    bool seen = false, pending = false;
    typename A::value V{}, lag{}, stored{}, rel{};
    std::uint64_t weight = 0;  // full (scaled-up) weight, as reweight_entity scales by
  };

  void check_lag(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, std::uint64_t others) {
    const value V = this->env_.facts(cfs).avg_vruntime(), lag = V - se.vruntime;
    const value W_old(saved_.weight), W_new(se.load.weight);
    const value service_diff = W_new * lag - W_old * saved_.stored;
    const bool kernel = brute::kernel_arith<A>;
    const bool service_ok = kernel ? (service_diff < 2 * W_new && service_diff > -2 * W_new) : service_diff == 0;
    const std::uint64_t w_old = brute::weight_of(saved_.weight), w_new = brute::weight_of(se.load.weight);
    const value dV = V - saved_.V;
    const value v_bound = value(2 * w_new + std::max(w_old, w_new) + others);
    const bool clamped = saved_.stored != saved_.lag;
    const bool v_ok = clamped || (kernel ? (value(others) * dV < v_bound && value(others) * dV > -v_bound) : dV == 0);
    if (service_ok && v_ok) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("w {} -> {}; lag {} (stored {}) -> {}; w*lag {} -> {}; V {} -> {}; L {}", w_old, w_new,
                             A::to_string(saved_.lag), A::to_string(saved_.stored), A::to_string(lag),
                             A::to_string(value(w_old) * saved_.stored), A::to_string(value(w_new) * lag),
                             A::to_string(saved_.V), A::to_string(V), others);
        },
        service_ok ? "a renice must leave V where it was (§9: V is invariant under a lag-preserving reweight)"
                   : "a renice must preserve the service lag w*lag: vlag scales by w_old/w_new (§9)");
  }

  void check_deadline(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, bool had_rel) {
    const value W_old(saved_.weight), W_new(se.load.weight);
    const value rel = se.deadline - se.vruntime;
    // 6.12 restores the relative deadline unscaled (Forms<P>, §9 K6.12).
    const bool scaled = Forms<P>::reweight_scales_rel_deadline;
    const value diff = scaled ? value(rel * W_new - saved_.rel * W_old) : value(rel - saved_.rel);
    const bool ok = had_rel && (scaled && brute::kernel_arith<A> ? (diff < W_new && diff > -W_new) : diff == 0);
    if (ok) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("relative deadline {} -> {} (relative at the placement: {}), weight {} -> {}",
                             A::to_string(saved_.rel), A::to_string(rel), had_rel, saved_.weight, se.load.weight);
        },
        scaled ? "a renice scales the relative deadline by w_old/w_new (§9)"
               : "a 6.12 renice restores the relative deadline unscaled (§9 K6.12)");
  }

  Saved saved_;
};

// lag_clamped (docs/PROPERTIES.md, Fairness bounds; docs/MODEL.md §5.3), kernel
// arithmetic: whenever update_entity_lag stores a vlag, |vlag| <= the clamp of that
// moment (lag_detail::lag_limit: calc_delta_fair(max(2*slice, TICK_NSEC), se), or a
// max_slice tree's calc_delta_fair(the largest queued slice + TICK_NSEC, se), the
// largest recounted from Q). A delayed entity's store that keeps its stored vlag
// (Env::delayed_lag_keeps_stored) may store exactly that value: its clamp was judged
// when it was stored. (A later reweight or slice change may leave a vlag beyond the
// new limit: not checked then.)
template <class A, class P = model::profile_6_18>
class LagClamped final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "lag_clamped"; }

  void lag_stored(const model::cfs_rq<A>& cfs, const model::sched_entity<A>& se, const typename A::value& /*raw*/,
                  const typename A::value& /*limit*/, const typename A::value& /*V*/) override {
    this->judged();
    const typename A::value limit = lag_detail::lag_limit(this->env_, cfs, se);
    if (se.vlag <= limit && se.vlag >= -limit) return;
    const bool may_keep = se.sched_delayed && this->env_.delayed_lag_keeps_stored;
    if (may_keep && se.vlag == this->env_.vlag_before_store) return;
    this->fail(
        cfs.rq_->cpu, this->env_.id_of(se),
        [&] {
          return fmt::format("stored vlag {}, limit {} (slice {}, weight {}, tick {}{}){}", A::to_string(se.vlag),
                             A::to_string(limit), se.slice, brute::weight_of(se.load.weight),
                             this->env_.m.config().tick_nsec,
                             this->env_.lag_limit_by_max_slice ? ", by the largest queued slice" : "",
                             may_keep ? ", delayed with vlag " + A::to_string(this->env_.vlag_before_store) : "");
        },
        this->env_.lag_limit_by_max_slice
            ? "a stored vlag is clamped to calc_delta_fair(the largest queued slice + TICK_NSEC)"
            : "a stored vlag is clamped to calc_delta_fair(max(2*slice, TICK_NSEC)) (§5.3)");
  }
};

// service_conservation (docs/PROPERTIES.md, Bookkeeping; docs/MODEL.md §5.1, §7.3, §19):
// at every event time t, the CPU time charged to tasks (sum_exec_runtime) plus, per
// busy CPU, t - curr.exec_start (run but not yet charged) equals the CPUs' busy
// time up to t, to the nanosecond. Kept per CPU, which implies the global sum: a
// running task never changes CPU, so what its sum_exec_runtime gains while it is a
// CPU's curr is that CPU's charge. Only touched CPUs change, so only they are
// looked at; finish() recounts sum_exec_runtime over all tasks against the books.
template <class A, class P = model::profile_6_18>
class ServiceConservation final : public Property<A, P> {
 public:
  explicit ServiceConservation(Env<A, P>& env) : Property<A, P>(env), books_(env.m.rqs().size()) {}
  std::string_view name() const override { return "service_conservation"; }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    Books& b = books_[static_cast<std::size_t>(at.cpu)];  // the constructor sized books_ by the CPUs
    update(b, at.rq);
    this->judged();
    check(b, at);
  }

  void finish() override {
    this->judged();
    std::uint64_t charged = 0, recount = 0;
    for (const Books& b : books_) charged += b.charged;
    for (const auto& t : this->env_.m.tasks()) recount += t.se.sum_exec_runtime;
    if (charged != recount)
      this->fail(
          -1, 0,
          [&] { return fmt::format("sum_exec_runtime over all tasks {}, charged while curr {}", recount, charged); },
          "CPU time was charged to a task that was not running");
  }

 private:
  struct Books {
    bool busy = false;              // rq->curr is a task
    int curr = -1;                  // its index
    std::uint64_t curr_seen = 0;    // its sum_exec_runtime when last looked at
    std::uint64_t charged = 0;      // ns charged to tasks while they were this CPU's curr
    std::uint64_t busy_done = 0;    // ns of finished busy stretches
    std::uint64_t busy_since = 0;   // start of the current busy stretch
  };

  // What the event did to this CPU: the charge of its former curr, a busy stretch
  // ending or starting at t, the new curr.
  void update(Books& b, const model::rq<A>& rq) {
    const auto& m = this->env_.m;
    const std::uint64_t t = this->env_.now;
    if (b.curr >= 0) b.charged += m.tasks().at(static_cast<std::size_t>(b.curr)).se.sum_exec_runtime - b.curr_seen;
    const auto* curr = rq.curr;
    if (b.busy && curr == nullptr) b.busy_done += t - b.busy_since;
    if (!b.busy && curr != nullptr) b.busy_since = t;
    b.busy = curr != nullptr;
    b.curr = curr != nullptr ? curr->se.task : -1;
    b.curr_seen = curr != nullptr ? curr->se.sum_exec_runtime : 0;
  }

  // charged + (t - exec_start) == busy_done + (t - busy_since) when busy, written
  // without differences; charged == busy_done when idle.
  void check(const Books& b, const TouchedCpu<A>& at) {
    const int cpu = at.cpu;
    const auto* curr = at.rq.curr;
    const std::uint64_t exec_start = curr != nullptr ? curr->se.exec_start : 0;
    const bool ok = curr != nullptr ? b.charged + b.busy_since == b.busy_done + exec_start : b.charged == b.busy_done;
    if (ok) return;
    const auto t = static_cast<std::int64_t>(this->env_.now);
    const std::int64_t pending = curr != nullptr ? t - static_cast<std::int64_t>(exec_start) : 0;
    const std::int64_t busy = static_cast<std::int64_t>(b.busy_done) + (b.busy ? t - static_cast<std::int64_t>(b.busy_since) : 0);
    this->fail(
        cpu, curr != nullptr ? curr->id : 0,
        [&] {
          return fmt::format("charged {} + not yet charged {} = {}, busy {}", b.charged, pending,
                             static_cast<std::int64_t>(b.charged) + pending, busy);
        },
        "the CPU time charged on a CPU plus curr's uncharged run equals the CPU's busy time (§5.1)");
  }

  std::vector<Books> books_;
};

template <class A, class P>
void register_lag(Table<A, P>& table) {
  table.push_back({"placement_eligible", plain<A, P, PlacementEligible<A, P>>()});
  table.push_back({"placement_preserves_lag", plain<A, P, PlacementPreservesLag<A, P>>()});
  table.push_back({"migration_preserves_lag", plain<A, P, MigrationPreservesLag<A, P>>()});
  table.push_back({"reweight_preserves_lag", plain<A, P, ReweightPreservesLag<A, P>>()});
  table.push_back({"lag_clamped", plain<A, P, LagClamped<A, P>>()});
  table.push_back({"service_conservation", plain<A, P, ServiceConservation<A, P>>()});
}

}  // namespace eevdf::properties
