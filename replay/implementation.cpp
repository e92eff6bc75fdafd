// See implementation.h.
#include "replay/implementation.h"

#include <fmt/format.h>

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "kernel_src/hooks.h"
#include "model/arith_kernel.h"
#include "model/injections.h"
#include "model/profiles.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/runqueue_dump_kernel_src.h"
#include "replay/runqueue_dump_model-inl.h"

namespace eevdf::replay {
namespace {

class KernelSrcImplementation final : public Implementation {
 public:
  KernelSrcImplementation(std::unique_ptr<kernel_src::Machine> m, std::string name)
      : m_(std::move(m)), name_(std::move(name)) {
    m_->record_hooks(&calls_);
  }
  ~KernelSrcImplementation() override { m_->record_hooks(nullptr); }

  std::string apply(const trace::Event& e) override { return apply_event(*m_, e); }
  int ncpus() const override { return m_->ncpus(); }
  int ntasks() const override { return m_->ntasks(); }
  TaskView task(int p) const override { return {m_->extra(p).id, m_->state_of(p), m_->task(p).cpu}; }
  RunqueueDump runqueue(int cpu) const override { return runqueue_dump(*m_, cpu, name_); }
  std::vector<kernel_src::HookCall> take_calls() override { return std::exchange(calls_, {}); }
  std::string last_warning() const override { return m_->last_warning(); }
  bool warns_like_kernel_src() const override { return true; }
  std::string oops() const override { return m_->oops(); }
  bool overflowed() const override { return false; }

 private:
  std::unique_ptr<kernel_src::Machine> m_;
  std::string name_;
  std::vector<kernel_src::HookCall> calls_;
};

template <class P>
class ReferenceImplementation final : public Implementation {
 public:
  ReferenceImplementation(const model::Config& config, const std::vector<model::TaskSpec>& specs, std::string name)
      : m_(config, specs), hooks_(m_.tasks(), nullptr), name_(std::move(name)) {
    m_.set_observer(&hooks_);
  }

  std::string apply(const trace::Event& e) override {
    if (!oops_.empty()) return "the reference stopped at a condition it cannot go past";
    std::string reason;
    try {
      reason = apply_event(m_, e);
    } catch (const KernelWarn& w) {
      oops_ = w.what();
      return "";
    }
    m_.take_warnings();  // worded as the model's checks, not comparable with the real code's
    for (const auto& rq : m_.rqs()) overflowed_ = overflowed_ || !rq.cfs.overflow.empty();
    m_.clear_overflows();
    return reason;
  }
  int ncpus() const override { return static_cast<int>(m_.rqs().size()); }
  int ntasks() const override { return static_cast<int>(m_.tasks().size()); }
  TaskView task(int p) const override {
    const auto& t = m_.tasks().at(static_cast<std::size_t>(p));
    return {t.id, m_.state_of(t), t.cpu};
  }
  RunqueueDump runqueue(int cpu) const override {
    RunqueueDump d = runqueue_dump(m_, cpu);
    d.source = name_;
    return d;
  }
  std::vector<kernel_src::HookCall> take_calls() override { return std::exchange(hooks_.calls, {}); }
  std::string last_warning() const override { return ""; }
  bool warns_like_kernel_src() const override { return false; }
  std::string oops() const override { return oops_; }
  bool overflowed() const override { return overflowed_; }

 private:
  model::Machine<model::KernelArith, P> m_;
  kernel_src::ReferenceHooks hooks_;
  std::string name_;
  std::string oops_;
  bool overflowed_ = false;
};

}  // namespace

MachineFactory builtin_machine_factory() {
  return [](const model::Config& config, const std::vector<model::TaskSpec>& specs) {
    return std::make_unique<kernel_src::Machine>(config, specs, kernel_src::c::ksrc_get_api());  // not a selected tree
  };
}

ImplementationFactory kernel_src_implementation(MachineFactory machines, std::string name) {
  return [machines = std::move(machines), name = std::move(name)](const model::Config& config,
                                                                   const std::vector<model::TaskSpec>& specs) {
    return std::unique_ptr<Implementation>(std::make_unique<KernelSrcImplementation>(machines(config, specs), name));
  };
}

ImplementationFactory reference_implementation(std::string_view profile, std::vector<std::string> injections) {
  EEVDF_ASSERT(profile == model::profile_6_12::name || profile == model::profile_6_18::name,
               "no reference profile " + std::string(profile));
  for (const std::string& name : injections)
    EEVDF_ASSERT(model::injection_by_name(name).has_value(), "unknown injection " + name);
  std::string title = fmt::format("reference {}", profile);
  for (const std::string& name : injections) title += " +" + name;
  const bool k612 = profile == model::profile_6_12::name;
  return [injections = std::move(injections), title, k612](const model::Config& config,
                                                             const std::vector<model::TaskSpec>& specs) {
    model::Config c = config;
    for (const std::string& name : injections) c.injections.set(*model::injection_by_name(name));
    if (k612)
      return std::unique_ptr<Implementation>(
          std::make_unique<ReferenceImplementation<model::profile_6_12>>(c, specs, title));
    return std::unique_ptr<Implementation>(std::make_unique<ReferenceImplementation<model::profile_6_18>>(c, specs, title));
  };
}

}  // namespace eevdf::replay
