// kernel_matches_reference, one event at a time (docs/PROPERTIES.md, whole system): the
// reference's 6.12 profile and kernel-src (the real 6.12 fair.c) take the same events;
// after each, every state field and this event's place_entity / pick_eevdf /
// reweight_entity calls must be equal. The one place that decides what a difference
// is, for `replay --model=kernel-src`, `replay --diff=kernel-src`, `run
// --model=kernel-src` and the shrinker. With a sink, the selected properties judge
// the real code where they can (its mirror, kernel_src_mirror.h; the set is
// properties/kernel_src_judged.h) and the others run on the reference in lockstep.
// Built only when the kernel source package was installed (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <memory>    // the models
#include <optional>  // why not runnable
#include <set>       // conditions reported
#include <string>    // differences
#include <vector>  // specs

#include "kernel_src/hooks.h"
#include "kernel_src/machine.h"
#include "model/arith_kernel.h"
#include "model/profiles.h"
#include "replay/checked_run.h"
#include "replay/kernel_src_mirror.h"

namespace eevdf::replay {

class KernelSrcLockstep {
 public:
  using Reference = CheckedRun<model::KernelArith, model::profile_6_12>;

  // The states are compared once at construction (line 0): difference() may already
  // be set. Without a sink no property runs on the reference.
  KernelSrcLockstep(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                    properties::Sink* sink = nullptr, const properties::Selection& selection = {});
  KernelSrcLockstep(const KernelSrcLockstep&) = delete;
  KernelSrcLockstep& operator=(const KernelSrcLockstep&) = delete;

  // Applies `e` to the reference, then (when it is legal there) to kernel-src, and
  // compares. Returns the reference's reason when it refuses the event (neither
  // model changed). Call only while agree().
  std::string apply(const trace::Event& e);

  // Why the real code cannot run a trace with this header and configuration (nullopt:
  // it can): it is `kernel 6.12` as it is, without injections or RUN_TO_PARITY_WAKEUP.
  struct NotRunnable {
    std::string reason;
    std::string hint;
  };
  static std::optional<NotRunnable> why_not_runnable(const trace::Header& header, const model::Config& config);

  bool agree() const { return difference_.empty() && oops_.empty(); }
  // The first difference ("" while they agree): a state field, a hook call, or a
  // refusal by kernel-src alone. A warning or crash of the real code is no difference:
  // it is a kernel_warn (take_kernel_warns).
  const std::string& difference() const { return difference_; }
  // Where the real code crashed ("": it did not; a NULL pick, a divide error); the
  // comparison stops there. The NULL pick after an overflow is the known finding
  // kernel-src-null-pick-after-overflow.
  const std::string& oops() const { return oops_; }
  // The kernel_warn violations of the real code since the last call, in order: a
  // SCHED_WARN_ON / WARN_ON_ONCE that fired (values "SCHED_WARN_ON(x) in fn", once per
  // condition; none when the reference reported a kernel_warn at the same event: one
  // report), and its crash (values the oops text; the lockstep stops there). `values`
  // is the condition alone, constant across traces (Target::condition).
  std::vector<properties::Violation> take_kernel_warns();
  // Whether oops() is that NULL pick (the known finding), not another crash.
  bool null_pick() const;
  // The line of the event after which the reference first reported an s64 overflow
  // (0: none). A difference after it is the overflow's consequence: past it the
  // kernel's rbtree order under wrapped sums is not the reference's exact one.
  int overflow_line() const { return overflow_line_; }

  // The end of the trace: both checkers' end-of-trace checks (the mirror's not after
  // a crash of the real code).
  void finish();
  // The properties judged on the real code (nullptr without a sink).
  const KernelSrcMirror* mirror() const { return mirror_.get(); }
  // A measure of either checker (false: no enabled property measures `name`).
  bool measure(std::string_view name, std::string& numerator, std::string& denominator) const;

  Reference& reference() { return *reference_; }
  const Reference& reference() const { return *reference_; }
  const kernel_src::Machine& kernel_src() const { return *kernel_src_; }

 private:
  // Where the reference's reports go when the caller wants none.
  class NoSink final : public properties::Sink {
   public:
    void violation(const properties::Violation&) override {}
    void measure(std::string_view, const std::string&, const std::string&) override {}
  };

  NoSink none_;
  std::unique_ptr<Reference> reference_;
  std::unique_ptr<kernel_src::Machine> kernel_src_;
  std::unique_ptr<kernel_src::HookLockstep> hooks_;  // placed / picked / reweighted of both
  std::unique_ptr<KernelSrcMirror> mirror_;          // declared after kernel_src_: removes its hooks first
  std::string difference_;
  std::string oops_;
  int overflow_line_ = 0;
  std::vector<properties::Violation> kernel_warns_;  // not yet taken
  std::set<std::string> warned_;                      // the warning conditions reported

};

}  // namespace eevdf::replay
