// The kernel-src engines (engines.h): the real 6.12 fair.c of kernel_src/ with the
// properties judged on it where it shows them what they read, the rest on the
// reference's 6.12 profile in lockstep (`replay --model=kernel-src`: expectations, the
// same JSON dump as the reference, every property and kernel_matches_reference), and
// beside the reference alone (`replay
// --diff=kernel-src`: kernel_matches_reference after every event, nothing else). Both accept only what the real code
// can run: `kernel 6.12`, no injection, no RUN_TO_PARITY_WAKEUP.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/arith_kernel.h"
#include "model/profiles.h"
#include "properties/findings.h"
#include "replay/apply_event.h"
#include "replay/checked_run.h"
#include "replay/engines.h"
#include "replay/finding_conditions.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "replay/violations.h"
#include "trace/error.h"
#include "trace/writer.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/compare.h"
#include "kernel_src/hooks.h"
#include "kernel_src/machine.h"
#include "kernel_src/tree_build.h"
#include "replay/kernel_src_lockstep.h"
#include "replay/query_kernel_src.h"
#include "replay/runqueue_dump_kernel_src.h"
#include "replay/runqueue_dump_model-inl.h"
#endif

namespace eevdf::replay {

#ifdef EEVDF_HAVE_KERNEL_SRC
namespace {

using kernel_src::Machine;

// What the real code cannot run is refused with exit 2, saying why.
void require_runnable(const EngineSetup& s, const model::Config& config) {
  if (const auto no = KernelSrcLockstep::why_not_runnable(s.header, config))
    throw trace::TraceError({s.file, 0, 0}, no->reason, no->hint);
}

// The runqueue a report dumps, for the first violation `where` after `e` (nullptr: at
// the start or the end of the trace) on kernel-src: the violation's CPU; for a
// difference, the first CPU whose runqueues differ.
int report_cpu(const KernelSrcLockstep& lock, const ViolationLog::Where& where, const trace::Event* e) {
  const Machine& k = lock.kernel_src();
  if (!lock.difference().empty())
    for (int cpu = 0; cpu < k.ncpus(); ++cpu)
      if (!first_runqueue_difference(runqueue_dump(lock.reference().machine(), cpu), runqueue_dump(k, cpu), "reference",
                                     "kernel-src")
               .empty())
        return cpu;
  return replay::report_cpu(where.cpu, where.task, e, [&](int id) {
    const int p = k.task_index(id);
    return p < 0 ? -1 : k.task(p).cpu;
  });
}

// kernel-src's runqueue of `cpu`, and the reference's beside it when they differ.
void print_runqueues(std::ostream& out, const KernelSrcLockstep& lock, int cpu) {
  if (cpu < 0 || cpu >= lock.kernel_src().ncpus()) return;
  out << format_runqueue(runqueue_dump(lock.kernel_src(), cpu));
  if (!lock.difference().empty()) out << format_runqueue(runqueue_dump(lock.reference().machine(), cpu));
}

// `replay --model=kernel-src`: kernel-src drives the trace and answers its state
// queries and the dump; the properties of properties/kernel_src_judged.h judge the
// real code (its mirror, replay/kernel_src_mirror.h), the others run on the
// reference's 6.12 profile in lockstep (kernel arithmetic), and kernel_matches_reference
// is judged after every event. While it holds, the two agree on every state field and
// decision, so a verdict on the reference is the real code's up to that event
// (docs/PROPERTIES.md); at the first difference the replay stops there, the difference
// reported as a violation of kernel_matches_reference.
class KernelSrcEngine final : public Engine {
 public:
  explicit KernelSrcEngine(const EngineSetup& s)
      : s_(s), summary_(s.options.dump != Dump::none ? s.err : s.out),
        log_(s.file, s.header, s.options.keep_going, summary_) {
    config_ = make_config(s.header, s.options, s.file);
    const model::Config& config = config_;
    require_runnable(s, config);
    require_applicable(s, "6.12");
    properties::Judging judging;  // the 6.12 properties in the kernel arithmetic, and the differential
    judging.profile = model::profile_6_12::name;
    judging.system = {"kernel_matches_reference"};
    judging.kernel_src = judging.reference_lockstep = true;
    log_.judging(judging);
    causes_.note_header(s.header, config_);
    lock_ = std::make_unique<KernelSrcLockstep>(config, make_task_specs(s.header), &log_,
                                                properties::Selection{s.options.check, s.options.skip});
    judge(0, 0);
  }

  bool apply(const trace::Event& e) override {
    if (!difference_.empty()) return false;
    causes_.note(e, config_);
    const std::string reason = lock_->apply(e);
    if (!reason.empty()) throw trace::TraceError({s_.file, e.line, e.column}, reason);
    judge(e.line, e.time_ns);
    dump_first_runqueue(&e);
    if (s_.options.dump != Dump::none && lock_->oops().empty())
      s_.out << dump_kernel_src(lock_->kernel_src(), e.line, trace::format_event(e), s_.options.dump == Dump::full).dump()
             << "\n";
    return difference_.empty() && !log_.must_stop();
  }

  void expect(const trace::Expect& x) override {
    ++expectations_;
    const QueryResult r = x.query == trace::Query::measure ? measure(x) : evaluate_kernel_src(lock_->kernel_src(), x);
    if (r.ok) return;
    ++failed_;
    summary_ << fmt::format("{}:{}: {}: got {}\n", s_.file, x.line, trace::format_expect(x), r.actual);
  }

  Outcome finish(std::uint64_t events) override {
    lock_->finish();
    dump_first_runqueue(nullptr);
    const auto measure = [this](std::string_view name, std::string& num, std::string& den) {
      return difference_.empty() && lock_->measure(name, num, den);
    };
    const auto missing = [&](std::string_view finding) {
      return finding_missing(finding, {log_.tagged(), measure, causes_, config_});
    };
    const bool ok = log_.expectations_hold(summary_, missing) && failed_ == 0;
    summary_ << fmt::format("{}: {} (kernel-src {}, {} events, {} expectations, {} violations, {} kernel warnings; "
                            "properties on kernel-src, the rest on the 6.12 reference in lockstep{})\n",
                            s_.file, ok ? "ok" : "FAILED", kernel_src::kernel_version(), events, expectations_,
                            log_.total(), lock_->kernel_src().warnings(),
                            difference_.empty() ? "" : fmt::format(" up to line {}", line_));
    return ok ? Outcome::clean : Outcome::failed;
  }

 private:
  // kernel_warn: the real code's warnings and crash (the null pick after an overflow is
  // the known finding), reported as they come; a crash stops the replay there.
  // kernel_matches_reference: a difference is its violation; past an s64 overflow, a
  // consequence of it.
  void judge(int line, std::uint64_t time_ns) {
    for (const properties::Violation& v : lock_->take_kernel_warns()) log_.violation(v);
    if (lock_->agree()) return;
    line_ = line;
    if (!lock_->oops().empty()) {
      difference_ = "the kernel code crashed: " + lock_->oops();
      return;
    }
    difference_ = lock_->difference();
    properties::Violation v;
    v.property = "kernel_matches_reference";
    v.line = line;
    v.time_ns = time_ns;
    v.values = difference_;
    v.explanation = fmt::format("the reference's 6.12 profile and kernel-src {} disagree after this event; the "
                                "property verdicts hold up to the event before (replay --diff=kernel-src {})",
                                kernel_src::kernel_version(), s_.file);
    v.consequence = lock_->overflow_line() != 0;
    log_.violation(v);
  }

  // The runqueue of the first violation's CPU, once, after its event (not past a crash:
  // the real code's state is then the one it died in).
  void dump_first_runqueue(const trace::Event* e) {
    if (dumped_ || !log_.first() || !lock_->oops().empty()) return;
    dumped_ = true;
    print_runqueues(summary_, *lock_, report_cpu(*lock_, *log_.first(), e));
  }

  // A measure is the reference's, valid while kernel_matches_reference holds.
  QueryResult measure(const trace::Expect& x) const {
    if (!difference_.empty())
      return {false, (lock_->oops().empty() ? "kernel_matches_reference failed" : "kernel-src crashed") +
                         std::string(" at line ") + std::to_string(line_)};
    std::string num, den;
    if (!lock_->measure(x.measure, num, den)) return {false, "measure not available in this selection"};
    return compare_measure(x, Rational(num + "/" + den));
  }

  const EngineSetup s_;
  std::ostream& summary_;
  ViolationLog log_;
  model::Config config_;
  FindingCauses causes_;  // for `expect finding` of a measure
  std::unique_ptr<KernelSrcLockstep> lock_;
  std::string difference_;
  int line_ = 0;
  bool dumped_ = false;  // the first violation's runqueue
  std::uint64_t expectations_ = 0;
  std::uint64_t failed_ = 0;
};

// kernel_matches_reference: both implementations take every event, then every state
// field is compared; the first difference ends the replay (exit 1).
class DiffEngine final : public Engine {
 public:
  explicit DiffEngine(const EngineSetup& s) : s_(s) {
    const model::Config config = make_config(s.header, s.options, s.file);
    require_runnable(s, config);
    // Only kernel_matches_reference is judged here; the trace's other expectations
    // are the plain replays' (reference and --model=kernel-src).
    const auto& listed = s.header.expect_violations;
    expected_ = std::find(listed.begin(), listed.end(), "kernel_matches_reference") != listed.end();
    const auto& findings = s.header.expect_findings;  // a crash of the real code that is the known finding
    expected_null_pick_ = std::find(findings.begin(), findings.end(),
                                    properties::known_finding("kernel-src-null-pick-after-overflow")) != findings.end();
    lock_ = std::make_unique<KernelSrcLockstep>(config, make_task_specs(s.header));
    take_difference(0);
  }

  bool apply(const trace::Event& e) override {
    if (!difference_.empty()) return false;
    const std::string reason = lock_->apply(e);
    if (!reason.empty()) throw trace::TraceError({s_.file, e.line, e.column}, reason);
    take_difference(e.line);
    return difference_.empty();
  }

  void expect(const trace::Expect&) override {}  // the reference's own replay judges them

  Outcome finish(std::uint64_t events) override {
    const bool expected = expected_;  // `expect violation kernel_matches_reference`
    if (!lock_->oops().empty()) {  // kernel_warn, not a difference: the comparison ends at the crash
      const bool known = lock_->null_pick() && expected_null_pick_;
      s_.out << fmt::format("{}:{}: kernel_warn (kernel-src {}): {}\n", s_.file, line_, kernel_src::kernel_version(),
                            lock_->oops());
      s_.out << fmt::format("{}: {} (the comparison ends at the crash{}; {} events compared)\n", s_.file,
                            known && !expected ? "ok" : "FAILED",
                            known ? ", the known finding kernel-src-null-pick-after-overflow" : "", events);
      return known && !expected ? Outcome::clean : Outcome::failed;
    }
    if (expected && difference_.empty()) {
      s_.out << fmt::format("{}: FAILED: expected kernel_matches_reference to be violated; the reference's 6.12 "
                            "profile and kernel-src {} agree on all {} events\n",
                            s_.file, kernel_src::kernel_version(), events);
      return Outcome::failed;
    }
    if (!difference_.empty()) {
      s_.out << fmt::format("{}:{}: kernel_matches_reference violated (reference 6.12 profile vs kernel-src {}): {}\n",
                            s_.file, line_, kernel_src::kernel_version(), difference_);
      if (lock_->overflow_line() != 0)
        s_.out << fmt::format("  after the s64 overflow of line {}: past it the kernel's rbtree order under wrapped sums "
                              "is not the reference's exact one\n",
                              lock_->overflow_line());
      print_runqueues(s_.out, *lock_, report_cpu(*lock_, ViolationLog::Where{}, nullptr));
      s_.out << fmt::format("  replay: eevdf-check replay --diff=kernel-src {}\n", s_.file);
      if (expected) s_.out << fmt::format("{}: ok (kernel_matches_reference violated, as expected)\n", s_.file);
      return expected ? Outcome::clean : Outcome::failed;
    }
    s_.out << fmt::format("{}: ok (kernel_matches_reference: reference 6.12 profile = kernel-src {}, {} events)\n",
                          s_.file, kernel_src::kernel_version(), events);
    return Outcome::clean;
  }

 private:
  void take_difference(int line) {
    if (lock_->agree()) return;
    difference_ = lock_->oops().empty() ? lock_->difference() : "kernel_warn: the kernel code crashed: " + lock_->oops();
    line_ = line;
  }

  const EngineSetup s_;
  std::unique_ptr<KernelSrcLockstep> lock_;
  bool expected_ = false;
  bool expected_null_pick_ = false;  // `expect finding kernel-src-null-pick-after-overflow`
  std::string difference_;
  int line_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_kernel_src_engine(const EngineSetup& setup) {
  if (!kernel_src::selected_dir().empty()) return make_kernel_tree_engine(setup);  // judged alone
  return std::make_unique<KernelSrcEngine>(setup);
}
std::unique_ptr<Engine> make_diff_engine(const EngineSetup& setup) { return std::make_unique<DiffEngine>(setup); }
bool have_kernel_src() { return true; }
std::string kernel_src_version() { return kernel_src::selected_version(); }
std::string builtin_kernel_src_version() { return kernel_src::c::ksrc_get_api()->kernel_version; }

#else  // built without the kernel source package

namespace {
[[noreturn]] void missing(const EngineSetup& s) {
  throw trace::TraceError({s.file, 0, 0}, "this build has no kernel-src model (linux-source-6.12 was not installed)",
                          "run `bash ci/setup`, then configure and build again");
}
}  // namespace

std::unique_ptr<Engine> make_kernel_src_engine(const EngineSetup& setup) { missing(setup); }
std::unique_ptr<Engine> make_diff_engine(const EngineSetup& setup) { missing(setup); }
bool have_kernel_src() { return false; }
std::string kernel_src_version() { return "none"; }
std::string builtin_kernel_src_version() { return "none"; }

#endif

}  // namespace eevdf::replay
