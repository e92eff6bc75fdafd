// See kernel_src_tree_run.h.
#include "replay/kernel_src_tree_run.h"

#include <fmt/format.h>

#include "kernel_src/harness.h"
#include "model/features.h"
#include "model/profile.h"
#include "kernel_src/tree_build.h"
#include "properties/findings.h"
#include "properties/kernel_warn.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/model_config.h"

namespace eevdf::replay {

namespace {

// The NoSink of a run without properties: the mirror is then made with a selection
// of no check (its hooks stay off).
class NoSink final : public properties::Sink {
 public:
  void violation(const properties::Violation&) override {}
  void measure(std::string_view, const std::string&, const std::string&) override {}
};
NoSink none;

// The observation shape of the selected tree: one CPU's, of a machine with no task.
unsigned selected_shape() {
  const model::Config config = make_config(trace::Header{}, Options{}, "<kernel tree>");
  kernel_src::Machine k(config, {});
  kernel_src::Observation o;
  k.observe(0, o);
  return o.rq.shape;
}

}  // namespace

properties::TreeTraits selected_tree_traits() {
  return tree_traits(selected_shape(), kernel_src::selected_dir().empty());
}

std::string selected_tree_forms() {
  const unsigned shape = selected_shape();
  const std::string_view forms = forms_for_shape(shape);
  if (forms.empty())
    throw UnknownShape(fmt::format("kernel-src {}: the property mirror has no forms for this tree's shape "
                                   "(observation shape bits {:#x}: kernel_src/observe.h KSRC_SHAPE_*)",
                                   kernel_src::selected_version(), shape));
  return std::string(forms);
}

std::string why_tree_not_runnable(const trace::Header& header, const model::Config& config) {
  const std::string forms = selected_tree_forms();
  const std::string profile = header.kernel.value_or(std::string(model::kDefaultProfile));
  if (profile != forms)
    return fmt::format("kernel-src {} keeps the {} profile's state: it runs `kernel {}` traces; this one is `kernel {}`",
                       kernel_src::selected_version(), forms, forms, profile);
  if (!config.injections.none()) return "kernel-src runs the kernel as it is: injections are not available";
  if (config.feat(model::Feature::RUN_TO_PARITY_WAKEUP)) return "kernel-src has no RUN_TO_PARITY_WAKEUP (an unmerged RFC)";
  return "";
}

KernelSrcTreeRun::KernelSrcTreeRun(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                                   properties::Sink* sink, const properties::Selection& selection)
    : kernel_src_(std::make_unique<kernel_src::Machine>(config, specs)) {
  mirror_ = make_kernel_src_mirror(config, specs, *kernel_src_, sink != nullptr ? *sink : none,
                                   sink != nullptr ? selection : properties::Selection{{"kernel_matches_reference"}, {}},
                                   false);
}

bool KernelSrcTreeRun::null_pick() const { return oops_.starts_with(KSRC_OOPS_NULL_PICK); }

std::string KernelSrcTreeRun::apply(const trace::Event& e) {
  mirror_->before(e);
  const std::string reason = apply_event(*kernel_src_, e);
  const auto kernel_warn = [&](const std::string& condition, const std::string& explanation) {
    return properties::kernel_warn_violation(condition, explanation, e.line, e.time_ns);
  };
  const std::string version = kernel_src::selected_version();
  const std::string& warning = kernel_src_->last_warning();
  if (!warning.empty() && warned_.insert(warning).second)
    kernel_warns_.push_back(kernel_warn(warning, "the kernel's own warning fired in kernel-src (Linux " + version + ")"));
  if (!kernel_src_->oops().empty()) {
    oops_ = kernel_src_->oops();
    properties::Violation v =
        kernel_warn(kernel_src_->oops_condition(), "Linux " + version + "'s fair.c would have crashed here (kernel-src stops)");
    if (null_pick()) v.finding = properties::known_finding("kernel-src-null-pick-after-overflow");
    kernel_warns_.push_back(v);
    return "";
  }
  if (reason.empty()) mirror_->after(e);
  return reason;
}

std::vector<properties::Violation> KernelSrcTreeRun::take_kernel_warns() {
  std::vector<properties::Violation> out;
  out.swap(kernel_warns_);
  return out;
}

void KernelSrcTreeRun::finish() {
  if (oops_.empty()) mirror_->finish();
}

bool KernelSrcTreeRun::measure(std::string_view name, std::string& numerator, std::string& denominator) const {
  return mirror_->measure(name, numerator, denominator);
}

void KernelSrcTreeRun::tally(std::map<std::string, std::uint64_t>& evaluated) const { mirror_->tally(evaluated); }

}  // namespace eevdf::replay
