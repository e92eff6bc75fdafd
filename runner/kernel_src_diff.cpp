// See kernel_src_diff.h.
#include "runner/kernel_src_diff.h"

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "properties/kernel_warn.h"
#include "replay/model_config.h"
#include "runner/measures.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_lockstep.h"
#include "replay/kernel_src_tree_run.h"
#include "replay/kernel_tree.h"
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

// A tree judged alone: no reference, its mirror and its warnings only.
DiffOutcome judge_tree(const generator::Options& o, std::uint64_t seed, properties::Sink* sink,
                       const properties::Selection& selection) {
  generator::Generator gen(seed, o);
  replay::KernelSrcTreeRun run(replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                               replay::make_task_specs(gen.header()), sink, selection);
  DiffOutcome out;
  while (run.oops().empty()) {
    const auto e = gen.next();
    if (!e) break;
    ++out.events;
    const std::string reason = run.apply(*e);
    EEVDF_ASSERT(reason.empty(), "kernel-src rejected a generated event: " + reason);
    for (const properties::Violation& v : run.take_kernel_warns())
      if (sink != nullptr) sink->violation(v);
    out.line = e->line;
    out.time_ns = e->time_ns;
  }
  out.oops = run.oops();
  out.null_pick = run.null_pick();
  if (out.oops.empty()) {
    out.line = 0;
    out.time_ns = 0;
    run.finish();
  }
  run.tally(out.evaluated);
  out.evaluated[std::string(properties::kKernelWarn)] = out.events;
  out.draws = gen.draws();
  return out;
}

}  // namespace

DiffOutcome diff_generated(const generator::Options& o, std::uint64_t seed, properties::Sink* sink,
                           const properties::Selection& selection) {
  if (replay::tree_judged_alone()) return judge_tree(o, seed, sink, selection);
  EEVDF_ASSERT(o.profile == "6.12", "kernel-src traces are drawn under the 6.12 profile");
  generator::Generator gen(seed, o);
  replay::KernelSrcLockstep lock(replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                                 replay::make_task_specs(gen.header()), sink, selection);
  DiffOutcome out;
  while (lock.agree()) {
    const auto e = gen.next();
    if (!e) break;
    ++out.events;
    const std::string reason = lock.apply(*e);
    EEVDF_ASSERT(reason.empty(), "the reference rejected a generated event: " + reason);
    for (const properties::Violation& v : lock.take_kernel_warns())  // the real code's warnings and crash
      if (sink != nullptr) sink->violation(v);
    out.line = e->line;
    out.time_ns = e->time_ns;
  }
  out.oops = lock.oops();
  out.null_pick = lock.null_pick();
  out.difference = lock.difference();
  out.after_overflow = lock.overflow_line() != 0;
  if (lock.agree()) {
    out.line = 0;
    out.time_ns = 0;
    lock.finish();  // end-of-trace checks, on a full trace only
  }
  tally_evaluated(lock.reference().checker(), out.evaluated);
  if (lock.mirror() != nullptr) tally_evaluated(lock.mirror()->checker(), out.evaluated);
  out.evaluated["kernel_matches_reference"] = out.events;
  out.evaluated[std::string(properties::kKernelWarn)] = out.events;  // the reference's own kernel checks
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
