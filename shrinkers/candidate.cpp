// Candidate construction; see candidate.h.
#include "shrinkers/candidate.h"

#include <set>  // task ids
#include <variant>  // std::get_if

#include "base/assert.h"

namespace eevdf::shrinkers {

void drop_unnamed_declarations(Work& w) {
  std::set<int> named;
  for (const trace::Event& e : w.events)
    if (e.task != 0) named.insert(e.task);
  std::vector<trace::TaskDecl> kept;
  for (const trace::TaskDecl& d : w.header.tasks)
    if (named.count(d.id) != 0) kept.push_back(d);
  EEVDF_ASSERT(kept.size() <= w.header.tasks.size(), "dropping declarations never adds one");
  w.header.tasks = std::move(kept);
}

Work strip_expectations(const trace::Trace& t) {
  Work w;
  w.header = t.header;
  w.header.expect_violations.clear();
  w.header.expect_findings.clear();
  w.header.expect_clean = false;
  w.header.initial_expects.clear();
  for (const trace::BodyStatement& s : t.body)
    if (const trace::Event* e = std::get_if<trace::Event>(&s)) w.events.push_back(*e);
  EEVDF_ASSERT(!w.header.has_trace_expectations(), "stripped of trace-wide expectations");
  EEVDF_ASSERT(w.events.size() <= t.body.size(), "only Expect statements are dropped");
  return w;
}

trace::Trace to_trace(const Work& w) {
  trace::Trace t;
  t.header = w.header;
  t.body.reserve(w.events.size());
  int line = 0;
  for (const trace::Event& e : w.events) {
    t.body.emplace_back(e);
    std::get<trace::Event>(t.body.back()).line = ++line;
  }
  EEVDF_ASSERT(t.body.size() == w.events.size(), "one statement per event");
  return t;
}

Work kept_by(const Work& w, const Verdict& verdict) {
  EEVDF_ASSERT(verdict.events_used <= w.events.size(), "the verdict is about these events");
  Work out;
  out.header = w.header;
  std::size_t next_dropped = 0;
  for (std::size_t i = 0; i < verdict.events_used; ++i) {
    if (next_dropped < verdict.dropped.size() && verdict.dropped[next_dropped] == i) {
      ++next_dropped;
      continue;
    }
    out.events.push_back(w.events[i]);
  }
  drop_unnamed_declarations(out);
  EEVDF_ASSERT(out.events.size() + verdict.dropped.size() >= verdict.events_used, "only listed events are dropped");
  return out;
}

Work delete_events(const Work& w, std::size_t first, std::size_t count) {
  EEVDF_ASSERT(first < w.events.size(), "the block starts inside the trace");
  EEVDF_ASSERT(count > 0, "an empty block deletes nothing");
  const std::size_t last = first + count < w.events.size() ? first + count : w.events.size();
  std::set<int> unforked;  // tasks whose fork is in the block
  for (std::size_t i = first; i < last; ++i)
    if (w.events[i].verb == trace::Verb::fork) unforked.insert(w.events[i].task);
  Work out;
  out.header = w.header;
  for (std::size_t i = 0; i < w.events.size(); ++i) {
    const trace::Event& e = w.events[i];
    const bool in_block = i >= first && i < last;
    if (!in_block && unforked.count(e.task) == 0) out.events.push_back(e);
  }
  drop_unnamed_declarations(out);
  EEVDF_ASSERT(out.events.size() + (last - first) <= w.events.size(), "the whole block is gone");
  return out;
}

Work delete_task(const Work& w, int id) {
  EEVDF_ASSERT(id > 0, "task ids are positive");
  Work out;
  out.header = w.header;
  for (const trace::Event& e : w.events)
    if (e.task != id) out.events.push_back(e);
  drop_unnamed_declarations(out);
  EEVDF_ASSERT(out.header.find_task(id) == nullptr, "the task's declaration is gone");
  return out;
}

}  // namespace eevdf::shrinkers
