// The differential of fast_diff.h: field-by-field comparison of the two models, and
// `replay --diff` over it.
#include "replay/fast_diff.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/assert.h"
#include "replay/apply_event.h"
#include "replay/judged.h"
#include "replay/model_config.h"
#include "replay/replay.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/static_rules.h"

namespace eevdf::replay {
namespace {

using model::KernelArith;
using model::fast::u64;
using Ref = model::Machine<KernelArith>;

// The reference's value modulo 2^64: the kernel's u64 (or the s64 bits).
u64 low64(const model::s128& v) { return static_cast<u64>(static_cast<model::u128>(v)); }

// Collects the first difference; names are built only then.
class Differ {
 public:
  // `what` is "cpu" or "task", `who` its number; `field` the state field.
  template <class R, class F>
  bool eq(const char* what, long long who, const char* field, const R& r, const F& f) {
    if (first_ || r == f) return !first_;
    first_ = Mismatch{0, 0, fmt::format("{} {} {}", what, who, field), fmt::format("{}", r), fmt::format("{}", f)};
    return false;
  }
  // A virtual time or an s64: the reference's value modulo 2^64.
  bool eq64(const char* what, long long who, const char* field, const model::s128& r, u64 f) {
    if (first_ || low64(r) == f) return !first_;
    first_ = Mismatch{0, 0, fmt::format("{} {} {}", what, who, field), KernelArith::to_string(r),
                      fmt::format("{} (mod 2^64: {})", f, low64(r))};
    return false;
  }
  std::optional<Mismatch> take() { return std::move(first_); }

 private:
  std::optional<Mismatch> first_;
};

int index_of_entity(const model::sched_entity<KernelArith>* se) {
  return se == nullptr ? -1 : se->task;
}

template <bool Simd>
void compare_rq(Differ& d, const Ref& ref, const model::fast::FastMachine<Simd>& fast, std::size_t c) {
  const auto& r = ref.rqs()[c];
  const auto& f = fast.rqs()[c];
  const long long cpu = static_cast<long long>(c);
  d.eq("cpu", cpu, "curr", r.curr == nullptr ? -1 : r.curr->se.task, f.curr);
  d.eq("cpu", cpu, "cfs curr", index_of_entity(r.cfs.curr), f.cfs_curr);
  d.eq("cpu", cpu, "next buddy", index_of_entity(r.cfs.next), f.next);
  d.eq("cpu", cpu, "need_resched", r.need_resched, f.need_resched);
  d.eq("cpu", cpu, "nr_running", r.nr_running, f.nr_running);
  d.eq("cpu", cpu, "nr_iowait", r.nr_iowait, f.nr_iowait);
  d.eq("cpu", cpu, "nr_iowait_acct", r.nr_iowait_acct, f.nr_iowait_acct);
  d.eq("cpu", cpu, "ever_enqueued", r.ever_enqueued, f.ever_enqueued);
  d.eq("cpu", cpu, "load_weight", r.cfs.load_weight, f.load_weight);
  d.eq("cpu", cpu, "nr_queued", r.cfs.nr_queued, f.nr_queued);
  d.eq("cpu", cpu, "h_nr_queued", r.cfs.h_nr_queued, f.h_nr_queued);
  d.eq("cpu", cpu, "h_nr_runnable", r.cfs.h_nr_runnable, f.h_nr_runnable);
  d.eq64("cpu", cpu, "avg_vruntime (sum of key*w)", r.cfs.avg_vruntime, static_cast<u64>(f.avg_vruntime));
  d.eq("cpu", cpu, "avg_load", r.cfs.avg_load, f.avg_load);
  d.eq64("cpu", cpu, "min_vruntime (v0)", r.cfs.min_vruntime, f.min_vruntime);
  d.eq("cpu", cpu, "tree size", r.cfs.timeline.size(), static_cast<std::size_t>(f.lanes.n));
  d.eq("cpu", cpu, "tree_seq_next", r.cfs.tree_seq_next, f.tree_seq_next);
  std::size_t k = 0;  // the fast model's lanes are kept in the tree's order
  for (const auto* se : r.cfs.timeline)
    if (k < static_cast<std::size_t>(f.lanes.n))
      d.eq("cpu", cpu, "tree order (task index by lane)", se->task, f.lanes.task()[k++]);
  if (r.ever_enqueued) d.eq64("cpu", cpu, "V (avg_vruntime)", ref.avg_vruntime_of(static_cast<int>(c)), fast.avg_vruntime_of(static_cast<int>(c)));
}

template <bool Simd>
void compare_task(Differ& d, const Ref& ref, const model::fast::FastMachine<Simd>& fast, std::size_t i) {
  const auto& rt = ref.tasks()[i];
  const auto& rs = rt.se;
  const auto& ft = fast.tasks()[i];
  const auto& fs = fast.entities()[i];
  const long long id = rt.id;
  d.eq("task", id, "state", static_cast<int>(ref.state_of(rt)), static_cast<int>(fast.state_of(static_cast<int>(i))));
  d.eq("task", id, "cpu", rt.cpu, ft.cpu);
  d.eq("task", id, "p->on_rq", rt.on_rq, ft.on_rq);
  d.eq("task", id, "in_iowait", rt.in_iowait, ft.in_iowait);
  d.eq("task", id, "in_iowait_acct", rt.in_iowait_acct, ft.in_iowait_acct);
  d.eq("task", id, "nice", rt.nice, fs.nice);
  d.eq("task", id, "weight", rs.load.weight, model::fast::full_weight_of(fs.nice));
  d.eq64("task", id, "vruntime", rs.vruntime, fs.vruntime);
  d.eq64("task", id, "deadline", rs.deadline, fs.deadline);
  d.eq64("task", id, "vlag", rs.vlag, static_cast<u64>(fs.vlag));
  d.eq64("task", id, "vprot", rs.vprot, fs.vprot);
  d.eq("task", id, "slice", rs.slice, fs.slice);
  d.eq("task", id, "custom_slice", rs.custom_slice, fs.custom_slice);
  d.eq("task", id, "se.on_rq", rs.on_rq, fs.on_rq);
  d.eq("task", id, "sched_delayed", rs.sched_delayed, fs.sched_delayed);
  d.eq("task", id, "rel_deadline", rs.rel_deadline, fs.rel_deadline);
  d.eq("task", id, "exec_start", rs.exec_start, fs.exec_start);
  d.eq("task", id, "sum_exec_runtime", rs.sum_exec_runtime, fs.sum_exec_runtime);
  d.eq("task", id, "prev_sum_exec_runtime", rs.prev_sum_exec_runtime, fs.prev_sum_exec_runtime);
  if (rs.on_rq) {
    d.eq("task", id, "eligible", ref.eligible(rt), fast.eligible(static_cast<int>(i)));
    d.eq("task", id, "protected", ref.protected_slice(rt), fast.protected_slice(static_cast<int>(i)));
  }
  const auto& cfs = ref.rqs()[static_cast<std::size_t>(rt.cpu)].cfs;
  const bool in_tree = rs.on_rq && cfs.curr != &rs;
  const int slot = fast.tree_slot(static_cast<int>(i));
  d.eq("task", id, "in the tree", in_tree, slot >= 0);
  if (!in_tree || slot < 0) return;
  const auto& lanes = fast.rqs()[static_cast<std::size_t>(ft.cpu)].lanes;
  const std::size_t k = static_cast<std::size_t>(slot);
  d.eq("task", id, "tree insertion sequence", rs.tree_seq, fs.tree_seq);
  d.eq64("task", id, "tree deadline", rs.tree_deadline, lanes.deadline()[k]);
  d.eq64("task", id, "tree vruntime", rs.tree_vruntime, lanes.vruntime()[k]);
  d.eq("task", id, "tree slice", rs.tree_slice, fs.slice);  // a queued entity's slice stays
}

// The reference's first overflow report of the last event: its CPU (-1: none) and
// expression.
struct OverflowSeen {
  int cpu = -1;
  std::string expression;
};

OverflowSeen first_overflow(const Ref& m) {
  for (const auto& rq : m.rqs())
    if (!rq.cfs.overflow.empty()) return {rq.cpu, std::string(rq.cfs.overflow.events().front().expression)};
  return {};
}

}  // namespace

std::string Mismatch::message() const {
  return fmt::format("line {} (event {}): {}: reference {}, fast {}", line, event, field, reference, fast);
}

template <bool Simd>
std::optional<Mismatch> compare_state(const Ref& reference, const model::fast::FastMachine<Simd>& fast) {
  Differ d;
  d.eq("machine", 0, "now", reference.now(), fast.now());
  for (std::size_t c = 0; c < reference.rqs().size(); ++c) compare_rq(d, reference, fast, c);
  for (std::size_t i = 0; i < reference.tasks().size(); ++i) compare_task(d, reference, fast, i);
  return d.take();
}

template <bool Simd>
auto FastDiff<Simd>::overflow_step(bool reference_overflowed, bool fast_overflowed) -> Step {
  if (reference_overflowed && fast_overflowed) return Step::overflow;
  if (reference_overflowed || fast_overflowed) return Step::mismatch;
  return Step::same;
}

template <bool Simd>
FastDiff<Simd>::FastDiff(const model::Config& config, const std::vector<model::TaskSpec>& specs)
    : reference_(config, specs), fast_(config, specs) {}

template <bool Simd>
auto FastDiff<Simd>::FastDiff::apply(const trace::Event& e) -> Step {
  ++events_;
  // A condition the kernel dies on (KernelWarn) ends both models' runs: they must
  // meet the same one in the same event.
  std::string r, f, r_died, f_died;
  try {
    r = apply_event(reference_, e);
  } catch (const KernelWarn& w) {
    r_died = w.what();
  }
  try {
    f = apply_event(fast_, e);
  } catch (const KernelWarn& w) {
    f_died = w.what();
  }
  (void)reference_.take_warnings();  // the warnings the kernel goes on after: the reference's report alone
  const auto fail = [&](Mismatch m) {
    m.line = e.line;
    m.event = events_;
    mismatch_ = std::move(m);
    return Step::mismatch;
  };
  if (r_died != f_died)
    return fail({0, 0, "kernel_warn", r_died.empty() ? "none" : r_died, f_died.empty() ? "none" : f_died});
  if (!r_died.empty()) {
    died_ = r_died;
    return Step::kernel_warn;
  }
  if (r != f) return fail({0, 0, "legality of the event", r.empty() ? "legal" : r, f.empty() ? "legal" : f});
  if (!r.empty()) {
    illegal_ = r;
    return Step::illegal;
  }
  const OverflowSeen seen = first_overflow(reference_);
  fast_saw_overflow_ = false;
  for (const auto& rq : fast_.rqs()) fast_saw_overflow_ |= rq.overflows != 0;
  switch (overflow_step(seen.cpu >= 0, fast_saw_overflow_)) {
    case Step::overflow: return Step::overflow;
    case Step::mismatch:
      if (seen.cpu >= 0) return fail({0, 0, fmt::format("cpu {} overflow", seen.cpu), seen.expression, "none"});
      for (const auto& rq : fast_.rqs())
        if (rq.overflows != 0) return fail({0, 0, fmt::format("cpu {} overflow", rq.cpu), "none", rq.first_overflow});
      EEVDF_UNREACHABLE("the fast model reported an overflow on no CPU");
    case Step::same: break;
    case Step::illegal:
    case Step::kernel_warn: EEVDF_UNREACHABLE("overflow_step answers overflow, mismatch or same");
  }
  if (std::optional<Mismatch> m = compare_state(reference_, fast_)) return fail(std::move(*m));
  return Step::same;
}

template std::optional<Mismatch> compare_state<false>(const Ref&, const model::fast::FastMachine<false>&);
template std::optional<Mismatch> compare_state<true>(const Ref&, const model::fast::FastMachine<true>&);
template class FastDiff<false>;
template class FastDiff<true>;

}  // namespace eevdf::replay

// ---- `replay --diff` ----

namespace eevdf::replay {
namespace {

// Runs one build over the events and prints what it found; true when the build
// differs from the reference (before any overflow of the reference).
template <bool Simd>
bool build_differs(const trace::Header& header, const std::vector<trace::Event>& events, const Options& options,
                   const std::string& file, std::ostream& out) {
  const char* build = Simd ? "SIMD" : "scalar";
  FastDiff<Simd> diff(make_config(header, options, file), make_task_specs(header));
  using Step = typename FastDiff<Simd>::Step;
  for (const trace::Event& e : events) {
    switch (diff.apply(e)) {
      case Step::same: continue;
      case Step::illegal: throw trace::TraceError({file, e.line, e.column}, diff.illegal_reason());
      case Step::mismatch:
        out << fmt::format("{}:{}: fast_matches_reference: the {} build differs from the reference at {}\n", file,
                           e.line, build, diff.mismatch().message());
        return true;
      case Step::overflow:
        out << fmt::format("{}:{}: the reference and the {} build both report an overflow (no_overflow); compared "
                           "{} events up to here\n",
                           file, e.line, build, diff.events());
        return false;
      case Step::kernel_warn:
        out << fmt::format("{}:{}: the reference and the {} build both stop at kernel_warn: {}; compared {} events "
                           "up to here\n",
                           file, e.line, build, diff.kernel_warn(), diff.events());
        return false;
    }
  }
  out << fmt::format("{}: the {} build matches the reference ({} events)\n", file, build, diff.events());
  return false;
}

}  // namespace

Outcome replay_diff(std::istream& in, const std::string& file, const Options& options, std::ostream& out,
                    std::ostream& err) {
  return guarded(file, err, [&] {
    trace::TraceReader reader(in, file, vocabulary());
    require_judged(options, reader.header(), trace::Arith::kernel, file);
    trace::StaticRules rules(file);
    std::vector<trace::Event> events;
    while (auto statement = reader.next())
      if (const trace::Event* e = std::get_if<trace::Event>(&*statement)) {
        rules.check(*e);
        events.push_back(*e);
      }
    if (reader.header().kernel.value_or("6.18") != "6.18")
      throw trace::TraceError({file, 0, 0}, "the fast model implements the `kernel 6.18` profile only; "
                                            "`replay --diff=kernel-src` compares a `kernel 6.12` trace");
    const bool scalar = build_differs<false>(reader.header(), events, options, file, out);
    const bool simd_runs = model::fast::simd_runs_here();
    if (!simd_runs)
      out << fmt::format("{}: the SIMD build ({}) is not compared: this CPU cannot run it\n", file,
                         model::fast::simd_isa());
    const bool simd = simd_runs && build_differs<true>(reader.header(), events, options, file, out);
    // `expect violation fast_matches_reference` (a shrunk mismatch kept as a record):
    // met when either build differs (run cross-checks the SIMD build alone).
    const auto& listed = reader.header().expect_violations;
    if (std::find(listed.begin(), listed.end(), "fast_matches_reference") == listed.end())
      return scalar || simd ? Outcome::failed : Outcome::clean;
    if (scalar || simd) {
      out << fmt::format("{}: ok (fast_matches_reference violated, as expected)\n", file);
      return Outcome::clean;
    }
    out << fmt::format("{}: FAILED: expected fast_matches_reference to be violated\n", file);
    return Outcome::failed;
  });
}

}  // namespace eevdf::replay
