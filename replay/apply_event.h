// One trace event into one model instance: the bridge between the trace format and
// the model's verbs, shared by replay, the generator and the shrinkers.
#pragma once

#include <fmt/format.h>

#include <string>

#include "base/assert.h"
#include "model/machine.h"
#include "trace/trace.h"

namespace eevdf::replay {

// The index of the task running on `cpu`, or -1 when it is idle.
template <class A, class P>
int task_running_on(const model::Machine<A, P>& m, int cpu) {
  const auto* curr = m.rqs().at(static_cast<std::size_t>(cpu)).curr;
  return curr == nullptr ? -1 : m.task_index(curr->id);
}

// Applies `e` to a model with the trace verbs (the reference Machine<A>, or the fast
// model, whose task_running_on is found by argument-dependent lookup); returns why
// it is illegal in the model's state ("" when applied).
template <class M>
std::string apply_event(M& m, const trace::Event& e) {
  const int p = e.task != 0 ? m.task_index(e.task) : (e.cpu ? task_running_on(m, *e.cpu) : -1);
  const int cpu = e.cpu.value_or(-1);
  if (e.task == 0 && e.verb != trace::Verb::tick && p < 0)
    return fmt::format("CPU {} is idle: `{}` needs a running task", cpu, trace::verb_name(e.verb));
  switch (e.verb) {
    case trace::Verb::fork: return m.fork(e.time_ns, p, cpu);
    case trace::Verb::wake: return m.wake(e.time_ns, p, cpu);
    case trace::Verb::sleep:
      return m.sleep(e.time_ns, p,
                     e.io == trace::Io::io       ? model::io_sleep::io
                     : e.io == trace::Io::noacct ? model::io_sleep::noacct
                                                 : model::io_sleep::none);
    case trace::Verb::tick: return m.tick(e.time_ns, e.all_cpus ? -1 : cpu);
    case trace::Verb::migrate: return m.migrate(e.time_ns, p, cpu);
    case trace::Verb::renice: return m.renice(e.time_ns, p, e.nice);
    case trace::Verb::setslice: return m.setslice(e.time_ns, p, e.slice_ns);
    case trace::Verb::yield: return m.yield(e.time_ns, p);
    case trace::Verb::exit: return m.exit(e.time_ns, p);
  }
  EEVDF_UNREACHABLE("a Verb outside the enum (the reader builds only listed verbs)");
}

}  // namespace eevdf::replay
