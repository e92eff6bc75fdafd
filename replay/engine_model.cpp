// The replay engine over the reference model: the primary arithmetic drives the
// trace with the property checker installed; an optional shadow in the other
// arithmetic answers `lag` / `ideal.lag` queries (TRACE_FORMAT.md, Expectations).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/registry.h"
#include "replay/apply_event.h"
#include "replay/checked_run.h"
#include "replay/engine.h"
#include "replay/engines.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "replay/violations.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::replay {
namespace {

using model::IdealArith;
using model::KernelArith;

class ModelEngine final : public Engine {
 public:
  explicit ModelEngine(const EngineSetup& s)
      : header_(s.header), options_(s.options), arith_(s.arith), file_(s.file), out_(s.out),
        summary_(s.options.dump != Dump::none ? s.err : s.out),
        log_(s.file, s.header, s.options.keep_going, s.options.dump != Dump::none ? s.err : s.out) {
    const model::Config config = make_config(header_, options_, file_);
    const auto specs = make_task_specs(header_);
    const properties::Selection selection{options_.check, options_.skip};
    if (arith_ == trace::Arith::kernel) {
      kernel_ = std::make_unique<CheckedRun<KernelArith>>(config, specs, log_, selection);
      if (s.shadow) ideal_shadow_ = std::make_unique<model::Machine<IdealArith>>(config, specs);
    } else {
      ideal_ = std::make_unique<CheckedRun<IdealArith>>(config, specs, log_, selection);
      if (s.shadow) kernel_shadow_ = std::make_unique<model::Machine<KernelArith>>(config, specs);
    }
  }

  bool apply(const trace::Event& e) override {
    if (kernel_) run(*kernel_, e);
    else run(*ideal_, e);
    apply_shadow(e);
    if (options_.dump != Dump::none) dump(e);
    return !log_.must_stop();
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
    const bool ok = log_.expectations_hold(summary_) && failed_expectations_ == 0;
    summary_ << fmt::format("{}: {} ({} arithmetic, {} events, {} expectations, {} violations)\n", file_,
                            ok ? "ok" : "FAILED", trace::arith_name(arith_), events, expectations_, log_.total());
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  template <class A>
  void run(CheckedRun<A>& p, const trace::Event& e) {
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
    const Rational actual(num + "/" + den);
    const Rational expected = to_rational(x.rational);
    bool ok = false;
    switch (x.op) {
      case trace::CompareOp::lt: ok = actual < expected; break;
      case trace::CompareOp::le: ok = actual <= expected; break;
      case trace::CompareOp::eq: ok = actual == expected; break;
      case trace::CompareOp::ge: ok = actual >= expected; break;
      case trace::CompareOp::gt: ok = actual > expected; break;
    }
    if (!ok) fail(x, "got " + actual.str());
  }

  void fail(const trace::Expect& x, const std::string& why) {
    ++failed_expectations_;
    summary_ << fmt::format("{}:{}: {}: {}\n", file_, x.line, trace::format_expect(x), why);
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
  std::unique_ptr<CheckedRun<KernelArith>> kernel_;
  std::unique_ptr<CheckedRun<IdealArith>> ideal_;
  std::unique_ptr<model::Machine<IdealArith>> ideal_shadow_;
  std::unique_ptr<model::Machine<KernelArith>> kernel_shadow_;
  int shadow_diverged_line_ = 0;
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_expectations_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_reference_engine(const EngineSetup& setup) { return std::make_unique<ModelEngine>(setup); }

}  // namespace eevdf::replay
