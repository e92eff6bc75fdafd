// See kernel_src_lockstep.h.
#include "replay/kernel_src_lockstep.h"

#include <fmt/format.h>

#include "kernel_src/compare.h"
#include "kernel_src/harness.h"
#include "model/features.h"
#include "model/profiles.h"
#include "properties/findings.h"
#include "properties/kernel_warn.h"
#include "replay/apply_event_kernel_src.h"

namespace eevdf::replay {

std::optional<KernelSrcLockstep::NotRunnable> KernelSrcLockstep::why_not_runnable(const trace::Header& header,
                                                                                   const model::Config& config) {
  const std::string profile = header.kernel.value_or(std::string(model::kDefaultProfile));
  if (profile != model::profile_6_12::name)
    return NotRunnable{fmt::format("kernel-src runs `kernel 6.12` traces; this one is `kernel {}`", profile),
                       fmt::format("kernel-src is {}", kernel_src::kernel_version())};
  if (!config.injections.none())
    return NotRunnable{"kernel-src runs the kernel as it is: injections are not available", "drop `inject` and --inject"};
  if (config.feat(model::Feature::RUN_TO_PARITY_WAKEUP))
    return NotRunnable{"kernel-src has no RUN_TO_PARITY_WAKEUP (an unmerged RFC)", "switch it off in the header"};
  return std::nullopt;
}

bool KernelSrcLockstep::null_pick() const { return oops_.starts_with(KSRC_OOPS_NULL_PICK); }

KernelSrcLockstep::KernelSrcLockstep(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                                     properties::Sink* sink, const properties::Selection& selection)
    // Without a sink, a selection of one name no check has: no property runs.
    : reference_(sink != nullptr
                     ? std::make_unique<Reference>(config, specs, *sink, reference_selection(selection))
                     : std::make_unique<Reference>(config, specs, none_,
                                                   properties::Selection{{"kernel_matches_reference"}, {}})),
      kernel_src_(std::make_unique<kernel_src::Machine>(config, specs)) {
  if (sink != nullptr)
    mirror_ = std::make_unique<KernelSrcMirror>(config, specs, *kernel_src_, *sink, selection);
  hooks_ = std::make_unique<kernel_src::HookLockstep>(reference_->machine(), reference_->checker_observer(),
                                                       *kernel_src_);
  reference_->set_front_observer(hooks_->observer());
  difference_ = kernel_src::first_difference(reference_->machine(), *kernel_src_);
}

std::vector<properties::Violation> KernelSrcLockstep::take_kernel_warns() {
  std::vector<properties::Violation> out;
  out.swap(kernel_warns_);
  return out;
}

std::string KernelSrcLockstep::apply(const trace::Event& e) {
  const std::uint64_t reference_warns = reference_->kernel_warns();
  const std::string reason = reference_->apply(e);
  if (!reason.empty()) {
    hooks_->take_difference();  // a refused event made no calls worth comparing
    return reason;
  }
  if (overflow_line_ == 0 && reference_->overflowed()) overflow_line_ = e.line;
  if (mirror_) {
    mirror_->taint(reference_->overflowed_cpus());  // no_overflow is the reference's
    mirror_->before(e);
  }
  const std::string k_reason = apply_event(*kernel_src_, e);
  const auto kernel_warn = [&](const std::string& condition, const std::string& explanation) {
    return properties::kernel_warn_violation(condition, explanation, e.line, e.time_ns);
  };
  // The real code warned (the kernel goes on after a WARN): one report per condition,
  // and none when the reference reported its own kernel_warn at this event.
  const std::string& warning = kernel_src_->last_warning();
  if (!warning.empty() && reference_->kernel_warns() == reference_warns && warned_.insert(warning).second)
    kernel_warns_.push_back(kernel_warn(warning, "the kernel's own warning fired in kernel-src (the real 6.12 fair.c)"));
  if (!kernel_src_->oops().empty()) {  // the real code crashed: it cannot go on
    oops_ = kernel_src_->oops();
    properties::Violation v = kernel_warn(kernel_src_->oops_condition(),
                                          "the real 6.12 fair.c would have crashed here (kernel-src stops)");
    if (null_pick()) v.finding = properties::known_finding("kernel-src-null-pick-after-overflow");
    kernel_warns_.push_back(v);
    return "";
  }
  if (!k_reason.empty()) difference_ = "the reference applied the event, kernel-src refused it: " + k_reason;
  if (mirror_ && k_reason.empty()) mirror_->after(e);
  if (difference_.empty()) difference_ = kernel_src::first_difference(reference_->machine(), *kernel_src_);
  const std::string hook_difference = hooks_->take_difference();
  if (difference_.empty()) difference_ = hook_difference;
  return "";
}

}  // namespace eevdf::replay

namespace eevdf::replay {

void KernelSrcLockstep::finish() {
  // The mirror first: its measure (iowait_visibility) is reported before the
  // reference's (lag_bound), in the order a replay of the reference alone reports them.
  if (mirror_ && oops_.empty()) mirror_->finish();  // after a crash the state is the crash's
  reference_->finish();
}

bool KernelSrcLockstep::measure(std::string_view name, std::string& numerator, std::string& denominator) const {
  if (reference_->checker().measure(name, numerator, denominator)) return true;
  return mirror_ && mirror_->checker().measure(name, numerator, denominator);
}

}  // namespace eevdf::replay
