// See kernel_src_diff.h.
#include "runner/kernel_src_diff.h"

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "replay/apply_event.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/compare.h"
#include "kernel_src/hooks.h"
#include "kernel_src/machine.h"
#include "replay/apply_event_kernel_src.h"
#endif

namespace eevdf::runner {

generator::Options kernel_src_generator_options(generator::Options o) {
  o.profile = "6.12";
  o.injections.clear();
  o.features.emplace_back("RUN_TO_PARITY_WAKEUP", false);  // written last: it wins over a drawn setting
  return o;
}

#ifdef EEVDF_HAVE_KERNEL_SRC

bool kernel_src_available() { return true; }

namespace {

// Where properties go when the caller wants none: the selection is empty then.
class NoSink final : public properties::Sink {
 public:
  void violation(const properties::Violation&) override {}
  void measure(std::string_view, const std::string&, const std::string&) override {}
};

}  // namespace

DiffOutcome diff_generated(const generator::Options& o, std::uint64_t seed, properties::Sink* sink,
                           const properties::Selection& selection) {
  EEVDF_ASSERT(o.profile == "6.12", "kernel-src traces are drawn under the 6.12 profile");
  generator::Generator gen(seed, o);
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<generated>");
  const auto specs = replay::make_task_specs(gen.header());
  NoSink none;
  // Without a sink no property runs: a selection of one name no check has.
  const properties::Selection nothing{{"kernel_matches_reference"}, {}};
  replay::CheckedRun<model::KernelArith, model::profile_6_12> ref(config, specs, sink != nullptr ? *sink : none,
                                                                  sink != nullptr ? selection : nothing);
  kernel_src::Machine k(config, specs);
  kernel_src::HookLockstep hooks(ref.machine(), ref.checker_observer(), k);
  ref.set_front_observer(hooks.observer());
  DiffOutcome out;
  while (auto e = gen.next()) {
    ++out.events;
    const std::string reason = ref.apply(*e);
    EEVDF_ASSERT(reason.empty(), "the reference rejected a generated event: " + reason);
    out.after_overflow = ref.overflowed();
    const std::string k_reason = replay::apply_event(k, *e);
    if (!k.oops().empty()) {
      out.oops = k.oops();
      out.line = e->line;
      out.time_ns = e->time_ns;
      break;
    }
    out.difference = !k_reason.empty() ? "kernel-src refused the event: " + k_reason
                                       : kernel_src::first_difference(ref.machine(), k);
    const std::string hook_difference = hooks.take_difference();
    if (out.difference.empty()) out.difference = hook_difference;
    if (out.difference.empty() && k.warnings() != 0) out.difference = "the kernel code warned (SCHED_WARN_ON)";
    if (!out.difference.empty()) {
      out.line = e->line;
      out.time_ns = e->time_ns;
      break;
    }
  }
  if (out.oops.empty() && out.difference.empty()) ref.finish();  // end-of-trace checks, on a full trace only
  out.draws = gen.draws();
  return out;
}

#else

bool kernel_src_available() { return false; }

DiffOutcome diff_generated(const generator::Options&, std::uint64_t, properties::Sink*, const properties::Selection&) {
  EEVDF_ASSERT(false, "this build has no kernel-src");
  return {};
}

#endif

}  // namespace eevdf::runner
