// See runqueue_dump_kernel_src.h.
#include "replay/runqueue_dump_kernel_src.h"

#include <fmt/format.h>

namespace eevdf::replay {

RunqueueDump runqueue_dump(const kernel_src::Machine& k, const kernel_src::Observation& o, const std::string& source) {
  const auto id_of = [&](int p) { return p < 0 ? 0 : k.extra(p).id; };
  const auto& r = o.rq;
  RunqueueDump d;
  d.source = source.empty() ? fmt::format("kernel-src {}", kernel_src::kernel_version()) : source;
  d.shape = r.shape;
  d.cpu = r.cpu;
  d.curr = id_of(r.curr);
  d.next = id_of(r.next);
  d.need_resched = r.need_resched != 0;
  d.rq_nr_running = r.rq_nr_running;
  d.nr_queued = r.nr_queued;
  d.h_nr_queued = r.h_nr_queued;
  // An unsigned count in the kernel's struct: read as the s32 it is decremented as.
  d.h_nr_runnable = static_cast<std::int32_t>(r.h_nr_runnable);
  d.h_nr_delayed = r.h_nr_delayed;
  d.load_weight = r.load_weight;
  d.sum_w_vruntime = r.sum_w_vruntime;
  d.sum_weight = r.sum_weight;
  d.sum_shift = r.sum_shift;
  d.v0 = r.v0;
  d.V = r.V;
  for (std::size_t i = 0; i < o.entities.size(); ++i) {
    const auto& x = o.entities[i];
    EntityDump e;
    e.is_root = static_cast<int>(i) == r.root;
    e.task = id_of(x.task);
    e.in_tree = x.in_tree != 0;
    e.is_curr = x.is_curr != 0;
    e.on_rq = x.on_rq != 0;
    e.sched_delayed = x.sched_delayed != 0;
    e.rel_deadline = x.rel_deadline != 0;
    e.custom_slice = x.custom_slice != 0;
    e.eligible = x.eligible != 0;
    e.vruntime = x.vruntime;
    e.deadline = x.deadline;
    e.slice = x.slice;
    e.weight = x.weight;
    e.inv_weight = x.inv_weight;
    e.vlag = x.vlag;
    e.vprot = x.vprot;
    e.augmented = e.in_tree;
    e.min_vruntime = x.min_vruntime;
    e.min_slice = x.min_slice;
    e.max_slice = x.max_slice;
    d.entities.push_back(e);
  }
  return d;
}

RunqueueDump runqueue_dump(const kernel_src::Machine& k, int cpu, const std::string& source) {
  return runqueue_dump(k, k.observe(cpu), source);
}

}  // namespace eevdf::replay
