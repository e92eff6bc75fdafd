// ideal_tracks_kernel, the lockstep; see ideal_diff.h and docs/IDEAL_TRACKS_KERNEL.md.
#include "replay/ideal_diff.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/assert.h"
#include "model/profiles.h"
#include "replay/apply_event.h"

namespace eevdf::replay {
namespace {

using model::decision;

Q abs_q(const Q& x) { return x < 0 ? Q(-x) : x; }

// A rational for a report: exact when short, else with its decimal value.
std::string show(const Q& x) {
  const std::string exact = x.str();
  if (exact.size() <= 24) return exact;
  return fmt::format("~{:.6g}", x.convert_to<double>());
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// The task the event names, or the one running on its `cpu=`; -1: none.
template <class M>
int event_task(const M& m, const trace::Event& e) {
  if (e.task != 0) return m.task_index(e.task);
  return e.cpu ? task_running_on(m, *e.cpu) : -1;
}

}  // namespace

std::string decision_name(decision d) {
  switch (d) {
    case decision::pick_curr_eligible: return "pick_eevdf: curr eligible";
    case decision::pick_walk: return "pick_eevdf: first eligible entity in deadline order";
    case decision::pick_curr_before: return "pick_eevdf: curr's deadline before the walk's";
    case decision::buddy_eligible: return "pick_next_entity: next buddy eligible";
    case decision::yield_eligible: return "yield_task_fair: curr eligible";
    case decision::delay_eligible: return "dequeue_entity: sleeper eligible (DELAY_DEQUEUE)";
    case decision::requeue_positive_lag: return "requeue_delayed_entity: vlag > 0 (DELAY_ZERO)";
    case decision::deadline_reached: return "update_deadline: vruntime >= deadline";
    case decision::protected_slice: return "protect_slice: curr protected";
    case decision::short_wakee_eligible: return "do_preempt_short: wakee eligible";
    case decision::short_wakee_before: return "do_preempt_short: wakee's deadline before curr's";
    case decision::short_curr_eligible: return "do_preempt_short: curr eligible";
    case decision::resched_curr_eligible: return "did_preempt_short: curr eligible";
  }
  return "?";
}

std::string IdealDivergence::message() const {
  return fmt::format("line {} (t {} ns), CPU {}{}: {}: {}: {}", line, time_ns, cpu,
                     task != 0 ? fmt::format(", task {}", task) : "", decision, values, explanation);
}

template <class P>
IdealDiff<P>::IdealDiff(const model::Config& config, const std::vector<model::TaskSpec>& specs)
    : kernel_(config, specs), ideal_(config, specs), recorder_(config.topology.ncpus()),
      bound_(config, specs.size(), config.topology.ncpus(), std::is_same_v<P, model::profile_6_18>) {
  kernel_.set_observer(&recorder_);
  ideal_.set_observer(&bound_);
}

template <class P>
int IdealDiff<P>::id_of(int task) const {
  return task < 0 ? 0 : kernel_.tasks().at(static_cast<std::size_t>(task)).id;
}

template <class P>
void IdealDiff<P>::taint_cpu(int cpu) {
  if (cpu >= 0 && tainted_cpus_.insert(cpu).second) ++stats_.tainted_cpus;
}

// A tainted task taints every CPU its event reaches, in either model.
template <class P>
void IdealDiff<P>::taint_event(const trace::Event& e) {
  const int k = event_task(kernel_, e);
  const int i = event_task(ideal_, e);
  if (k >= 0) taint_cpu(kernel_.tasks()[static_cast<std::size_t>(k)].cpu);
  if (i >= 0) taint_cpu(ideal_.tasks()[static_cast<std::size_t>(i)].cpu);
  if (e.cpu) taint_cpu(*e.cpu);
}

// Every task on a tainted CPU, in either model, is tainted: its lag, deadline and
// state may differ from here on.
template <class P>
void IdealDiff<P>::spread_taint() {
  for (std::size_t t = 0; t < kernel_.tasks().size(); ++t)
    if (tainted_cpus_.count(kernel_.tasks()[t].cpu) != 0 || tainted_cpus_.count(ideal_.tasks()[t].cpu) != 0)
      tainted_tasks_.insert(static_cast<int>(t));
}

template <class P>
void IdealDiff<P>::report(const trace::Event& e, int cpu, int task, bool explained, std::string decision,
                          std::string values, std::string explanation) {
  found_.push_back({explained, e.line, e.time_ns, cpu, id_of(task), std::move(decision), std::move(values),
                    std::move(explanation)});
  if (explained) {
    ++stats_.explained;
    if (stats_.first_explained_line == 0) stats_.first_explained_line = e.line;
  } else {
    ++stats_.unexplained;
  }
  taint_cpu(cpu);
}

template <class P>
std::string IdealDiff<P>::apply(const trace::Event& e) {
  for (auto& s : recorder_.streams()) s.clear();
  for (auto& s : bound_.streams()) s.clear();
  std::vector<int> touched;
  const auto add_task_cpus = [&] {
    if (const int k = event_task(kernel_, e); k >= 0)
      touched.push_back(kernel_.tasks()[static_cast<std::size_t>(k)].cpu);
    if (const int i = event_task(ideal_, e); i >= 0)
      touched.push_back(ideal_.tasks()[static_cast<std::size_t>(i)].cpu);
  };
  add_task_cpus();
  const int task = event_task(kernel_, e);
  const std::string reason = apply_event(kernel_, e);
  if (!reason.empty()) return reason;
  ++stats_.events;
  const bool task_tainted = task >= 0 && tainted_tasks_.count(task) != 0;
  const std::string refused = apply_event(ideal_, e);
  bound_.settle();
  if (!refused.empty()) {
    ++stats_.skipped_events;
    if (!task_tainted) {
      const int cpu = e.cpu ? *e.cpu : task >= 0 ? kernel_.tasks()[static_cast<std::size_t>(task)].cpu : 0;
      report(e, cpu, task, false, "event", "the kernel model applied it, the ideal model refused it: " + refused,
             "the two models' states differ where no divergence was seen");
    }
    taint_event(e);
  }
  if (task_tainted) taint_event(e);
  for (const auto& rq : kernel_.rqs())
    if (!rq.cfs.overflow.empty() && !tainted_cpu(rq.cpu)) {
      ++stats_.overflow_cpus;  // past an s64 wrap the kernel's values are not comparable
      taint_cpu(rq.cpu);
    }
  kernel_.clear_overflows();
  add_task_cpus();
  if (e.cpu) touched.push_back(*e.cpu);
  for (std::size_t c = 0; c < recorder_.streams().size(); ++c)
    if (!recorder_.streams()[c].empty() || !bound_.streams()[c].empty()) touched.push_back(static_cast<int>(c));
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (int cpu : touched)
    if (!tainted_cpu(cpu)) compare_cpu(e, cpu);
  for (int cpu : touched)
    if (!tainted_cpu(cpu)) check_drift(e, cpu);
  spread_taint();
  if (task >= 0 && tainted_tasks_.count(task) == 0) check_stored_lag(e, task);
  return "";
}

// The two streams of one CPU, in order: the first difference is judged, and ends the
// comparison of that CPU (it is tainted, explained or not).
template <class P>
void IdealDiff<P>::compare_cpu(const trace::Event& e, int cpu) {
  const auto& ks = recorder_.streams()[static_cast<std::size_t>(cpu)];
  const auto& is = bound_.streams()[static_cast<std::size_t>(cpu)];
  const std::size_t n = std::min(ks.size(), is.size());
  for (std::size_t j = 0; j < n; ++j) {
    const DecisionRecord& k = ks[j];
    const DecisionRecord& i = is[j];
    ++stats_.decisions;
    const bool same_question = k.kind == i.kind && (k.kind == decision::pick_walk || (k.a == i.a && k.b == i.b));
    if (!same_question) {
      return report(e, cpu, k.a, false, decision_name(k.kind),
                    fmt::format("kernel asks `{}` of task {}, ideal asks `{}` of task {}", decision_name(k.kind),
                                id_of(k.a), decision_name(i.kind), id_of(i.a)),
                    "the models part without a differing decision");
    }
    if (k.kind == decision::pick_walk ? k.a != i.a : k.outcome != i.outcome) return judge(e, cpu, k, i);
  }
  if (ks.size() != is.size())
    report(e, cpu, -1, false, "decision count",
           fmt::format("kernel took {} decisions, ideal {}", ks.size(), is.size()),
           "the models part without a differing decision");
}

// A differing decision: explained iff its ideal margin is within the bound.
template <class P>
void IdealDiff<P>::judge(const trace::Event& e, int cpu, const DecisionRecord& k, const DecisionRecord& i) {
  const std::string name = decision_name(k.kind);
  if (k.kind != decision::pick_walk) {
    const Q bound = bound_ns(i.bound);
    const bool explained = !i.exact && abs_q(i.margin) <= bound;
    const std::string values =
        i.exact ? fmt::format("kernel {}, ideal {} (decided on exact state)", yes_no(k.outcome), yes_no(i.outcome))
                : fmt::format("kernel {}, ideal {}, ideal margin {}, bound {}", yes_no(k.outcome), yes_no(i.outcome),
                              show(i.margin), show(bound));
    return report(e, cpu, k.a, explained, name, values,
                  explained ? "a rounding tie: the margin is within the kernel's accumulated rounding"
                            : "the margin exceeds every rounding the kernel made so far");
  }
  // The walk: the kernel found x, the ideal y. One of: x's or y's eligibility, or
  // their deadline order, must be within its bound (docs, §3.2).
  const auto entry = [&](int t) -> const WalkEntry* {
    for (const WalkEntry& w : i.walk)
      if (w.task == t) return &w;
    return nullptr;
  };
  const WalkEntry* x = entry(k.a);
  const WalkEntry* y = entry(i.a);
  std::string why;
  Q margin = -1, bound = 0;
  const auto consider = [&](const std::string& what, const Q& m, const Q& b) {
    if (why.empty() || abs_q(m) - b < abs_q(margin) - bound) {
      why = what;
      margin = m;
      bound = b;
    }
  };
  if (x != nullptr) consider(fmt::format("lag of task {}", id_of(x->task)), x->lag, bound_ns(x->lag_bound));
  if (y != nullptr) consider(fmt::format("lag of task {}", id_of(y->task)), y->lag, bound_ns(y->lag_bound));
  if (x != nullptr && y != nullptr)
    consider(fmt::format("deadline of task {} minus task {}", id_of(x->task), id_of(y->task)),
             x->deadline - y->deadline, bound_ns(x->deadline_bound + y->deadline_bound));
  const bool explained = !why.empty() && abs_q(margin) <= bound;
  report(e, cpu, k.a >= 0 ? k.a : i.a, explained, name,
         fmt::format("kernel task {}, ideal task {}; closest: {} {}, bound {}", id_of(k.a), id_of(i.a), why,
                     show(margin), show(bound)),
         explained ? "a rounding tie in the walk" : "no eligibility or deadline order in the walk is within rounding");
}

// Numeric drift: every queued entity's lag and deadline - vruntime, curr's vprot -
// vruntime, against their bounds.
template <class P>
void IdealDiff<P>::check_drift(const trace::Event& e, int cpu) {
  const auto& kq = kernel_.rqs()[static_cast<std::size_t>(cpu)].cfs;
  const auto& iq = ideal_.rqs()[static_cast<std::size_t>(cpu)].cfs;
  std::vector<const model::sched_entity<model::IdealArith>*> queued(iq.timeline.begin(), iq.timeline.end());
  if (iq.curr != nullptr && iq.curr->on_rq) queued.push_back(iq.curr);
  if (queued.empty()) return;
  const QueueLags<model::KernelArith> klags(kq);
  const QueueLags<model::IdealArith> ilags(iq);
  const RoundingBound::QueueSums sums = bound_.queue_sums(iq);
  for (const auto* ise : queued) {
    const auto& kse = kernel_.tasks()[static_cast<std::size_t>(ise->task)].se;
    const EntityBound& b = bound_.of(ise->task);
    // |kv - iv| <= bound (in 2^-10 ns); the statistics in doubles, the verdict exact.
    const auto check = [&](const char* what, const Q& kv, const Q& iv, Bound bound) {
      const Q diff = abs_q(kv - iv);
      const double bound_d = static_cast<double>(bound) / static_cast<double>(kGrid);
      if (bound > 0) stats_.drift_ratio_max = std::max(stats_.drift_ratio_max, diff.convert_to<double>() / bound_d);
      stats_.lag_bound_max = std::max(stats_.lag_bound_max, bound_d);
      if (diff * 1024 <= to_q(bound)) return true;  // kGrid
      report(e, cpu, ise->task, false, std::string("drift of ") + what,
             fmt::format("kernel {}, ideal {}, |difference| {} > bound {}", show(kv), show(iv), show(diff),
                         show(bound_ns(bound))),
             "the kernel's value is farther from the ideal one than its roundings allow");
      return false;
    };
    if (!kse.on_rq) return report(e, cpu, ise->task, false, "queue", "queued in the ideal model only",
                                  "the models part without a differing decision");
    if (klags.empty()) return report(e, cpu, ise->task, false, "queue", "queued in the ideal model only",
                                     "the models part without a differing decision");
    if (!check("lag", klags.lag(kse), ilags.lag(*ise), bound_.lag_bound(sums, *ise))) return;
    if (!check("deadline - vruntime", to_q(kse.deadline - kse.vruntime), ise->deadline - ise->vruntime, b.dv)) return;
    if (std::is_same_v<P, model::profile_6_18> && ise == iq.curr &&
        !check("vprot - vruntime", to_q(kse.vprot - kse.vruntime), ise->vprot - ise->vruntime, b.pv))
      return;
  }
}

// A task off the runqueues keeps its stored lag for its next placement.
template <class P>
void IdealDiff<P>::check_stored_lag(const trace::Event& e, int task) {
  const auto& kt = kernel_.tasks()[static_cast<std::size_t>(task)];
  const auto& it = ideal_.tasks()[static_cast<std::size_t>(task)];
  if (kt.se.on_rq || it.se.on_rq || kt.exited || !kt.forked) return;
  const Q diff = abs_q(to_q(kt.se.vlag) - it.se.vlag);
  const Q bound = bound_ns(bound_.of(task).vlag);
  if (diff <= bound) return;
  report(e, kt.cpu, task, false, "drift of the stored vlag",
         fmt::format("kernel {}, ideal {}, |difference| {} > bound {}", to_q(kt.se.vlag).str(), show(it.se.vlag),
                     show(diff), show(bound)),
         "the kernel's stored lag is farther from the ideal one than its roundings allow");
}

template class IdealDiff<model::profile_6_18>;
template class IdealDiff<model::profile_6_12>;

}  // namespace eevdf::replay
