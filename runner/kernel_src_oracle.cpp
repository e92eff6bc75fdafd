// The kernel-src oracle of kernel_src_oracle.h.
#include "runner/kernel_src_oracle.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include <memory>
#include <string>
#include <vector>

#include "replay/apply_event_kernel_src.h"
#endif

namespace eevdf::runner {

#ifdef EEVDF_HAVE_KERNEL_SRC
namespace {

class KernelSrcOracle final : public generator::Oracle {
 public:
  KernelSrcOracle(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                  const kernel_src::c::ksrc_api* api)
      : m_(config, specs, api) {
    tasks_.resize(specs.size());
    refresh();
  }
  const std::vector<Task>& tasks() const override { return tasks_; }
  unsigned nr_queued(int cpu) const override { return nr_queued_[static_cast<std::size_t>(cpu)]; }
  std::string apply(const trace::Event& e, bool& halted) override {
    std::string why = replay::apply_event(m_, e);
    halted = !m_.oops().empty();
    refresh();
    return why;
  }

 private:
  void refresh() {
    for (int p = 0; p < m_.ntasks(); ++p)
      tasks_[static_cast<std::size_t>(p)] = {m_.extra(p).id, m_.task(p).cpu, m_.state_of(p)};
    nr_queued_.assign(static_cast<std::size_t>(m_.ncpus()), 0);
    // Counted from the tasks, not read from a counter the tree may name or keep otherwise.
    for (int p = 0; p < m_.ntasks(); ++p) {
      const model::task_state s = m_.state_of(p);
      if (s == model::task_state::running || s == model::task_state::queued || s == model::task_state::delayed)
        ++nr_queued_[static_cast<std::size_t>(m_.task(p).cpu)];
    }
  }
  kernel_src::Machine m_;
  std::vector<Task> tasks_;
  std::vector<unsigned> nr_queued_;
};

}  // namespace

generator::OracleFactory kernel_src_oracle(const kernel_src::c::ksrc_api* api) {
  return [api](const model::Config& config, const std::vector<model::TaskSpec>& specs) {
    return std::unique_ptr<generator::Oracle>(new KernelSrcOracle(config, specs, api));
  };
}
#else
generator::OracleFactory kernel_src_oracle(const kernel_src::c::ksrc_api*) { return nullptr; }
#endif

}  // namespace eevdf::runner
