// Canonical trace text; see writer.h. Defaults that were not written stay unwritten,
// so a saved trace says only what its author (or the shrinker) chose.
#include "trace/writer.h"

#include "base/assert.h"
#include <sstream>

#include "trace/units.h"

namespace eevdf::trace {
namespace {

std::string format_topology(const TopologySpec& t) {
  if (!t.long_form) return std::to_string(t.sockets) + "x" + std::to_string(t.cores_per_socket);
  return "sockets=" + std::to_string(t.sockets) + " llcs=" + std::to_string(t.llcs) +
         " cores=" + std::to_string(t.cores) + " smt=" + std::to_string(t.smt);
}

std::string format_task(const TaskDecl& t) {
  std::string out = "task " + std::to_string(t.id);
  if (t.nice != 0) out += " nice=" + std::to_string(t.nice);
  if (t.slice_ns != 0) out += " slice=" + format_duration(t.slice_ns);
  if (!t.name.empty()) out += " name=" + t.name;
  if (t.cpu) out += " cpu=" + std::to_string(*t.cpu);
  return out;
}

std::string format_rational(const RationalText& r) {
  return r.denominator == "1" ? r.numerator : r.numerator + "/" + r.denominator;
}

std::string task_or_cpu(const Event& e) {
  return e.task != 0 ? std::to_string(e.task) : "cpu=" + std::to_string(e.cpu.value_or(-1));
}

std::string event_arguments(const Event& e) {
  const std::string cpu_opt = e.cpu ? " cpu=" + std::to_string(*e.cpu) : "";
  switch (e.verb) {
    case Verb::fork:
    case Verb::wake:
    case Verb::migrate: return std::to_string(e.task) + cpu_opt;
    case Verb::sleep:
      return task_or_cpu(e) + (e.io == Io::io ? " io" : e.io == Io::noacct ? " io=noacct" : "");
    case Verb::yield:
    case Verb::exit: return task_or_cpu(e);
    case Verb::tick: return e.all_cpus ? "all" : std::to_string(e.cpu.value_or(-1));
    case Verb::renice: return std::to_string(e.task) + " " + std::to_string(e.nice);
    case Verb::setslice: return std::to_string(e.task) + " " + format_duration(e.slice_ns);
  }
  return {};
}

std::string expect_value(const Expect& x) {
  switch (x.query) {
    case Query::curr: return x.value == 0 ? "idle" : std::to_string(x.value);
    case Query::state: return state_name(static_cast<TaskState>(x.value));
    case Query::eligible:
    case Query::protected_: return x.value != 0 ? "yes" : "no";
    case Query::ideal_lag:
    case Query::deadline_rel: return format_rational(x.rational);
    case Query::slice:
    case Query::sum_exec: return format_duration(static_cast<std::uint64_t>(x.value));
    default: return std::to_string(x.value);
  }
}

}  // namespace

std::string format_event(const Event& e) {
  return "@" + format_duration(e.time_ns) + " " + verb_name(e.verb) + " " + event_arguments(e);
}

std::string format_expect(const Expect& x) {
  if (x.query == Query::measure) {
    // A decimal measure is written as p/q, which reads back to the same rational.
    return "expect measure " + x.measure + " " + op_name(x.op) + " " + format_rational(x.rational);
  }
  return std::string("expect ") + query_name(x.query) + " " + std::to_string(x.subject) + " " + expect_value(x);
}

void write_header(std::ostream& out, const Header& h) {
  for (const std::string& c : h.preamble) out << "#" << c << "\n";
  out << "eevdf-trace " << kFormatVersion << "\n";
  if (h.kernel) out << "kernel " << *h.kernel << "\n";
  if (h.arith) out << "arith " << arith_name(*h.arith) << "\n";
  if (h.topology) out << "topology " << format_topology(*h.topology) << "\n";
  if (h.hz) out << "hz " << *h.hz << "\n";
  if (h.base_slice_ns) out << "base_slice " << format_duration(*h.base_slice_ns) << "\n";
  if (!h.features.empty()) {
    out << "features";
    for (const auto& [name, on] : h.features) out << " " << (on ? "" : "NO_") << name;
    out << "\n";
  }
  for (const std::string& name : h.injections) out << "inject " << name << "\n";
  for (const TaskDecl& t : h.tasks) out << format_task(t) << "\n";
  for (const std::string& p : h.expect_violations) out << "expect violation " << p << "\n";
  for (const std::string& f : h.expect_findings) out << "expect finding " << f << "\n";
  if (h.expect_clean) out << "expect clean\n";
  for (const Expect& x : h.initial_expects) out << format_expect(x) << "\n";
}

void write_statement(std::ostream& out, const BodyStatement& s) {
  if (const Event* e = std::get_if<Event>(&s)) out << format_event(*e) << "\n";
  else out << format_expect(std::get<Expect>(s)) << "\n";
}

std::string to_text(const Trace& trace) {
  std::ostringstream out;
  write_header(out, trace.header);
  for (const BodyStatement& s : trace.body) write_statement(out, s);
  return out.str();
}

}  // namespace eevdf::trace
