// Evaluation of state queries (`expect ...`) and of the `--dump` view against one
// model instance. Templates over the arithmetic; included by engine_model.cpp.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "base/assert.h"
#include "model/machine.h"
#include "model/weights.h"
#include "trace/trace.h"

namespace eevdf::replay {

using Rational = boost::multiprecision::mpq_rational;

struct QueryResult {
  bool ok = false;
  std::string actual;  // how the model answered, for the message
};

inline bool on_runqueue(model::task_state s) {
  return s == model::task_state::running || s == model::task_state::queued || s == model::task_state::delayed;
}

inline Rational to_rational(const trace::RationalText& r) { return Rational(r.numerator + "/" + r.denominator); }

// `expect measure NAME OP VALUE` against the measure's current value.
inline QueryResult compare_measure(const trace::Expect& x, const Rational& actual) {
  const Rational expected = to_rational(x.rational);
  bool ok = false;
  switch (x.op) {
    case trace::CompareOp::lt: ok = actual < expected; break;
    case trace::CompareOp::le: ok = actual <= expected; break;
    case trace::CompareOp::eq: ok = actual == expected; break;
    case trace::CompareOp::ge: ok = actual >= expected; break;
    case trace::CompareOp::gt: ok = actual > expected; break;
  }
  return {ok, actual.str()};
}

template <class A>
Rational to_rational(const typename A::value& v) {
  return Rational(A::to_string(v));
}

// V - vruntime (lag) or deadline - V (deadline_rel) of a queued task.
template <class A, class P>
typename A::value lag_of(const model::Machine<A, P>& m, const model::task_struct<A>& p) {
  return m.avg_vruntime_of(p.cpu) - p.se.vruntime;
}
template <class A, class P>
typename A::value deadline_rel_of(const model::Machine<A, P>& m, const model::task_struct<A>& p) {
  return p.se.deadline - m.avg_vruntime_of(p.cpu);
}

template <class A>
QueryResult compare_int(std::int64_t expected, std::int64_t actual) {
  return {expected == actual, std::to_string(actual)};
}

// Queries about a task that need it on a runqueue.
template <class A, class P>
QueryResult evaluate_queued(const model::Machine<A, P>& m, const model::task_struct<A>& p, const trace::Expect& x) {
  switch (x.query) {
    case trace::Query::eligible: {
      const bool e = m.eligible(p);
      return {e == (x.value != 0), e ? "yes" : "no"};
    }
    case trace::Query::protected_: {
      const bool e = m.protected_slice(p);
      return {e == (x.value != 0), e ? "yes" : "no"};
    }
    case trace::Query::lag: {
      const Rational lag = to_rational<A>(lag_of(m, p));
      return {lag == Rational(x.value), lag.str()};
    }
    case trace::Query::ideal_lag: {
      const Rational lag = to_rational<A>(lag_of(m, p));
      return {lag == to_rational(x.rational), lag.str()};
    }
    case trace::Query::deadline_rel: {
      const Rational rel = to_rational<A>(deadline_rel_of(m, p));
      return {rel == to_rational(x.rational), rel.str()};
    }
    default: EEVDF_UNREACHABLE("not a query about a queued task: evaluate_task dispatches only those here");
  }
}

template <class A, class P>
QueryResult evaluate_task(const model::Machine<A, P>& m, const model::task_struct<A>& p, const trace::Expect& x) {
  const model::task_state s = m.state_of(p);
  switch (x.query) {
    case trace::Query::state: return {static_cast<int>(s) == x.value, trace::state_name(static_cast<trace::TaskState>(s))};
    case trace::Query::cpu: return compare_int<A>(x.value, p.cpu);
    case trace::Query::slice: return compare_int<A>(x.value, static_cast<std::int64_t>(p.se.slice));
    case trace::Query::weight:
      return compare_int<A>(x.value, static_cast<std::int64_t>(model::scale_load_down(p.se.load.weight)));
    case trace::Query::sum_exec: return compare_int<A>(x.value, static_cast<std::int64_t>(p.se.sum_exec_runtime));
    default:
      if (!on_runqueue(s))
        return {false, std::string("task is ") + trace::state_name(static_cast<trace::TaskState>(s)) +
                           ", not on a runqueue"};
      return evaluate_queued(m, p, x);
  }
}

template <class A, class P>
QueryResult evaluate_cpu(const model::Machine<A, P>& m, const trace::Expect& x) {
  const auto& rq = m.rqs().at(static_cast<std::size_t>(x.subject));
  switch (x.query) {
    case trace::Query::curr: {
      const int id = rq.curr == nullptr ? 0 : rq.curr->id;
      return {id == x.value, id == 0 ? "idle" : std::to_string(id)};
    }
    case trace::Query::nr_running: return compare_int<A>(x.value, rq.nr_running);
    case trace::Query::nr_runnable: return compare_int<A>(x.value, rq.cfs.h_nr_runnable);
    case trace::Query::nr_iowait: return compare_int<A>(x.value, rq.nr_iowait);
    case trace::Query::nr_iowait_acct: return compare_int<A>(x.value, rq.nr_iowait_acct);
    default: EEVDF_UNREACHABLE("not a CPU query: evaluate dispatches only those here");
  }
}

template <class A, class P>
QueryResult evaluate(const model::Machine<A, P>& m, const trace::Expect& x) {
  switch (x.query) {
    case trace::Query::curr:
    case trace::Query::nr_running:
    case trace::Query::nr_runnable:
    case trace::Query::nr_iowait:
    case trace::Query::nr_iowait_acct: return evaluate_cpu(m, x);
    default: break;
  }
  const int index = m.task_index(x.subject);
  return evaluate_task(m, m.tasks().at(static_cast<std::size_t>(index)), x);
}

// A number for the dump: an integer when it is one, else "p/q" (docs/TRACE_FORMAT.md).
inline nlohmann::ordered_json json_number(const Rational& r) {
  if (boost::multiprecision::denominator(r) == 1) {
    const auto n = boost::multiprecision::numerator(r);
    if (n >= INT64_MIN && n <= INT64_MAX) return n.convert_to<std::int64_t>();
  }
  return r.str();
}

template <class A, class P>
nlohmann::ordered_json dump_state(const model::Machine<A, P>& m, int line, const std::string& event, bool all_cpus) {
  nlohmann::ordered_json cpus = nlohmann::ordered_json::array();
  for (const auto& rq : m.rqs()) {
    if (!all_cpus && !rq.ever_enqueued) continue;
    cpus.push_back({{"cpu", rq.cpu},
                    {"curr", rq.curr == nullptr ? nlohmann::ordered_json() : nlohmann::ordered_json(rq.curr->id)},
                    {"nr_running", rq.nr_running},
                    {"nr_runnable", rq.cfs.h_nr_runnable},
                    {"nr_iowait", rq.nr_iowait},
                    {"nr_iowait_acct", rq.nr_iowait_acct}});
  }
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const auto& p : m.tasks()) {
    const model::task_state s = m.state_of(p);
    const bool queued = on_runqueue(s);
    nlohmann::ordered_json null;
    tasks.push_back({{"id", p.id},
                     {"state", trace::state_name(static_cast<trace::TaskState>(s))},
                     {"cpu", p.cpu},
                     {"lag", queued ? json_number(to_rational<A>(lag_of(m, p))) : null},
                     {"deadline_rel", queued ? json_number(to_rational<A>(deadline_rel_of(m, p))) : null},
                     {"eligible", queued ? nlohmann::ordered_json(m.eligible(p)) : null},
                     {"protected", queued ? nlohmann::ordered_json(m.protected_slice(p)) : null},
                     {"sum_exec", p.se.sum_exec_runtime},
                     {"weight", model::scale_load_down(p.se.load.weight)},
                     {"slice", p.se.slice}});
  }
  return {{"line", line}, {"t", m.now()}, {"event", event}, {"cpus", cpus}, {"tasks", tasks}};
}

}  // namespace eevdf::replay
