// The field-by-field comparison of compare.h.
#include "kernel_src/compare.h"

#include <fmt/format.h>

#include <cstdint>

namespace eevdf::kernel_src {
namespace {

using model::KernelArith;

std::uint64_t low64(KernelArith::value v) { return static_cast<std::uint64_t>(static_cast<model::u128>(v)); }

struct Diff {
  std::string out;
  template <class T, class U>
  void check(const std::string& where, const char* field, const T& ref, const U& ksrc) {
    if (out.empty() && !(ref == ksrc)) out = fmt::format("{}: {}: reference {}, kernel-src {}", where, field, ref, ksrc);
  }
};

int entity_task_id(const Reference612& ref, const model::sched_entity<KernelArith>* se) {
  return se == nullptr ? 0 : ref.tasks().at(static_cast<std::size_t>(se->task)).id;
}

int entity_task_id(const Machine& k, const c::sched_entity* se) {
  if (se == nullptr) return 0;
  for (int p = 0; p < k.ntasks(); ++p)
    if (&k.task(p).se == se) return k.extra(p).id;
  return -1;
}

void compare_cpu(Diff& d, const Reference612& ref, const Machine& k, int cpu) {
  const auto& r = ref.rqs().at(static_cast<std::size_t>(cpu));
  const c::rq& q = k.rq(cpu);
  const std::string where = fmt::format("CPU {}", cpu);
  d.check(where, "curr", r.curr == nullptr ? 0 : r.curr->id, q.curr == nullptr ? 0 : k.extra(q.curr->index).id);
  d.check(where, "nr_running", r.nr_running, q.nr_running);
  d.check(where, "nr_iowait", r.nr_iowait, k.cpu_extra(cpu).nr_iowait);
  d.check(where, "nr_iowait_acct", r.nr_iowait_acct, k.cpu_extra(cpu).nr_iowait_acct);
  d.check(where, "cfs.load.weight", r.cfs.load_weight, std::uint64_t{q.cfs.load.weight});
  d.check(where, "cfs.nr_running", r.cfs.nr_queued, q.cfs.nr_running);
  d.check(where, "cfs.h_nr_queued", r.cfs.h_nr_queued, q.cfs.h_nr_queued);
  d.check(where, "cfs.h_nr_runnable", static_cast<std::int64_t>(r.cfs.h_nr_runnable),
          static_cast<std::int64_t>(static_cast<std::int32_t>(q.cfs.h_nr_runnable)));
  d.check(where, "cfs.h_nr_delayed", r.cfs.h_nr_queued - static_cast<unsigned>(r.cfs.h_nr_runnable),
          q.cfs.h_nr_delayed);
  d.check(where, "cfs.avg_vruntime", low64(r.cfs.avg_vruntime), static_cast<std::uint64_t>(q.cfs.avg_vruntime));
  d.check(where, "cfs.avg_load", r.cfs.avg_load, q.cfs.avg_load);
  d.check(where, "cfs.zero_vruntime", low64(r.cfs.min_vruntime), q.cfs.zero_vruntime);
  d.check(where, "cfs.next", entity_task_id(ref, r.cfs.next), entity_task_id(k, q.cfs.next));
  d.check(where, "V", low64(ref.avg_vruntime_of(cpu)), k.avg_vruntime_of(cpu));
}

void compare_task(Diff& d, const Reference612& ref, const Machine& k, int p) {
  const auto& r = ref.tasks().at(static_cast<std::size_t>(p));
  const c::task_struct& t = k.task(p);
  const std::string where = fmt::format("task {}", r.id);
  const model::task_state state = ref.state_of(r);
  d.check(where, "state", static_cast<int>(state), static_cast<int>(k.state_of(p)));
  if (state == model::task_state::new_) return;
  d.check(where, "cpu", r.cpu, t.cpu);
  d.check(where, "se.on_rq", r.se.on_rq, t.se.on_rq != 0);
  d.check(where, "se.sched_delayed", r.se.sched_delayed, t.se.sched_delayed != 0);
  d.check(where, "se.rel_deadline", r.se.rel_deadline, t.se.rel_deadline != 0);
  d.check(where, "se.custom_slice", r.se.custom_slice, t.se.custom_slice != 0);
  d.check(where, "se.vruntime", low64(r.se.vruntime), t.se.vruntime);
  d.check(where, "se.deadline", low64(r.se.deadline), t.se.deadline);
  d.check(where, "se.vlag", low64(r.se.vlag), static_cast<std::uint64_t>(t.se.vlag));
  d.check(where, "se.slice", r.se.slice, t.se.slice);
  d.check(where, "se.load.weight", r.se.load.weight, std::uint64_t{t.se.load.weight});
  d.check(where, "se.load.inv_weight", r.se.load.inv_weight, t.se.load.inv_weight);
  d.check(where, "se.exec_start", r.se.exec_start, t.se.exec_start);
  d.check(where, "se.sum_exec_runtime", r.se.sum_exec_runtime, t.se.sum_exec_runtime);
  d.check(where, "se.prev_sum_exec_runtime", r.se.prev_sum_exec_runtime, t.se.prev_sum_exec_runtime);
  if (state == model::task_state::running || state == model::task_state::queued ||
      state == model::task_state::delayed) {
    d.check(where, "eligible", ref.eligible(r), k.eligible(p));
    d.check(where, "protected", ref.protected_slice(r), k.protected_slice(p));
  }
}

}  // namespace

std::string first_difference(const Reference612& ref, const Machine& k) {
  Diff d;
  d.check("machine", "now", ref.now(), k.now());
  for (int cpu = 0; cpu < k.ncpus() && d.out.empty(); ++cpu) compare_cpu(d, ref, k, cpu);
  for (int p = 0; p < k.ntasks() && d.out.empty(); ++p) compare_task(d, ref, k, p);
  return d.out;
}

}  // namespace eevdf::kernel_src
