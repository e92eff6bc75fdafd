// The independent 1-minimality neighbours; see minimality.h.
#include "shrinkers/tests/minimality.h"

#include <optional>  // folds without an exact slice
#include <set>      // task ids
#include <variant>  // std::get_if

#include "model/arith_kernel.h"
#include "model/tunables.h"
#include "properties/property.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "shrinkers/tests/padding.h"
#include "trace/error.h"

namespace eevdf::shrinkers::testing {
namespace {

class NullSink final : public properties::Sink {
 public:
  void violation(const properties::Violation&) override {}
  void measure(std::string_view, const std::string&, const std::string&) override {}
};

// The index (among events) of the first event the replay rejects, or -1.
long first_illegal(const trace::Trace& t) {
  const model::Config config = replay::make_config(t.header, replay::Options{}, "neighbour");
  NullSink sink;
  properties::Selection none;
  none.check = {"no_overflow"};
  replay::CheckedRun<model::KernelArith> run(config, replay::make_task_specs(t.header), sink, none);
  std::set<int> forked;
  long index = 0;
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;
    const bool new_task = e->task != 0 && forked.count(e->task) == 0;
    const bool needs_fork = e->verb != trace::Verb::fork && e->verb != trace::Verb::renice &&
                            e->verb != trace::Verb::setslice && e->verb != trace::Verb::tick;
    if ((e->task != 0 && t.header.find_task(e->task) == nullptr) || (new_task && needs_fork)) return index;
    if (!run.apply(*e).empty()) return index;
    if (e->verb == trace::Verb::fork) forked.insert(e->task);
    ++index;
  }
  return -1;
}

std::vector<trace::Event> events_of(const trace::Trace& t) {
  std::vector<trace::Event> out;
  for (const trace::BodyStatement& s : t.body)
    if (const trace::Event* e = std::get_if<trace::Event>(&s)) out.push_back(*e);
  return out;
}

trace::Trace rebuilt(const trace::Header& h, const std::vector<trace::Event>& events) {
  trace::Trace out;
  out.header = h;
  std::set<int> named;
  for (const trace::Event& e : events) {
    out.body.emplace_back(e);
    if (e.task != 0) named.insert(e.task);
  }
  std::vector<trace::TaskDecl> decls;
  for (const trace::TaskDecl& d : h.tasks)
    if (named.count(d.id) != 0) decls.push_back(d);
  out.header.tasks = decls;
  return out;
}

// nullopt when no base_slice keeps the scaled slice exactly.
std::optional<trace::Trace> fold_highest(const trace::Trace& t, int into, bool keep_scaled_slice) {
  const int n = cpu_count(t);
  trace::Trace out = t;
  out.header.topology = trace::TopologySpec{};
  out.header.topology->sockets = 1;
  out.header.topology->cores_per_socket = n - 1;
  if (keep_scaled_slice) {
    const std::uint64_t scaled = model::sched_base_slice(t.header.base_slice_ns.value_or(700000), n);
    const std::uint32_t factor = model::get_update_sysctl_factor(n - 1);
    if (scaled % factor != 0) return std::nullopt;
    out.header.base_slice_ns = scaled / factor;
  }
  for (trace::TaskDecl& d : out.header.tasks)
    if (d.cpu == n - 1) d.cpu = into;
  for (trace::BodyStatement& s : out.body)
    if (trace::Event* e = std::get_if<trace::Event>(&s); e != nullptr && e->cpu == n - 1) e->cpu = into;
  return out;
}

}  // namespace

trace::Trace repaired(const trace::Trace& t) {
  trace::Trace out = t;
  // Each step removes an event: at most as many steps as events.
  for (std::size_t step = 0; step <= t.body.size(); ++step) {
    long bad = -1;
    try {
      bad = first_illegal(out);
    } catch (const trace::TraceError&) {
      return out;  // the header itself is invalid: the predicate rejects it
    }
    if (bad < 0) return out;
    std::vector<trace::Event> events = events_of(out);
    events.erase(events.begin() + bad);
    out = rebuilt(out.header, events);
  }
  return out;
}

std::vector<Neighbour> neighbours(const trace::Trace& t) {
  std::vector<Neighbour> out;
  for (std::size_t i = 0; i < count_events(t); ++i)
    out.push_back({"delete event " + std::to_string(i), repaired(without_event(t, i))});
  for (const trace::TaskDecl& d : t.header.tasks) {
    std::vector<trace::Event> kept;
    for (const trace::Event& e : events_of(t))
      if (e.task != d.id) kept.push_back(e);
    out.push_back({"delete task " + std::to_string(d.id), repaired(rebuilt(t.header, kept))});
  }
  const int n = cpu_count(t);
  for (int c = 0; c + 1 < n; ++c)
    for (const bool keep : {false, true})
      if (const std::optional<trace::Trace> folded = fold_highest(t, c, keep))
        out.push_back({"fold CPU " + std::to_string(n - 1) + " into " + std::to_string(c) +
                           (keep ? " (scaled slice kept)" : " (base_slice kept)"),
                       repaired(*folded)});
  return out;
}

int cpu_count(const trace::Trace& t) { return t.header.topology_or_default().ncpus(); }
std::size_t task_count(const trace::Trace& t) { return t.header.tasks.size(); }

}  // namespace eevdf::shrinkers::testing
