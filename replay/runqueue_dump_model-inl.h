// The runqueue dump of the reference model (runqueue_dump.h) in the kernel arithmetic:
// its tree in deadline order, then curr; values modulo 2^64 as the kernel holds them
// (the model keeps absolute times unwrapped); V from the model's own avg_vruntime().
#pragma once

#include <fmt/format.h>

#include <cstdint>

#include "model/arith_kernel.h"
#include "model/machine.h"
#include "replay/runqueue_dump.h"

namespace eevdf::replay {

// The observation shape of a profile: what the kernel release it models has.
template <class P>
constexpr unsigned profile_shape() {
  if constexpr (P::name == model::profile_6_12::name)  // Debian's 6.12.117: zero_vruntime backported
    return KSRC_SHAPE_ZERO_VRUNTIME | KSRC_SHAPE_MIN_SLICE | KSRC_SHAPE_H_NR_DELAYED;
  else
    return KSRC_SHAPE_VPROT | KSRC_SHAPE_VPROT_IN_VLAG | KSRC_SHAPE_MIN_SLICE;
}

namespace detail {
inline std::uint64_t low64(model::KernelArith::value v) {
  return static_cast<std::uint64_t>(static_cast<model::u128>(v));
}
}  // namespace detail

template <class P>
RunqueueDump runqueue_dump(const model::Machine<model::KernelArith, P>& m, int cpu) {
  using detail::low64;
  const auto& rq = m.rqs().at(static_cast<std::size_t>(cpu));
  const auto& cfs = rq.cfs;
  const auto id_of = [&](const model::sched_entity<model::KernelArith>* se) {
    return se == nullptr ? 0 : m.tasks().at(static_cast<std::size_t>(se->task)).id;
  };
  RunqueueDump d;
  d.source = fmt::format("reference {}", P::name);
  d.shape = profile_shape<P>();
  d.cpu = cpu;
  d.curr = rq.curr == nullptr ? 0 : rq.curr->id;
  d.next = id_of(cfs.next);
  d.need_resched = rq.need_resched;
  d.rq_nr_running = rq.nr_running;
  d.nr_queued = cfs.nr_queued;
  d.h_nr_queued = cfs.h_nr_queued;
  d.h_nr_runnable = cfs.h_nr_runnable;
  d.h_nr_delayed = cfs.h_nr_queued - static_cast<unsigned>(cfs.h_nr_runnable);
  d.load_weight = cfs.load_weight;
  d.sum_w_vruntime = static_cast<std::int64_t>(low64(cfs.avg_vruntime));
  d.sum_weight = cfs.avg_load;
  d.v0 = low64(cfs.min_vruntime);
  d.V = low64(m.avg_vruntime_of(cpu));
  const auto entity = [&](const model::sched_entity<model::KernelArith>& se, bool in_tree) {
    const auto& p = m.tasks().at(static_cast<std::size_t>(se.task));
    EntityDump e;
    e.task = p.id;
    e.in_tree = in_tree;
    e.is_curr = &se == cfs.curr;
    e.on_rq = se.on_rq;
    e.sched_delayed = se.sched_delayed;
    e.rel_deadline = se.rel_deadline;
    e.custom_slice = se.custom_slice;
    e.eligible = m.eligible(p);
    e.vruntime = low64(se.vruntime);
    e.deadline = low64(se.deadline);
    e.slice = se.slice;
    e.weight = se.load.weight;
    e.inv_weight = se.load.inv_weight;
    e.vlag = static_cast<std::int64_t>(low64(se.vlag));
    if (d.has(KSRC_SHAPE_VPROT)) e.vprot = low64(se.vprot);
    if (d.has(KSRC_SHAPE_VPROT_IN_VLAG)) {  // one storage in the kernel: curr's holds vprot, the others' vlag
      if (e.is_curr) e.vlag = static_cast<std::int64_t>(e.vprot);
      else e.vprot = static_cast<std::uint64_t>(e.vlag);
    }
    return e;
  };
  for (auto* se : cfs.timeline) d.entities.push_back(entity(*se, true));
  if (cfs.curr != nullptr && !cfs.timeline.contains(cfs.curr)) d.entities.push_back(entity(*cfs.curr, false));
  return d;
}

}  // namespace eevdf::replay
