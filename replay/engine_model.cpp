// The replay engine over the reference model under the trace's profile (6.18, or
// `kernel 6.12`): the primary arithmetic drives the trace with the property checker
// installed (the checks in their profile forms, properties/profile_forms.h); an
// optional shadow in the other arithmetic answers `lag` / `ideal.lag` queries
// (docs/TRACE_FORMAT.md, Expectations).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/profiles.h"
#include "properties/registry.h"
#include "replay/apply_event.h"
#include "replay/checked_run.h"
#include "replay/engine.h"
#include "replay/engines.h"
#include "replay/finding_conditions.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "replay/runqueue_dump_model-inl.h"
#include "replay/violations.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::replay {
namespace {

using model::IdealArith;
using model::KernelArith;

template <class P>
class ModelEngine final : public Engine {
 public:
  explicit ModelEngine(const EngineSetup& s)
      : header_(s.header), options_(s.options), arith_(s.arith), file_(s.file), out_(s.out),
        summary_(s.options.dump != Dump::none ? s.err : s.out),
        log_(s.file, s.header, s.options.keep_going, s.options.dump != Dump::none ? s.err : s.out) {
    require_applicable(s, P::name);
    config_ = make_config(header_, options_, file_);
    const model::Config& config = config_;
    const auto specs = make_task_specs(header_);
    const properties::Selection selection{options_.check, options_.skip};
    properties::Judging judging;
    judging.profile = P::name;
    judging.kernel_arith = arith_ == trace::Arith::kernel;
    judging.ideal_arith = arith_ == trace::Arith::ideal;
    log_.judging(judging);
    causes_.note_header(header_, config_);
    if (arith_ == trace::Arith::kernel) {
      kernel_ = std::make_unique<CheckedRun<KernelArith, P>>(config, specs, log_, selection);
      if (s.shadow) ideal_shadow_ = std::make_unique<model::Machine<IdealArith, P>>(config, specs);
    } else {
      ideal_ = std::make_unique<CheckedRun<IdealArith, P>>(config, specs, log_, selection);
      if (s.shadow) kernel_shadow_ = std::make_unique<model::Machine<KernelArith, P>>(config, specs);
    }
  }

  bool apply(const trace::Event& e) override {
    causes_.note(e, config_);
    if (kernel_) run(*kernel_, e);
    else run(*ideal_, e);
    dump_first_runqueue(&e);
    apply_shadow(e);
    if (options_.dump != Dump::none) dump(e);
    const bool halted = kernel_ ? kernel_->halted() : ideal_->halted();  // a kernel_warn the model cannot pass
    return !log_.must_stop() && !halted;
  }

  void expect(const trace::Expect& x) override {
    ++expectations_;
    if (x.query == trace::Query::measure) return expect_measure(x);
    const bool wants_kernel = x.query == trace::Query::lag || (x.query != trace::Query::ideal_lag && kernel_);
    const auto* k = kernel_ ? &kernel_->machine() : kernel_shadow_.get();
    const auto* i = ideal_ ? &ideal_->machine() : ideal_shadow_.get();
    if ((wants_kernel && !kernel_ && shadow_diverged_line_) || (!wants_kernel && !ideal_ && shadow_diverged_line_))
      return fail(x, fmt::format("shadow diverged at line {}", shadow_diverged_line_));
    if ((wants_kernel && k == nullptr) || (!wants_kernel && i == nullptr))
      return fail(x, "no shadow model in the other arithmetic (input not seekable)");
    const QueryResult r = wants_kernel ? evaluate(*k, x) : evaluate(*i, x);
    if (!r.ok) fail(x, "got " + r.actual);
  }

  Outcome finish(std::uint64_t events) override {
    if (kernel_) kernel_->finish();
    else ideal_->finish();
    dump_first_runqueue(nullptr);  // a violation of the end-of-trace checks
    const auto measure = [this](std::string_view name, std::string& num, std::string& den) {
      return kernel_ ? kernel_->checker().measure(name, num, den) : ideal_->checker().measure(name, num, den);
    };
    const auto missing = [&](std::string_view finding) {
      return finding_missing(finding, {log_.tagged(), measure, causes_, config_});
    };
    const bool ok = log_.expectations_hold(summary_, missing) && failed_expectations_ == 0;
    const std::string profile = P::name == model::kDefaultProfile ? "" : fmt::format("profile {}, ", P::name);
    summary_ << fmt::format("{}: {} ({}{} arithmetic, {} events, {} expectations, {} violations)\n", file_,
                            ok ? "ok" : "FAILED", profile, trace::arith_name(arith_), events, expectations_,
                            log_.total());
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  template <class A>
  void run(CheckedRun<A, P>& p, const trace::Event& e) {
    const std::string reason = p.apply(e);
    if (!reason.empty()) throw trace::TraceError({file_, e.line, e.column}, reason);
  }

  void apply_shadow(const trace::Event& e) {
    if (shadow_diverged_line_ != 0) return;
    std::string reason;
    if (ideal_shadow_) reason = apply_event(*ideal_shadow_, e);
    if (kernel_shadow_) {
      reason = apply_event(*kernel_shadow_, e);
      kernel_shadow_->clear_overflows();  // no_overflow is judged on the primary only
    }
    if (!reason.empty()) shadow_diverged_line_ = e.line;
  }

  void expect_measure(const trace::Expect& x) {
    std::string num, den;
    const bool found = kernel_ ? kernel_->checker().measure(x.measure, num, den)
                               : ideal_->checker().measure(x.measure, num, den);
    if (!found) return fail(x, "measure not available in this arithmetic or selection");
    const QueryResult r = compare_measure(x, Rational(num + "/" + den));
    if (!r.ok) fail(x, "got " + r.actual);
  }

  void fail(const trace::Expect& x, const std::string& why) {
    ++failed_expectations_;
    summary_ << fmt::format("{}:{}: {}: {}\n", file_, x.line, trace::format_expect(x), why);
  }

  // The runqueue of the first violation's CPU, once, after the event it came at (the
  // kernel arithmetic only: its values are the kernel's).
  void dump_first_runqueue(const trace::Event* e) {
    if (dumped_ || !log_.first() || !kernel_) return;
    dumped_ = true;
    const auto& m = kernel_->machine();
    const int cpu = report_cpu(log_.first()->cpu, log_.first()->task, e, [&](int id) {
      const int p = m.task_index(id);
      return p < 0 ? -1 : m.tasks()[static_cast<std::size_t>(p)].cpu;
    });
    if (cpu >= 0) summary_ << format_runqueue(runqueue_dump(m, cpu));
  }

  void dump(const trace::Event& e) {
    const bool all = options_.dump == Dump::full;
    const std::string event = trace::format_event(e);
    const auto json = kernel_ ? dump_state(kernel_->machine(), e.line, event, all)
                              : dump_state(ideal_->machine(), e.line, event, all);
    out_ << json.dump() << "\n";
  }

  const trace::Header& header_;
  const Options& options_;
  trace::Arith arith_;
  const std::string& file_;
  std::ostream& out_;
  std::ostream& summary_;
  ViolationLog log_;
  model::Config config_;
  FindingCauses causes_;  // for `expect finding` of a measure
  std::unique_ptr<CheckedRun<KernelArith, P>> kernel_;
  std::unique_ptr<CheckedRun<IdealArith, P>> ideal_;
  std::unique_ptr<model::Machine<IdealArith, P>> ideal_shadow_;
  std::unique_ptr<model::Machine<KernelArith, P>> kernel_shadow_;
  int shadow_diverged_line_ = 0;
  bool dumped_ = false;  // the first violation's runqueue
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_expectations_ = 0;
};

}  // namespace

void require_applicable(const EngineSetup& s, std::string_view profile) {
  const auto refuse = [&](const std::string& name, const char* where) {
    const std::string why = properties::not_applicable(name, profile);
    if (!why.empty())
      throw trace::TraceError({s.file, 0, 0}, fmt::format("{} ({} under `kernel {}`)", why, where, profile),
                              "the catalogue lists each property's profiles: eevdf-check properties");
  };
  for (const std::string& p : s.options.check) refuse(p, "--check");
  for (const std::string& p : s.header.expect_violations) refuse(p, "expect violation");
}

std::unique_ptr<Engine> make_reference_engine(const EngineSetup& setup) {
  return std::make_unique<ModelEngine<model::profile_6_18>>(setup);
}
std::unique_ptr<Engine> make_profile_engine(const EngineSetup& setup) {
  EEVDF_ASSERT(setup.header.kernel == "6.12", "the only non-default profile is 6.12");
  return std::make_unique<ModelEngine<model::profile_6_12>>(setup);
}

}  // namespace eevdf::replay
