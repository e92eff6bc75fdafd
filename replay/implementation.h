// One implementation of the fair class under test in a tree-against-tree diff
// (`eevdf-check diff`): kernel-src of a tree, or the reference model's profile. Both
// answer in the same terms (task states, the runqueue dump of runqueue_dump.h, the
// wrapped calls of kernel_src/hook_call.h, warnings and crashes), so the lockstep
// (implementation_lockstep.h) compares any two. Built only with kernel-src
// (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <functional>  // factories
#include <memory>      // the implementation
#include <string>      // names, reasons
#include <string_view>  // profiles
#include <vector>      // specs, calls

#include "kernel_src/hook_call.h"
#include "kernel_src/machine.h"
#include "model/config.h"
#include "model/machine.h"  // TaskSpec, task_state
#include "replay/runqueue_dump.h"
#include "trace/trace.h"

namespace eevdf::replay {

struct TaskView {
  int id = 0;
  model::task_state state = model::task_state::new_;
  int cpu = 0;  // task_cpu(p); meaningful once forked
};

class Implementation {
 public:
  virtual ~Implementation() = default;
  // Applies `e`; the reason when it refuses the event (then nothing changed).
  virtual std::string apply(const trace::Event& e) = 0;
  virtual int ncpus() const = 0;
  virtual int ntasks() const = 0;
  virtual TaskView task(int p) const = 0;  // p: the declaration's index
  virtual RunqueueDump runqueue(int cpu) const = 0;
  // The placed / picked / reweighted calls since the last call (cleared).
  virtual std::vector<kernel_src::HookCall> take_calls() = 0;
  // The kernel warning the last event took, as the real code words it ("": none).
  // Compared only between two implementations that both word them (warns_like_kernel_src).
  virtual std::string last_warning() const = 0;
  virtual bool warns_like_kernel_src() const = 0;
  // Where it crashed ("": it did not); it refuses every later event.
  virtual std::string oops() const = 0;
  // The reference's s64 overflow: past it the kernel's tree order under wrapped sums is
  // not the reference's exact one, so a comparison with the real code stops there.
  virtual bool overflowed() const = 0;
};

using ImplementationFactory =
    std::function<std::unique_ptr<Implementation>(const model::Config&, const std::vector<model::TaskSpec>&)>;
// What builds a kernel-src machine of one tree (the built-in Debian 6.12, or a tree
// loaded at run time).
using MachineFactory =
    std::function<std::unique_ptr<kernel_src::Machine>(const model::Config&, const std::vector<model::TaskSpec>&)>;

// The built-in kernel-src (Debian's 6.12).
MachineFactory builtin_machine_factory();
// kernel-src machines of `machines`, dumps titled `name`.
ImplementationFactory kernel_src_implementation(MachineFactory machines, std::string name);
// The reference model's `profile` ("6.12" or "6.18") in the kernel arithmetic, the
// `injections` added to every trace's own (model/injections.h names); titled
// "reference <profile>", with " +<injection>" for each.
ImplementationFactory reference_implementation(std::string_view profile, std::vector<std::string> injections = {});

}  // namespace eevdf::replay
