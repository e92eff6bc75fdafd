// See kernel_src_diff.h.
#include "runner/kernel_src_diff.h"

#include "base/assert.h"
#include "replay/apply_event.h"
#include "replay/model_config.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/compare.h"
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

DiffOutcome diff_generated(const generator::Options& o, std::uint64_t seed) {
  EEVDF_ASSERT(o.profile == "6.12", "kernel-src traces are drawn under the 6.12 profile");
  generator::Generator gen(seed, o);
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<generated>");
  const auto specs = replay::make_task_specs(gen.header());
  kernel_src::Reference612 ref(config, specs);
  kernel_src::Machine k(config, specs);
  DiffOutcome out;
  while (auto e = gen.next()) {
    ++out.events;
    const std::string reason = replay::apply_event(ref, *e);
    EEVDF_ASSERT(reason.empty(), "the reference rejected a generated event: " + reason);
    for (int cpu = 0; cpu < config.topology.ncpus(); ++cpu)
      out.after_overflow = !ref.drain_overflows(cpu).empty() || out.after_overflow;
    const std::string k_reason = replay::apply_event(k, *e);
    if (!k.oops().empty()) {
      out.oops = k.oops();
      out.line = e->line;
      out.time_ns = e->time_ns;
      break;
    }
    out.difference = !k_reason.empty() ? "kernel-src refused the event: " + k_reason
                                       : kernel_src::first_difference(ref, k);
    if (out.difference.empty() && k.warnings() != 0) out.difference = "the kernel code warned (SCHED_WARN_ON)";
    if (!out.difference.empty()) {
      out.line = e->line;
      out.time_ns = e->time_ns;
      break;
    }
  }
  out.draws = gen.draws();
  return out;
}

#else

bool kernel_src_available() { return false; }

DiffOutcome diff_generated(const generator::Options&, std::uint64_t) {
  EEVDF_ASSERT(false, "this build has no kernel-src");
  return {};
}

#endif

}  // namespace eevdf::runner
