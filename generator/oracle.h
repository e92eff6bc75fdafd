// A system under test that decides which events are legal next, for a generator whose
// traces must be valid there rather than on our reference (a kernel tree's kernel-src
// model, whose decisions differ from the reference's on purpose). It applies each
// generated event and reports the states the next proposal draws from.
#pragma once

#include <functional>  // the factory
#include <memory>      // the oracle
#include <string>      // the refusal
#include <vector>      // tasks, CPUs

#include "model/config.h"
#include "model/machine.h"  // TaskSpec, task_state
#include "trace/trace.h"

namespace eevdf::generator {

class Oracle {
 public:
  struct Task {
    int id = 0;
    int cpu = 0;
    model::task_state state = model::task_state::new_;
  };
  virtual ~Oracle() = default;
  // The tasks in header order, as of the last apply.
  virtual const std::vector<Task>& tasks() const = 0;
  // Entities queued on a CPU's fair runqueue (curr and delayed ones included).
  virtual unsigned nr_queued(int cpu) const = 0;
  // Applies `e`: "" when applied, else why it is illegal here. `halted`: the system
  // cannot go on after it (the real code crashed): the trace ends with this event.
  virtual std::string apply(const trace::Event& e, bool& halted) = 0;
};

using OracleFactory =
    std::function<std::unique_ptr<Oracle>(const model::Config&, const std::vector<model::TaskSpec>&)>;

}  // namespace eevdf::generator
