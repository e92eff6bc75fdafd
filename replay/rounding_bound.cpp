// The two observers of ideal_tracks_kernel; see rounding_bound.h and
// docs/IDEAL_TRACKS_KERNEL.md (section numbers below are that document's).
#include "replay/rounding_bound.h"

#include <algorithm>

#include "base/assert.h"
#include "model/calc_delta.h"
#include "model/flags.h"

namespace eevdf::replay {
namespace {

using model::decision;
using model::IdealArith;

int index_of(const model::sched_entity<IdealArith>* se) { return se == nullptr ? -1 : se->task; }

Q abs_q(const Q& x) { return x < 0 ? Q(-x) : x; }
Q max_q(const Q& a, const Q& b) { return a < b ? b : a; }

// A stored bound rounded up to a multiple of 2^-10 ns: still a bound, and its
// denominator stays small (exact sums over ever new weight totals would grow
// without limit and slow every later operation).
Q up(const Q& x) {
  constexpr long kGrid = 1024;
  const Q scaled = x * kGrid;
  boost::multiprecision::mpz_int q = numerator(scaled) / denominator(scaled);  // truncates toward zero
  if (Q(q) < scaled) q += 1;
  return Q(q) / kGrid;
}

// The entities V counts (§3.3): the tree and an on_rq curr.
template <class A>
std::vector<const model::sched_entity<A>*> counted(const model::cfs_rq<A>& cfs) {
  std::vector<const model::sched_entity<A>*> out(cfs.timeline.begin(), cfs.timeline.end());
  if (cfs.curr != nullptr && cfs.curr->on_rq) out.push_back(cfs.curr);
  return out;
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
  for (const auto* se : counted(cfs)) {
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

// §2: one __calc_delta is floor(delta * F / 2^S) against delta * 1024 / w exactly, so
// it is off by delta * (F / 2^S - 1024 / w) minus a fraction in [0, 1).
Q RoundingBound::calc_error(std::uint64_t delta, const model::load_weight& lw) {
  if (lw.weight == model::NICE_0_LOAD || delta == 0) return 0;  // calc_delta_fair returns delta
  const std::uint64_t key = lw.weight ^ (std::uint64_t{model::inv_weight_of(lw)} << 40);
  auto it = rate_.find(key);
  if (it == rate_.end()) {
    const model::delta_factor f = model::calc_delta_factor(model::NICE_0_LOAD, lw);
    Q scale = 1;
    for (int i = 0; i < f.shift; ++i) scale *= 2;
    it = rate_.emplace(key, abs_q(Q(f.fact) / scale - Q(model::NICE_0_LOAD) / Q(lw.weight))).first;
  }
  return it->second * Q(delta) + 1;
}

auto RoundingBound::queue_bound(const cfs_rq& cfs) const -> QueueBound {
  QueueBound q;
  for (const entity* se : counted(cfs)) {
    const std::uint64_t w = model::scale_load_down(se->load.weight);
    q.weighted += Q(w) * of(se->task).v;
    q.weights += w;
  }
  return q;
}

// §3.1: Σ_{j != a} w_j (E_j + E_a) / W over the counted entities (an on_rq entity is
// counted: in the tree or curr); Σ_j w_j E_j / W + E_a for one that is not.
Q RoundingBound::lag_bound(const QueueBound& q, const entity& a) const {
  EEVDF_ASSERT(q.weights != 0, "a decision on an empty runqueue");
  const Q& ea = of(a.task).v;
  if (!a.on_rq) return q.weighted / Q(q.weights) + ea;
  const std::uint64_t wa = model::scale_load_down(a.load.weight);
  return (q.weighted - Q(wa) * ea + Q(q.weights - wa) * ea) / Q(q.weights);
}

void RoundingBound::sync(const entity& se) {
  EntityBound& b = at(se);
  if (se.sum_exec_runtime == b.charged_ns) return;
  EEVDF_ASSERT(se.sum_exec_runtime > b.charged_ns, "sum_exec_runtime went back");
  const Q charge = calc_error(se.sum_exec_runtime - b.charged_ns, se.load);
  b.v = up(b.v + charge);  // the deadline and vprot stay put while vruntime moves
  b.dv = up(b.dv + charge);
  b.pv = up(b.pv + charge);
  b.charged_ns = se.sum_exec_runtime;
}

std::vector<WalkEntry> RoundingBound::walk(const cfs_rq& cfs) const {
  const QueueLags<IdealArith> lags(cfs);
  const QueueBound q = queue_bound(cfs);
  std::vector<WalkEntry> out;
  out.reserve(cfs.timeline.size());
  for (const entity* se : cfs.timeline)
    out.push_back({se->task, lags.lag(*se), lag_bound(q, *se), se->deadline - cfs.min_vruntime,
                   of(se->task).dv + of(se->task).v});
  return out;
}

// §3: the decision's margin in exact arithmetic and the bound on the kernel's.
void RoundingBound::judge(const cfs_rq& cfs, DecisionRecord& r, const entity* a, const entity* b) {
  if (a != nullptr) sync(*a);
  if (cfs.curr != nullptr) sync(*cfs.curr);
  if (eligibility(r.kind)) {
    r.margin = exact_lag(cfs, *a);
    r.bound = lag_bound(cfs, *a);
    return;
  }
  switch (r.kind) {
    case decision::pick_walk: r.walk = walk(cfs); return;
    case decision::pick_curr_before:
    case decision::short_wakee_before:
      r.margin = b->deadline - a->deadline;
      r.bound = of(a->task).dv + of(a->task).v + of(b->task).dv + of(b->task).v;
      return;
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
      r.bound = of(a->task).lag;
      return;
    default: EEVDF_ASSERT(false, "a decision without a margin");
  }
}

// §4: what the decision does to the bounds of its subject.
void RoundingBound::act(const entity& a, decision d, bool outcome) {
  EntityBound& b = at(a);
  if (!outcome) return;
  if (d == decision::deadline_reached) {  // §5.2: deadline = vruntime + calc_delta_fair(slice)
    const std::uint64_t slice = a.custom_slice ? a.slice : cfg_.sysctl_base_slice;
    b.dv = up(calc_error(slice, a.load));
  } else if (d == decision::yield_eligible) {  // §12: vruntime = deadline; deadline += vslice
    b.v = up(b.v + b.dv);
    b.pv = up(b.pv + b.dv);  // vprot stays: vprot - vruntime moves by deadline - vruntime
    b.dv = up(calc_error(a.slice, a.load));
  } else if (d == decision::requeue_positive_lag) {  // §10: vlag = 0, exactly
    b.lag = 0;
  }
}

void RoundingBound::decided(const cfs_rq& cfs, decision d, const entity* a, const entity* b, bool outcome) {
  DecisionRecord r;
  r.kind = d;
  r.a = index_of(a);
  r.b = index_of(b);
  r.outcome = outcome;
  judge(cfs, r, a, b);
  streams_.at(static_cast<std::size_t>(cfs.rq_->cpu)).push_back(std::move(r));
  if (a != nullptr && d != decision::pick_walk) act(*a, d, outcome);
}

// §4 lag store: vlag = clamp(V - v); V floored; the clamp is 1-Lipschitz in each bound.
void RoundingBound::lag_stored(const cfs_rq& cfs, const entity& se, const Q&, const Q&, const Q&) {
  sync(se);
  if (cfs.curr != nullptr) sync(*cfs.curr);
  const std::uint64_t span = std::max(2 * se.slice, cfg_.tick_nsec);
  at(se).lag = up(max_q(lag_bound(cfs, se) + 1, calc_error(span, se.load)));
  at(se).has_drel = false;
}

// §4 placement: vruntime = V - trunc(vlag * (L + w) / L); deadline renewed or restored.
void RoundingBound::placed(const cfs_rq& cfs, const entity& se, unsigned flags, const Q&, bool had_rel,
                           const Q&) {
  sync(se);
  EntityBound& b = at(se);
  const bool se_counted = cfs.curr == &se && se.on_rq;  // a requeued delayed curr is in its own V
  Q weighted = 0;
  std::uint64_t load = 0;
  for (const entity* other : counted(cfs)) {
    if (other == &se && !se_counted) continue;
    const std::uint64_t w = model::scale_load_down(other->load.weight);
    if (other != &se) sync(*other);
    weighted += Q(w) * of(other->task).v;
    load += w;
  }
  const Q drel = b.has_drel ? b.drel : b.dv;  // made relative at the dequeue (§6.3 step 6)
  Q v = 0;  // an empty queue: V = v0, the runqueue's offset is re-anchored here
  if (load != 0) {
    v = weighted / Q(load) + 1;
    if (cfg_.feat(model::Feature::PLACE_LAG)) {
      const std::uint64_t w = model::scale_load_down(se.load.weight);
      v += b.lag * Q(load + w) / Q(load) + 1;
    }
  }
  if (cfs.curr == &se) b.pv = up(b.pv + b.v + v);  // a requeued curr keeps its vprot (§10)
  b.v = up(v);
  if (had_rel) {
    b.dv = drel;
  } else {
    Q vslice = calc_error(se.slice, se.load);
    if (cfg_.feat(model::Feature::PLACE_DEADLINE_INITIAL) && (flags & model::ENQUEUE_INITIAL) != 0)
      vslice = vslice / 2 + Q(1) / 2;
    b.dv = up(vslice);
  }
  b.has_drel = false;
}

// §4 reweight: vlag (and a relative deadline) times old/new, truncated.
void RoundingBound::reweighted(const cfs_rq&, const entity& se, std::uint64_t old_weight, bool deadline_scaled) {
  EntityBound& b = at(se);
  const Q ratio = Q(old_weight) / Q(se.load.weight);
  const Q trunc = old_weight == se.load.weight ? 0 : 1;  // x * w / w is exact
  b.lag = up(b.lag * ratio + trunc);
  if (deadline_scaled) {
    if (!b.has_drel) b.drel = b.dv;
    b.has_drel = true;
    b.drel = up(b.drel * ratio + trunc);
  }
}

// §4 protection: vprot - vruntime = min(deadline - vruntime, calc_delta_fair(s)), s <= slice.
void RoundingBound::protection_set(const cfs_rq&, const entity& se, std::uint64_t) {
  if (!vprot_) return;
  sync(se);
  EntityBound& b = at(se);
  b.pv = up(max_q(b.dv, calc_error(se.slice, se.load)));
}

void RoundingBound::protection_changed(const cfs_rq&, const entity& curr, bool cancelled) {
  if (!vprot_) return;
  sync(curr);
  EntityBound& b = at(curr);
  b.pv = cancelled ? Q(0) : up(max_q(b.pv, calc_error(curr.slice, curr.load)));
}

}  // namespace eevdf::replay
