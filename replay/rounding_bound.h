// ideal_tracks_kernel, the two observers (docs/IDEAL_TRACKS_KERNEL.md): the kernel
// model's DecisionRecorder notes which way each decision went; the ideal model's
// RoundingBound notes the same and, at that moment, the decision's margin in exact
// arithmetic and the bound on how far the kernel's quantities can be from the ideal
// ones after the roundings so far, which it keeps per entity, hook by hook.
//
// The bounds are derived from where the kernel rounds (docs/MODEL.md §17.2), never
// from the kernel model's values: the differential (ideal_diff.h) compares them with
// the kernel's actual values, so a wrong bound or a wrong rounding shows.
#pragma once

#include <cstdint>  // weights, ns
#include <map>      // per-weight rounding rates
#include <vector>   // per-CPU streams, per-task bounds

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/config.h"
#include "model/observer.h"
#include "model/task.h"

namespace eevdf::replay {

using Q = model::IdealArith::value;

// A bound, in units of 2^-10 ns, rounded up (docs §3): still a bound, and integer
// arithmetic keeps the per-event work of the tracker off the rationals.
using Bound = model::s128;
inline constexpr Bound kGrid = 1024;

// A kernel value (exact 128-bit integer) as a rational.
Q to_q(model::s128 x);
inline const Q& to_q(const Q& x) { return x; }
// A bound in ns.
inline Q bound_ns(Bound b) { return to_q(b) / Q(1024); }

// One tree entity as the ideal pick walk saw it: its lag and deadline, each with the
// bound on the kernel's distance from it.
struct WalkEntry {
  int task = -1;
  Q lag, deadline;
  Bound lag_bound = 0, deadline_bound = 0;
};

struct DecisionRecord {
  model::decision kind{};
  int a = -1;  // task indices; -1: none (pick_walk: the entity found, if any)
  int b = -1;
  bool outcome = false;
  // Ideal side only. The decision is `margin >= 0` (or > 0, by kind) in exact
  // arithmetic; the kernel's own margin is within `bound` of it.
  Q margin;
  Bound bound = 0;
  bool exact = false;           // decided on exact state: no rounding can flip it
  std::vector<WalkEntry> walk;  // pick_walk: every tree entity
};

// The decisions of one event, per CPU, in the order the model took them.
using Streams = std::vector<std::vector<DecisionRecord>>;

// The kernel side: decisions only.
class DecisionRecorder final : public model::Observer<model::KernelArith> {
 public:
  explicit DecisionRecorder(int ncpus) : streams_(static_cast<std::size_t>(ncpus)) {}
  void decided(const model::cfs_rq<model::KernelArith>& cfs, model::decision d,
               const model::sched_entity<model::KernelArith>* a, const model::sched_entity<model::KernelArith>* b,
               bool outcome) override;
  Streams& streams() { return streams_; }

 private:
  Streams streams_;
};

// Per task, bounds on |kernel - ideal| (docs §2): of its vruntime up to one offset
// common to its runqueue (`v`), of its lag against the exact mean of its runqueue
// while queued (`lag`, kept by its own rules too: the lag bound used is the smaller
// of that and the one `v` gives), of deadline - vruntime, vprot - vruntime, its
// stored vlag and, between a non-sleep dequeue and the next placement, its relative
// deadline.
struct EntityBound {
  Bound v = 0, lag = 0, dv = 0, pv = 0, vlag = 0, drel = 0;
  bool has_drel = false;
  std::uint64_t charged_ns = 0;  // sum_exec_runtime already accounted
};

class RoundingBound final : public model::Observer<model::IdealArith> {
 public:
  using entity = model::sched_entity<model::IdealArith>;
  using cfs_rq = model::cfs_rq<model::IdealArith>;

  // `vprot`: the profile protects by vprot (6.18); else by a flag (6.12).
  RoundingBound(const model::Config& config, std::size_t ntasks, int ncpus, bool vprot);

  Streams& streams() { return streams_; }
  const EntityBound& of(int task) const { return bounds_.at(static_cast<std::size_t>(task)); }
  // The bound on one __calc_delta result: |floor(delta * F / 2^S) - delta * 1024 / w|.
  Bound calc_error(std::uint64_t delta, const model::load_weight& lw);
  // Σ w_j E_j and W over a queue's counted entities, for lag_bound.
  struct QueueSums {
    Bound weighted = 0;
    std::uint64_t weights = 0;
  };
  QueueSums queue_sums(const cfs_rq& cfs) const;
  // The bound on |lag_K - lag_I| of a queued entity: the smaller of its own (`lag`)
  // and Σ_{j != a} w_j (E_j + E_a) / W from the vruntime bounds; kept as its own.
  Bound lag_bound(const QueueSums& q, const entity& a);
  Bound lag_bound(const cfs_rq& cfs, const entity& a) { return lag_bound(queue_sums(cfs), a); }
  // Applies what is pending (a departure from the sums); the differential calls it
  // after each event, the hooks before they look.
  void settle();

  void decided(const cfs_rq& cfs, model::decision d, const entity* a, const entity* b, bool outcome) override;
  void charged(const cfs_rq& cfs, const entity& curr, std::uint64_t, bool, bool) override;
  void lag_stored(const cfs_rq& cfs, const entity& se, const Q& raw, const Q& limit, const Q& V) override;
  void placed(const cfs_rq& cfs, const entity& se, unsigned flags, const Q& vlag, bool had_rel,
              const Q& rel) override;
  void reweighted(const cfs_rq& cfs, const entity& se, std::uint64_t old_weight, bool deadline_scaled) override;
  void protection_set(const cfs_rq& cfs, const entity& se, std::uint64_t min_slice) override;
  void protection_changed(const cfs_rq& cfs, const entity& curr, bool cancelled) override;

 private:
  // An entity whose lag was stored and that is about to leave its runqueue's sums.
  struct Departure {
    const cfs_rq* cfs = nullptr;
    const entity* se = nullptr;
    std::uint64_t weight = 0;  // its weight in the sums
    std::uint64_t total = 0;   // W with it
    Bound lag = 0;             // its lag bound then
  };

  EntityBound& at(const entity& se) { return bounds_.at(static_cast<std::size_t>(se.task)); }
  void sync(const cfs_rq& cfs, const entity& se);  // charges since the last hook
  // Every counted entity of `cfs` but `except` gets `amount` more lag bound.
  void shift_others(const cfs_rq& cfs, const entity* except, Bound amount);
  void depart(const Departure& d);
  void join(const cfs_rq& cfs, const entity& se, Bound lag_bound);
  void place_vruntime(const cfs_rq& cfs, const entity& se, bool requeue);
  void judge(const cfs_rq& cfs, DecisionRecord& r, const entity* a, const entity* b);
  void act(const cfs_rq& cfs, const entity& a, model::decision d, bool outcome);
  std::vector<WalkEntry> walk(const cfs_rq& cfs);

  model::Config cfg_;
  bool vprot_;
  std::vector<EntityBound> bounds_;
  Streams streams_;
  // |F / 2^S - 1024 / w| as numerator / denominator, per (weight, inverse)
  std::map<std::uint64_t, std::pair<Bound, Bound>> rate_;
  Departure pending_;
  Departure requeued_;  // a delayed entity whose DELAY_ZERO requeue re-places it
};

// The sums behind the lags of one runqueue's counted entities (tree and an on_rq
// curr), computed once so that each lag is O(1): lag of `a` = Σ w_j (v_j - v_a) / W,
// against the exact (unfloored) mean, in either arithmetic.
template <class A>
class QueueLags {
 public:
  explicit QueueLags(const model::cfs_rq<A>& cfs);
  bool empty() const { return weights_ == 0; }
  Q lag(const model::sched_entity<A>& a) const;

 private:
  typename A::value base_{};      // v0: keeps the sums small
  typename A::value weighted_{};  // Σ w_j (v_j - base)
  std::uint64_t weights_ = 0;
};

}  // namespace eevdf::replay
