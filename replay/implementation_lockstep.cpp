// See implementation_lockstep.h.
#include "replay/implementation_lockstep.h"

#include <fmt/format.h>

#include "kernel_src/hooks.h"  // describe

namespace eevdf::replay {
namespace {

const char* state_name(model::task_state s) {
  switch (s) {
    case model::task_state::new_: return "new";
    case model::task_state::running: return "running";
    case model::task_state::queued: return "queued";
    case model::task_state::delayed: return "delayed";
    case model::task_state::blocked: return "blocked";
    case model::task_state::exited: return "exited";
  }
  return "?";
}

}  // namespace

ImplementationLockstep::ImplementationLockstep(const ImplementationFactory& a, const ImplementationFactory& b,
                                               const model::Config& config, const std::vector<model::TaskSpec>& specs)
    : a_(a(config, specs)), b_(b(config, specs)) {
  compare();
}

std::string ImplementationLockstep::apply(const trace::Event& e) {
  const std::string reason = a_->apply(e);
  if (!reason.empty()) {
    b_->take_calls();
    a_->take_calls();
    return reason;
  }
  if (const std::string b_reason = b_->apply(e); !b_reason.empty()) {
    differ("A applied the event, B refused it: " + b_reason, -1);
    return "";
  }
  compare();
  return "";
}

void ImplementationLockstep::compare() {
  // From a reference's overflow on, the real code's tree order under wrapped sums is not
  // the reference's exact one: what differs then is the overflow's consequence.
  if (a_->overflowed() || b_->overflowed()) {
    stop_ = "the reference reported an s64 overflow";
    overflow_stop_ = true;
    return;
  }
  const std::string a_oops = a_->oops(), b_oops = b_->oops();
  if (a_oops.empty() != b_oops.empty())
    return differ(a_oops.empty() ? "B crashed, A did not: " + b_oops : "A crashed, B did not: " + a_oops, -1);
  if (!a_oops.empty()) {
    if (a_->warns_like_kernel_src() && b_->warns_like_kernel_src() && a_oops != b_oops)
      return differ(fmt::format("both crashed, differently: A {}; B {}", a_oops, b_oops), -1);
    stop_ = "both crashed: " + a_oops;
    return;
  }
  if (a_->warns_like_kernel_src() && b_->warns_like_kernel_src() && a_->last_warning() != b_->last_warning())
    return differ(fmt::format("kernel warning: A {}, B {}", a_->last_warning().empty() ? "none" : a_->last_warning(),
                              b_->last_warning().empty() ? "none" : b_->last_warning()),
                  -1);
  for (int p = 0; p < a_->ntasks(); ++p) {
    const TaskView x = a_->task(p), y = b_->task(p);
    if (x.state != y.state)
      return differ(fmt::format("task {}: state: A {}, B {}", x.id, state_name(x.state), state_name(y.state)),
                    x.state == model::task_state::new_ ? y.cpu : x.cpu);
    if (x.state != model::task_state::new_ && x.cpu != y.cpu)
      return differ(fmt::format("task {}: cpu: A {}, B {}", x.id, x.cpu, y.cpu), x.cpu);
  }
  for (int cpu = 0; cpu < a_->ncpus(); ++cpu) {
    const RunqueueDump da = a_->runqueue(cpu);
    a_augment_stale_ = a_augment_stale_ || augmented_slice_stale(da);
    if (std::string d = first_runqueue_difference(da, b_->runqueue(cpu), "A", "B"); !d.empty())
      return differ(std::move(d), cpu);
  }
  const auto xs = a_->take_calls(), ys = b_->take_calls();
  for (std::size_t i = 0; i < std::max(xs.size(), ys.size()); ++i) {
    const bool has_x = i < xs.size(), has_y = i < ys.size();
    if (has_x && has_y && xs[i] == ys[i]) continue;
    return differ(fmt::format("call {} of the event: A {}, B {}", i + 1, has_x ? kernel_src::describe(xs[i]) : "none",
                              has_y ? kernel_src::describe(ys[i]) : "none"),
                  has_x ? xs[i].cpu : ys[i].cpu);
  }
}

}  // namespace eevdf::replay
