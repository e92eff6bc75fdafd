// The replay engine over the reference model: the primary arithmetic drives the
// trace; an optional shadow in the other arithmetic answers `lag` / `ideal.lag`
// queries (TRACE_FORMAT.md, Expectations). Overflows become no_overflow reports.
#include <fmt/format.h>

#include <memory>
#include <set>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "replay/apply_event.h"
#include "replay/engine.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::replay {
namespace {

using KernelMachine = model::Machine<model::KernelArith>;
using IdealMachine = model::Machine<model::IdealArith>;

struct Violation {
  std::string property;
  std::string message;
};

// Counted, not kept: a long trace may violate a property at every event, and a
// replay's memory must not grow with the trace.

class ModelEngine final : public Engine {
 public:
  explicit ModelEngine(const EngineSetup& s)
      : header_(s.header), options_(s.options), arith_(s.arith), file_(s.file), out_(s.out),
        summary_(s.options.dump != Dump::none ? s.err : s.out) {
    const model::Config config = make_config(header_, options_, file_);
    const auto specs = make_task_specs(header_);
    if (arith_ == trace::Arith::kernel || s.shadow) kernel_ = std::make_unique<KernelMachine>(config, specs);
    if (arith_ == trace::Arith::ideal || s.shadow) ideal_ = std::make_unique<IdealMachine>(config, specs);
  }

  bool apply(const trace::Event& e) override {
    const std::string reason = primary_kernel() ? apply_event(*kernel_, e) : apply_event(*ideal_, e);
    if (!reason.empty()) throw trace::TraceError({file_, e.line, e.column}, reason);
    apply_shadow(e);
    if (kernel_) collect_overflows(e);
    if (options_.dump != Dump::none) dump(e);
    return violations_ == 0 || header_.has_trace_expectations();
  }

  void expect(const trace::Expect& x) override {
    ++expectations_;
    if (x.query == trace::Query::measure)
      throw trace::TraceError({file_, x.line, 0}, "measure `" + x.measure + "` is not implemented yet",
                              "measures arrive with the property checker");
    const bool wants_kernel = x.query == trace::Query::lag || (x.query != trace::Query::ideal_lag && primary_kernel());
    if (wants_kernel != primary_kernel() && shadow_diverged_line_ != 0) {
      fail(x, fmt::format("shadow diverged at line {}", shadow_diverged_line_));
      return;
    }
    if ((wants_kernel && !kernel_) || (!wants_kernel && !ideal_)) {
      fail(x, "no shadow model in the other arithmetic (input not seekable)");
      return;
    }
    const QueryResult r = wants_kernel ? evaluate(*kernel_, x) : evaluate(*ideal_, x);
    if (!r.ok) fail(x, "got " + r.actual);
  }

  Outcome finish(std::uint64_t events) override {
    const bool props_ok = trace_expectations_hold();
    const bool ok = props_ok && failed_expectations_ == 0;
    summary_ << fmt::format("{}: {} ({} arithmetic, {} events, {} expectations, {} violations)\n", file_,
                            ok ? "ok" : "FAILED", trace::arith_name(arith_), events, expectations_,
                            violations_);
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  bool primary_kernel() const { return arith_ == trace::Arith::kernel; }

  void apply_shadow(const trace::Event& e) {
    const bool has_shadow = primary_kernel() ? ideal_ != nullptr : kernel_ != nullptr;
    if (!has_shadow || shadow_diverged_line_ != 0) return;
    const std::string reason = primary_kernel() ? apply_event(*ideal_, e) : apply_event(*kernel_, e);
    if (!reason.empty()) shadow_diverged_line_ = e.line;
  }

  void collect_overflows(const trace::Event& e) {
    const bool kernel_is_shadow = !primary_kernel();
    for (int cpu = 0; cpu < static_cast<int>(kernel_->rqs().size()); ++cpu) {
      for (const model::OverflowEvent& o : kernel_->drain_overflows(cpu)) {
        if (kernel_is_shadow) continue;  // no_overflow is a kernel-arithmetic property
        report({"no_overflow", fmt::format("{}:{}: no_overflow at t={} on CPU {}: {} = {} does not fit 64 bits", file_,
                                           e.line, e.time_ns, cpu, o.expression,
                                           model::KernelArith::to_string(o.exact))});
      }
    }
  }

  void report(const Violation& v) {
    const bool first_of_kind = violated_.insert(v.property).second;
    if (first_of_kind || !header_.has_trace_expectations()) out_stream() << v.message << "\n";
    ++violations_;
  }

  bool trace_expectations_hold() {
    if (!header_.has_trace_expectations()) return violations_ == 0;
    bool ok = true;
    for (const std::string& p : header_.expect_violations) {
      if (violated_.count(p) == 0) {
        summary_ << fmt::format("{}: expected a violation of {}, but it held\n", file_, p);
        ok = false;
      }
    }
    for (const std::string& p : violated_) {
      const bool listed = std::find(header_.expect_violations.begin(), header_.expect_violations.end(), p) !=
                          header_.expect_violations.end();
      if (!listed) {
        summary_ << fmt::format("{}: unexpected violation of {}\n", file_, p);
        ok = false;
      }
    }
    return ok;
  }

  void fail(const trace::Expect& x, const std::string& why) {
    ++failed_expectations_;
    out_stream() << fmt::format("{}:{}: {}: {}\n", file_, x.line, trace::format_expect(x), why);
  }

  std::ostream& out_stream() { return options_.dump != Dump::none ? summary_ : out_; }

  void dump(const trace::Event& e) {
    const bool all = options_.dump == Dump::full;
    const std::string event = trace::format_event(e);
    const auto json = kernel_ ? dump_state(*kernel_, e.line, event, all) : dump_state(*ideal_, e.line, event, all);
    out_ << json.dump() << "\n";
  }

  const trace::Header& header_;
  const Options& options_;
  trace::Arith arith_;
  const std::string& file_;
  std::ostream& out_;
  std::ostream& summary_;
  std::unique_ptr<KernelMachine> kernel_;
  std::unique_ptr<IdealMachine> ideal_;
  int shadow_diverged_line_ = 0;
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_expectations_ = 0;
  std::uint64_t violations_ = 0;
  std::set<std::string> violated_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(const EngineSetup& setup) { return std::make_unique<ModelEngine>(setup); }

}  // namespace eevdf::replay
