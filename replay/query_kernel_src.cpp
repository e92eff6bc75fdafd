// See query_kernel_src.h.
#include "replay/query_kernel_src.h"

#include "model/weights.h"
#include "replay/query-inl.h"

namespace eevdf::replay {
namespace {

using kernel_src::Machine;

std::int64_t lag_of(const Machine& m, int p) {
  return static_cast<std::int64_t>(m.avg_vruntime_of(m.task(p).cpu) - m.task(p).se.vruntime);
}
std::int64_t deadline_rel_of(const Machine& m, int p) {
  return static_cast<std::int64_t>(m.task(p).se.deadline - m.avg_vruntime_of(m.task(p).cpu));
}

QueryResult yes_no(bool actual, std::int64_t expected) { return {actual == (expected != 0), actual ? "yes" : "no"}; }
QueryResult integer(std::int64_t actual, std::int64_t expected) { return {actual == expected, std::to_string(actual)}; }

}  // namespace

QueryResult evaluate_kernel_src(const Machine& m, const trace::Expect& x) {
  switch (x.query) {
    case trace::Query::curr: {
      const int p = m.curr_index(x.subject);
      const int id = p < 0 ? 0 : m.extra(p).id;
      return {id == x.value, id == 0 ? "idle" : std::to_string(id)};
    }
    case trace::Query::nr_running: return integer(m.rq(x.subject).nr_running, x.value);
    case trace::Query::nr_runnable:
      return integer(static_cast<std::int32_t>(m.rq(x.subject).cfs.h_nr_runnable), x.value);
    case trace::Query::nr_iowait: return integer(m.cpu_extra(x.subject).nr_iowait, x.value);
    case trace::Query::nr_iowait_acct: return integer(m.cpu_extra(x.subject).nr_iowait_acct, x.value);
    case trace::Query::measure: return {false, "measures need the property checker"};
    case trace::Query::ideal_lag: return {false, "kernel-src has no ideal arithmetic"};
    default: break;
  }
  const int p = m.task_index(x.subject);
  const model::task_state s = m.state_of(p);
  const auto& se = m.task(p).se;
  switch (x.query) {
    case trace::Query::state:
      return {static_cast<int>(s) == x.value, trace::state_name(static_cast<trace::TaskState>(s))};
    case trace::Query::cpu: return integer(m.task(p).cpu, x.value);
    case trace::Query::slice: return integer(static_cast<std::int64_t>(se.slice), x.value);
    case trace::Query::weight:
      return integer(static_cast<std::int64_t>(model::scale_load_down(se.load.weight)), x.value);
    case trace::Query::sum_exec: return integer(static_cast<std::int64_t>(se.sum_exec_runtime), x.value);
    default: break;
  }
  if (!on_runqueue(s))
    return {false, std::string("task is ") + trace::state_name(static_cast<trace::TaskState>(s)) + ", not on a runqueue"};
  switch (x.query) {
    case trace::Query::eligible: return yes_no(m.eligible(p), x.value);
    case trace::Query::protected_: return yes_no(m.protected_slice(p), x.value);
    case trace::Query::lag: return integer(lag_of(m, p), x.value);
    default: {
      const Rational rel(deadline_rel_of(m, p));
      return {rel == to_rational(x.rational), rel.str()};
    }
  }
}

// The reference's dump (query-inl.h dump_state), field for field.
nlohmann::ordered_json dump_kernel_src(const Machine& m, int line, const std::string& event, bool all_cpus) {
  nlohmann::ordered_json cpus = nlohmann::ordered_json::array();
  for (int c = 0; c < m.ncpus(); ++c) {
    if (!all_cpus && !m.cpu_extra(c).ever_enqueued) continue;
    const int curr = m.curr_index(c);
    cpus.push_back({{"cpu", c},
                    {"curr", curr < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(m.extra(curr).id)},
                    {"nr_running", m.rq(c).nr_running},
                    {"nr_runnable", static_cast<std::int32_t>(m.rq(c).cfs.h_nr_runnable)},
                    {"nr_iowait", m.cpu_extra(c).nr_iowait},
                    {"nr_iowait_acct", m.cpu_extra(c).nr_iowait_acct}});
  }
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (int p = 0; p < m.ntasks(); ++p) {
    const model::task_state s = m.state_of(p);
    const bool queued = on_runqueue(s);
    const auto& se = m.task(p).se;
    nlohmann::ordered_json null;
    tasks.push_back({{"id", m.extra(p).id},
                     {"state", trace::state_name(static_cast<trace::TaskState>(s))},
                     {"cpu", m.task(p).cpu},
                     {"lag", queued ? nlohmann::ordered_json(lag_of(m, p)) : null},
                     {"deadline_rel", queued ? nlohmann::ordered_json(deadline_rel_of(m, p)) : null},
                     {"eligible", queued ? nlohmann::ordered_json(m.eligible(p)) : null},
                     {"protected", queued ? nlohmann::ordered_json(m.protected_slice(p)) : null},
                     {"sum_exec", se.sum_exec_runtime},
                     {"weight", model::scale_load_down(se.load.weight)},
                     {"slice", se.slice}});
  }
  return {{"line", line}, {"t", m.now()}, {"event", event}, {"cpus", cpus}, {"tasks", tasks}};
}

}  // namespace eevdf::replay
