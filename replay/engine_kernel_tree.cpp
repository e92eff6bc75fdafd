// `replay --model=kernel-src` on a tree of `--kernel-tree` (engines.h): the tree's own
// fair.c drives the trace and answers its queries and the dump; the properties judge
// it through its mirror (kernel_src_tree_run.h), by the forms of the trace's profile,
// which must be the tree's (its shape's: a 6.12-shaped tree runs `kernel 6.12` traces,
// a vprot tree `kernel 6.18`). No reference runs beside it and kernel_matches_reference
// is not judged: what the mirror does not see (judging.h) is not judged at all.
#include <fmt/format.h>

#include <memory>

#include "kernel_src/tree_build.h"
#include "model/features.h"
#include "model/profiles.h"
#include "properties/judging.h"
#include "replay/engines.h"
#include "replay/finding_conditions.h"
#include "replay/kernel_src_tree_run.h"
#include "replay/model_config.h"
#include "replay/query_kernel_src.h"
#include "replay/runqueue_dump_kernel_src.h"
#include "replay/violations.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::replay {
namespace {

// What the tree cannot run is refused with exit 2, saying why.
void require_tree_runnable(const EngineSetup& s, const model::Config& config) {
  if (const std::string why = why_tree_not_runnable(s.header, config); !why.empty())
    throw trace::TraceError({s.file, 0, 0}, why,
                            "draw traces for this tree with `eevdf-check run --kernel-tree DIR`; drop injections and "
                            "RUN_TO_PARITY_WAKEUP");
}

class KernelTreeEngine final : public Engine {
 public:
  explicit KernelTreeEngine(const EngineSetup& s)
      : s_(s), summary_(s.options.dump != Dump::none ? s.err : s.out),
        log_(s.file, s.header, s.options.keep_going, summary_) {
    config_ = make_config(s.header, s.options, s.file);
    std::string forms;
    try {
      forms = selected_tree_forms();
    } catch (const UnknownShape& e) {
      throw trace::TraceError({s.file, 0, 0}, e.what(), "this tree's shape needs its forms in replay/kernel_src_mirror.cpp");
    }
    require_tree_runnable(s, config_);
    require_applicable(s, forms);
    properties::Judging judging;
    judging.profile = forms == model::profile_6_12::name ? model::profile_6_12::name : model::profile_6_18::name;
    judging.kernel_src = true;
    judging.reference_lockstep = false;
    judging.tree = selected_tree_traits();
    log_.judging(judging);
    causes_.note_header(s.header, config_);
    run_ = std::make_unique<KernelSrcTreeRun>(config_, make_task_specs(s.header), &log_,
                                              properties::Selection{s.options.check, s.options.skip});
  }

  bool apply(const trace::Event& e) override {
    if (!run_->oops().empty()) return false;
    causes_.note(e, config_);
    const std::string reason = run_->apply(e);
    if (!reason.empty()) throw trace::TraceError({s_.file, e.line, e.column}, "kernel-src refused the event: " + reason);
    for (const properties::Violation& v : run_->take_kernel_warns()) log_.violation(v);
    dump_first_runqueue(&e);
    if (s_.options.dump != Dump::none && run_->oops().empty())
      s_.out << dump_kernel_src(run_->kernel_src(), e.line, trace::format_event(e), s_.options.dump == Dump::full).dump()
             << "\n";
    return run_->oops().empty() && !log_.must_stop();
  }

  void expect(const trace::Expect& x) override {
    ++expectations_;
    const QueryResult r = x.query == trace::Query::measure ? measure(x) : evaluate_kernel_src(run_->kernel_src(), x);
    if (r.ok) return;
    ++failed_;
    summary_ << fmt::format("{}:{}: {}: got {}\n", s_.file, x.line, trace::format_expect(x), r.actual);
  }

  Outcome finish(std::uint64_t events) override {
    run_->finish();
    dump_first_runqueue(nullptr);
    const auto measure = [this](std::string_view name, std::string& num, std::string& den) {
      return run_->measure(name, num, den);
    };
    const auto missing = [&](std::string_view finding) {
      return finding_missing(finding, {log_.tagged(), measure, causes_, config_});
    };
    const bool ok = log_.expectations_hold(summary_, missing) && failed_ == 0;
    summary_ << fmt::format("{}: {} (kernel-src {} from {}, {} events, {} expectations, {} violations, {} kernel "
                            "warnings; the properties judged on the tree alone{})\n",
                            s_.file, ok ? "ok" : "FAILED", kernel_src::selected_version(), kernel_src::selected_dir(),
                            events, expectations_, log_.total(), run_->kernel_src().warnings(),
                            run_->oops().empty() ? "" : ", up to its crash");
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  void dump_first_runqueue(const trace::Event* e) {
    if (dumped_ || !log_.first() || !run_->oops().empty()) return;
    dumped_ = true;
    const kernel_src::Machine& k = run_->kernel_src();
    const int cpu = replay::report_cpu(log_.first()->cpu, log_.first()->task, e, [&](int id) {
      const int p = k.task_index(id);
      return p < 0 ? -1 : k.task(p).cpu;
    });
    if (cpu >= 0 && cpu < k.ncpus()) summary_ << format_runqueue(runqueue_dump(k, cpu));
  }

  QueryResult measure(const trace::Expect& x) const {
    std::string num, den;
    if (!run_->measure(x.measure, num, den)) return {false, "measure not available in this selection"};
    return compare_measure(x, Rational(num + "/" + den));
  }

  const EngineSetup s_;
  std::ostream& summary_;
  ViolationLog log_;
  model::Config config_;
  FindingCauses causes_;
  std::unique_ptr<KernelSrcTreeRun> run_;
  bool dumped_ = false;
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_kernel_tree_engine(const EngineSetup& setup) {
  return std::make_unique<KernelTreeEngine>(setup);
}

}  // namespace eevdf::replay
