// The two observers of ideal_tracks_kernel; see rounding_bound.h and
// docs/IDEAL_TRACKS_KERNEL.md (section numbers below are that document's).
#include "replay/rounding_bound.h"

#include <algorithm>

#include "base/assert.h"
#include "model/calc_delta.h"
#include "model/flags.h"
#include "properties/brute.h"

namespace eevdf::replay {
namespace {

using model::decision;
using model::IdealArith;

int index_of(const model::sched_entity<IdealArith>* se) { return se == nullptr ? -1 : se->task; }

template <class A>
std::uint64_t weight_of(const model::sched_entity<A>& se) {
  return model::scale_load_down(se.load.weight);
}

// Bounds saturate here (~10^21 ns, explaining anything) rather than overflow: past a
// divergence a tainted runqueue's bounds are still kept, over states that no longer
// correspond, and may grow without limit.
constexpr Bound kUnbounded = Bound{1} << 80;  // times any weight sum (< 2^36): < 2^116
Bound saturate(Bound b) { return std::min(b, kUnbounded); }

// ceil(b * num / den) for b, num >= 0, den > 0: a bound scaled, still a bound.
Bound mul_div_up(Bound b, Bound num, Bound den) {
  EEVDF_ASSERT(b >= 0 && num >= 0 && den > 0, "bounds and weights are not negative");
  EEVDF_ASSERT(num < (Bound{1} << 36), "a factor beyond any weight sum");
  if (b >= kUnbounded) return kUnbounded;
  return saturate((b * num + den - 1) / den);
}

// The entities V counts (§3.3): the tree and an on_rq curr.
using properties::brute::queued;

template <class A>
std::uint64_t weight_sum(const model::cfs_rq<A>& cfs) {
  std::uint64_t total = 0;
  for (const auto* se : queued(cfs)) total += weight_of(*se);
  return total;
}

bool eligibility(decision d) {
  switch (d) {
    case decision::pick_curr_eligible:
    case decision::buddy_eligible:
    case decision::yield_eligible:
    case decision::delay_eligible:
    case decision::short_wakee_eligible:
    case decision::short_curr_eligible:
    case decision::resched_curr_eligible: return true;
    default: return false;
  }
}

}  // namespace

Q to_q(model::s128 x) {
  if (x >= INT64_MIN && x <= INT64_MAX) return Q(static_cast<std::int64_t>(x));
  const bool negative = x < 0;
  const model::u128 m = negative ? -static_cast<model::u128>(x) : static_cast<model::u128>(x);
  Q q = Q(static_cast<std::uint64_t>(m >> 64)) * Q(std::uint64_t{1} << 32) * Q(std::uint64_t{1} << 32) +
        Q(static_cast<std::uint64_t>(m));
  return negative ? Q(-q) : q;
}

template <class A>
QueueLags<A>::QueueLags(const model::cfs_rq<A>& cfs) : base_(cfs.min_vruntime) {
  for (const auto* se : queued(cfs)) {
    const std::uint64_t w = model::scale_load_down(se->load.weight);
    weighted_ += (se->vruntime - base_) * typename A::value(w);
    weights_ += w;
  }
}

template <class A>
Q QueueLags<A>::lag(const model::sched_entity<A>& a) const {
  EEVDF_ASSERT(weights_ != 0, "lag on an empty runqueue");
  return to_q(weighted_ - (a.vruntime - base_) * typename A::value(weights_)) / Q(weights_);
}
template class QueueLags<model::KernelArith>;
template class QueueLags<IdealArith>;

void DecisionRecorder::decided(const model::cfs_rq<model::KernelArith>& cfs, decision d,
                               const model::sched_entity<model::KernelArith>* a,
                               const model::sched_entity<model::KernelArith>* b, bool outcome) {
  DecisionRecord r;
  r.kind = d;
  r.a = a == nullptr ? -1 : a->task;
  r.b = b == nullptr ? -1 : b->task;
  r.outcome = outcome;
  streams_.at(static_cast<std::size_t>(cfs.rq_->cpu)).push_back(std::move(r));
}

RoundingBound::RoundingBound(const model::Config& config, std::size_t ntasks, int ncpus, bool vprot)
    : cfg_(config), vprot_(vprot), bounds_(ntasks), streams_(static_cast<std::size_t>(ncpus)) {}

// §3.1: one __calc_delta is floor(delta * F / 2^S) against delta * 2^20 / weight
// exactly (1024 / w for a task), so it is off by delta * rho minus a fraction in
// [0, 1), rho = F / 2^S - 2^20 / weight = (F weight - 2^(20+S)) / (2^S weight).
Bound RoundingBound::calc_error(std::uint64_t delta, const model::load_weight& lw) {
  if (lw.weight == model::NICE_0_LOAD || delta == 0) return 0;  // calc_delta_fair returns delta
  const std::uint64_t key = lw.weight ^ (std::uint64_t{model::inv_weight_of(lw)} << 40);
  auto it = rate_.find(key);
  if (it == rate_.end()) {
    const model::delta_factor f = model::calc_delta_factor(model::NICE_0_LOAD, lw);
    const Bound num = Bound(f.fact) * Bound(lw.weight) - (Bound{1} << (20 + f.shift));
    const Bound den = (Bound{1} << f.shift) * Bound(lw.weight);
    it = rate_.emplace(key, std::make_pair(num < 0 ? Bound(-num) : num, den)).first;
  }
  // delta * 2^10 * num < 2^44 * 2^10 * 2^59: exact in 128 bits.
  return (Bound(delta) * kGrid * it->second.first + it->second.second - 1) / it->second.second + kGrid;
}

void RoundingBound::shift_others(const cfs_rq& cfs, const entity* except, Bound amount) {
  if (amount == 0) return;
  for (const entity* se : queued(cfs))
    if (se != except) at(*se).lag = saturate(at(*se).lag + amount);
}

// §3.1 a charge: curr's vruntime moves by calc_delta_fair(delta), off by e; its lag
// moves by -dv (W - w) / W and every other lag by dv w / W; deadline and vprot stay,
// so deadline - vruntime and vprot - vruntime move by dv too.
void RoundingBound::sync(const cfs_rq& cfs, const entity& se) {
  EntityBound& b = at(se);
  if (se.sum_exec_runtime == b.charged_ns) return;
  EEVDF_ASSERT(se.sum_exec_runtime > b.charged_ns, "sum_exec_runtime went back");
  const Bound e = calc_error(se.sum_exec_runtime - b.charged_ns, se.load);
  b.charged_ns = se.sum_exec_runtime;
  b.v = saturate(b.v + e);
  b.dv = saturate(b.dv + e);
  b.pv = saturate(b.pv + e);
  if (!se.on_rq) return;  // not in the mean: no lag to speak of
  const std::uint64_t total = weight_sum(cfs);
  const std::uint64_t w = weight_of(se);
  b.lag = saturate(b.lag + mul_div_up(e, Bound(total - w), Bound(total)));
  shift_others(cfs, &se, mul_div_up(e, Bound(w), Bound(total)));
}

// §3.3 a departure with lag l from weight W: the mean moves by w l / (W - w).
void RoundingBound::depart(const Departure& d) {
  if (d.total > d.weight) shift_others(*d.cfs, d.se, mul_div_up(d.lag, Bound(d.weight), Bound(d.total - d.weight)));
}

// §3.2 a placement: the new lag is off by at most `lag_bound`; the mean moves by
// -w lag / L, so every other lag by as much.
void RoundingBound::join(const cfs_rq& cfs, const entity& se, Bound lag_bound) {
  std::uint64_t rest = 0;
  for (const entity* other : queued(cfs))
    if (other != &se) rest += weight_of(*other);
  at(se).lag = lag_bound;
  if (rest != 0) shift_others(cfs, &se, mul_div_up(lag_bound, Bound(weight_of(se)), Bound(rest)));
}

// A departure is applied once the entity is out of the sums it stored its lag in
// (a requeue keeps it there; a migration may already have it in another queue).
void RoundingBound::settle() {
  if (pending_.se != nullptr) {
    const cfs_rq& cfs = *pending_.cfs;
    const bool stays = (cfs.curr == pending_.se && pending_.se->on_rq) ||
                       std::find(cfs.timeline.begin(), cfs.timeline.end(), pending_.se) != cfs.timeline.end();
    if (!stays) depart(pending_);
  }
  pending_ = {};
}

auto RoundingBound::queue_sums(const cfs_rq& cfs) const -> QueueSums {
  QueueSums q;
  for (const entity* se : queued(cfs)) {
    q.weighted += Bound(weight_of(*se)) * of(se->task).v;
    q.weights += weight_of(*se);
  }
  return q;
}

// §3.4: Σ_{j != a} w_j (E_j + E_a) / W = (Σ w_j E_j - w_a E_a + (W - w_a) E_a) / W.
Bound RoundingBound::lag_bound(const QueueSums& q, const entity& a) {
  EEVDF_ASSERT(a.on_rq && q.weights != 0, "the lag of an entity outside the mean");
  EntityBound& b = at(a);
  const Bound w = Bound(weight_of(a));
  const Bound from_v = mul_div_up(q.weighted - w * b.v + (Bound(q.weights) - w) * b.v, 1, Bound(q.weights));
  b.lag = std::min(b.lag, from_v);
  return b.lag;
}

std::vector<WalkEntry> RoundingBound::walk(const cfs_rq& cfs) {
  const QueueLags<IdealArith> lags(cfs);
  const QueueSums q = queue_sums(cfs);
  std::vector<WalkEntry> out;
  out.reserve(cfs.timeline.size());
  for (const entity* se : cfs.timeline) {
    const Bound lag = lag_bound(q, *se);
    out.push_back({se->task, lags.lag(*se), se->deadline - cfs.min_vruntime, lag, of(se->task).dv + lag});
  }
  return out;
}

// §1: the decision's margin in exact arithmetic and the bound on the kernel's.
void RoundingBound::judge(const cfs_rq& cfs, DecisionRecord& r, const entity* a, const entity* b) {
  if (eligibility(r.kind)) {
    r.margin = QueueLags<IdealArith>(cfs).lag(*a);
    r.bound = lag_bound(cfs, *a);
    return;
  }
  switch (r.kind) {
    case decision::pick_walk: r.walk = walk(cfs); return;
    case decision::pick_curr_before:
    case decision::short_wakee_before: {  // d_b - d_a = (d - v)_b - (d - v)_a + lag_a - lag_b
      const QueueSums q = queue_sums(cfs);
      r.margin = b->deadline - a->deadline;
      r.bound = of(a->task).dv + lag_bound(q, *a) + of(b->task).dv + lag_bound(q, *b);
      return;
    }
    case decision::deadline_reached:
      r.margin = a->vruntime - a->deadline;
      r.bound = of(a->task).dv;
      return;
    case decision::protected_slice:
      r.exact = !vprot_;  // 6.12: vlag == deadline, a copy: the same in both arithmetics
      if (vprot_) {
        r.margin = a->vprot - a->vruntime;
        r.bound = of(a->task).pv;
      }
      return;
    case decision::requeue_positive_lag:
      r.margin = a->vlag;
      r.bound = of(a->task).vlag;
      return;
    default: EEVDF_ASSERT(false, "a decision without a margin");
  }
}

// §3: what the decision does to the bounds of its subject.
void RoundingBound::act(const cfs_rq& cfs, const entity& a, decision d, bool outcome) {
  EntityBound& b = at(a);
  if (!outcome) return;
  if (d == decision::deadline_reached) {  // §3.2: deadline = vruntime + calc_delta_fair(slice)
    const std::uint64_t slice = a.custom_slice ? a.slice : cfg_.sysctl_base_slice;
    b.dv = calc_error(slice, a.load);
  } else if (d == decision::yield_eligible) {  // §3.3: vruntime moves to the deadline
    const std::uint64_t total = weight_sum(cfs);
    const std::uint64_t w = weight_of(a);
    b.v = saturate(b.v + b.dv);
    b.lag = saturate(b.lag + mul_div_up(b.dv, Bound(total - w), Bound(total)));
    shift_others(cfs, &a, mul_div_up(b.dv, Bound(w), Bound(total)));
    b.pv = saturate(b.pv + b.dv);
    b.dv = calc_error(a.slice, a.load);  // 6.18: deadline += vslice; 6.12 renews it next
  }
}

void RoundingBound::decided(const cfs_rq& cfs, decision d, const entity* a, const entity* b, bool outcome) {
  if (d == decision::requeue_positive_lag && outcome && pending_.se == a) requeued_ = pending_;
  if (d == decision::requeue_positive_lag) pending_ = {};  // the entity stays in the sums
  settle();
  if (a != nullptr) sync(cfs, *a);
  if (cfs.curr != nullptr) sync(cfs, *cfs.curr);
  DecisionRecord r;
  r.kind = d;
  r.a = index_of(a);
  r.b = index_of(b);
  r.outcome = outcome;
  judge(cfs, r, a, b);
  streams_.at(static_cast<std::size_t>(cfs.rq_->cpu)).push_back(std::move(r));
  if (a != nullptr && d != decision::pick_walk) act(cfs, *a, d, outcome);
}

void RoundingBound::charged(const cfs_rq& cfs, const entity& curr, std::uint64_t, bool, bool) {
  settle();
  sync(cfs, curr);
}

// §3.3 lag store: vlag = clamp(V - v) with V floored; the clamp is 1-Lipschitz.
void RoundingBound::lag_stored(const cfs_rq& cfs, const entity& se, const Q&, const Q&, const Q&) {
  settle();
  sync(cfs, se);
  const Bound lag = lag_bound(cfs, se);
  EntityBound& b = at(se);
  const std::uint64_t span = std::max(2 * se.slice, cfg_.tick_nsec);
  b.vlag = std::max(lag + kGrid, calc_error(span, se.load));
  b.has_drel = false;
  pending_ = {&cfs, &se, weight_of(se), weight_sum(cfs), lag};
}

// §3.2 placement: vruntime = V - trunc(vlag * (L + w) / L); deadline renewed or restored.
void RoundingBound::placed(const cfs_rq& cfs, const entity& se, unsigned flags, const Q&, bool had_rel, const Q&) {
  settle();
  EntityBound& b = at(se);
  const Departure requeue = requeued_.se == &se ? requeued_ : Departure{};
  requeued_ = {};
  place_vruntime(cfs, se, requeue.se != nullptr);
  if (requeue.se != nullptr && cfs.curr == &se) {
    // A delayed curr re-placed at V while V counts it (§3.2): its new lag is
    // (w lag_old + L f) / W, the others move by w (lag_old - f) / W.
    const Bound moved = requeue.lag + kGrid;
    const Bound total = Bound(requeue.total);
    b.lag = mul_div_up(Bound(requeue.weight) * requeue.lag + (total - Bound(requeue.weight)) * kGrid, 1, total);
    shift_others(cfs, &se, mul_div_up(moved, Bound(requeue.weight), total));
    b.pv += moved;
  } else {
    if (requeue.se != nullptr) {
      depart(requeue);
      b.vlag = 0;  // DELAY_ZERO placed it with vlag = 0, exactly
    }
    std::uint64_t rest = 0;
    for (const entity* other : queued(cfs))
      if (other != &se) rest += weight_of(*other);
    const Bound w = Bound(weight_of(se));
    Bound lag = 0;  // alone: exactly at the mean in both arithmetics
    if (rest != 0) {  // lag' = vlag + L (f - t) / (L + w): the floor of V and the truncation
      const bool place_lag = cfg_.feat(model::Feature::PLACE_LAG);
      lag = (place_lag ? b.vlag : 0) + mul_div_up(place_lag ? 2 * kGrid : kGrid, Bound(rest), Bound(rest) + w);
    }
    join(cfs, se, lag);
  }
  if (had_rel) {
    b.dv = b.has_drel ? b.drel : b.dv;  // made relative at the dequeue (EEVDF §6.3 step 6)
  } else {
    b.dv = calc_error(se.slice, se.load);
    if (cfg_.feat(model::Feature::PLACE_DEADLINE_INITIAL) && (flags & model::ENQUEUE_INITIAL) != 0)
      b.dv = mul_div_up(b.dv, 1, 2) + kGrid / 2;
  }
  b.has_drel = false;
}

// §3.2 the vruntime bound of a placement: V = floor(Σ w v / W) over the queue V sees
// (a requeued curr sees itself), then minus trunc(vlag (L + w) / L). On an empty
// queue V is v0: the runqueue's offset starts anew there (§2.1).
void RoundingBound::place_vruntime(const cfs_rq& cfs, const entity& se, bool requeue) {
  const bool self = cfs.curr == &se && se.on_rq;
  Bound weighted = 0;
  std::uint64_t load = 0;
  for (const entity* other : queued(cfs)) {
    if (other == &se && !self) continue;
    weighted += Bound(weight_of(*other)) * of(other->task).v;
    load += weight_of(*other);
  }
  EntityBound& b = at(se);
  if (load == 0) {
    b.v = 0;
    return;
  }
  Bound v = mul_div_up(weighted, 1, Bound(load)) + kGrid;
  const Bound vlag = requeue ? 0 : b.vlag;
  if (cfg_.feat(model::Feature::PLACE_LAG)) v += mul_div_up(vlag, Bound(load + weight_of(se)), Bound(load)) + kGrid;
  b.v = v;
}

// §3.3 reweight: vlag (and a relative deadline) times old/new, truncated.
void RoundingBound::reweighted(const cfs_rq&, const entity& se, std::uint64_t old_weight, bool deadline_scaled) {
  settle();
  EntityBound& b = at(se);
  const Bound trunc = old_weight == se.load.weight ? 0 : kGrid;  // x * w / w is exact
  b.vlag = mul_div_up(b.vlag, Bound(old_weight), Bound(se.load.weight)) + trunc;
  if (deadline_scaled) {
    if (!b.has_drel) b.drel = b.dv;
    b.has_drel = true;
    b.drel = mul_div_up(b.drel, Bound(old_weight), Bound(se.load.weight)) + trunc;
  }
}

// §3.3 protection: vprot - vruntime = min(deadline - vruntime, calc_delta_fair(s)), s <= slice.
void RoundingBound::protection_set(const cfs_rq& cfs, const entity& se, std::uint64_t) {
  settle();
  if (!vprot_) return;
  sync(cfs, se);
  EntityBound& b = at(se);
  b.pv = std::max(b.dv, calc_error(se.slice, se.load));
}

void RoundingBound::protection_changed(const cfs_rq& cfs, const entity& curr, bool cancelled) {
  settle();
  if (!vprot_) return;
  sync(cfs, curr);
  EntityBound& b = at(curr);
  b.pv = cancelled ? 0 : std::max(b.pv, calc_error(curr.slice, curr.load));
}

}  // namespace eevdf::replay
