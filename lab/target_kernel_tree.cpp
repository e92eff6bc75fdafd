// kernel-src of the selected tree as a lab target: KernelSrcTreeRun (the tree's
// fair.c with the properties its mirror judges); the tree's warnings and crash are
// kernel_warn violations, a crash halts the run.
#include "lab/target_kernel_tree.h"

#include "trace/error.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_tree_run.h"
#include "replay/model_config.h"
#include "replay/runqueue_dump_kernel_src.h"

namespace eevdf::lab {
namespace {

class KernelTreeTarget final : public Target {
 public:
  KernelTreeTarget(const model::Config& config, const std::vector<model::TaskSpec>& specs, properties::Sink& sink,
                   const properties::Selection& selection)
      : run_(config, specs, &sink, selection), sink_(sink) {}

  std::string apply(const trace::Event& e) override {
    std::string reason = run_.apply(e);
    for (const properties::Violation& v : run_.take_kernel_warns()) sink_.violation(v);
    return reason;
  }
  int curr(int cpu) const override { return k().curr_index(cpu); }
  model::task_state state(int p) const override { return k().state_of(p); }
  int cpu_of(int p) const override { return k().task(p).cpu; }
  std::int64_t nr_iowait(int cpu) const override { return k().cpu_extra(cpu).nr_iowait; }
  std::int64_t nr_iowait_acct(int cpu) const override { return k().cpu_extra(cpu).nr_iowait_acct; }
  std::optional<std::int64_t> lag_ns(int p) const override {
    const model::task_state s = state(p);
    if (s != model::task_state::queued && s != model::task_state::running && s != model::task_state::delayed)
      return std::nullopt;
    const int id = k().extra(p).id;
    const replay::RunqueueDump d = replay::runqueue_dump(k(), cpu_of(p));
    for (const replay::EntityDump& e : d.entities)
      if (e.task == id) return static_cast<std::int64_t>(d.V - e.vruntime);  // modulo 2^64, as the kernel's s64
    return std::nullopt;
  }
  bool halted() const override { return !run_.oops().empty(); }
  void finish() override { run_.finish(); }
  void tally(std::map<std::string, std::uint64_t>& evaluated) const override { run_.tally(evaluated); }

 private:
  const kernel_src::Machine& k() const { return run_.kernel_src(); }
  replay::KernelSrcTreeRun run_;
  properties::Sink& sink_;
};

}  // namespace

std::string selected_tree_profile(const std::string& file) {
  try {
    return replay::selected_tree_forms();
  } catch (const replay::UnknownShape& e) {
    throw trace::TraceError({file, 0, 0}, e.what());
  }
}

std::unique_ptr<Target> make_kernel_tree_target(const TargetSpec& spec, const trace::Header& header,
                                                properties::Sink& sink, const std::string& file) {
  const model::Config config = replay::make_config(header, replay::Options{}, file);
  std::string why;
  try {
    why = replay::why_tree_not_runnable(header, config);
  } catch (const replay::UnknownShape& e) {
    why = e.what();
  }
  if (!why.empty()) throw trace::TraceError({file, 0, 0}, why);
  return std::make_unique<KernelTreeTarget>(config, replay::make_task_specs(header), sink, spec.selection);
}

}  // namespace eevdf::lab

#else

namespace eevdf::lab {

std::string selected_tree_profile(const std::string& file) {
  throw trace::TraceError({file, 0, 0}, "this build has no kernel-src (the kernel source package was not installed)");
}

std::unique_ptr<Target> make_kernel_tree_target(const TargetSpec&, const trace::Header&, properties::Sink&,
                                                const std::string& file) {
  return (void)selected_tree_profile(file), nullptr;
}

}  // namespace eevdf::lab

#endif
