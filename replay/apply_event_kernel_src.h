// One trace event into kernel-src (kernel_src/machine.h): the same bridge as
// apply_event.h for the reference models, shared by replay, run and bench. Only in
// builds that have kernel-src (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <fmt/format.h>

#include <string>

#include "kernel_src/machine.h"
#include "trace/trace.h"

namespace eevdf::replay {

// Applies `e`; returns why it is illegal in kernel-src's state ("" when applied).
inline std::string apply_event(kernel_src::Machine& m, const trace::Event& e) {
  const int p = e.task != 0 ? m.task_index(e.task) : (e.cpu ? m.curr_index(*e.cpu) : -1);
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
  return "unknown verb";
}

}  // namespace eevdf::replay
