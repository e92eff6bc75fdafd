// Pass 7, the canonical form; see normalize.h.
#include "shrinkers/normalize.h"

#include <algorithm>  // std::sort
#include <map>        // old id -> new id

#include "base/assert.h"

namespace eevdf::shrinkers {

Work normalized(const Work& w) {
  std::map<int, int> renumber;  // by first appearance; then the tasks no event names
  for (const trace::Event& e : w.events)
    if (e.task != 0 && renumber.count(e.task) == 0) renumber.emplace(e.task, static_cast<int>(renumber.size()) + 1);
  for (const trace::TaskDecl& d : w.header.tasks)
    if (renumber.count(d.id) == 0) renumber.emplace(d.id, static_cast<int>(renumber.size()) + 1);
  Work out = w;
  for (trace::TaskDecl& d : out.header.tasks) d.id = renumber.at(d.id);
  std::sort(out.header.tasks.begin(), out.header.tasks.end(),
            [](const trace::TaskDecl& a, const trace::TaskDecl& b) { return a.id < b.id; });
  const std::uint64_t origin = w.events.empty() ? 0 : w.events.front().time_ns;
  for (trace::Event& e : out.events) {
    if (e.task != 0) e.task = renumber.at(e.task);
    e.time_ns -= origin;
  }
  EEVDF_ASSERT(out.events.size() == w.events.size(), "normalizing keeps every event");
  EEVDF_ASSERT(out.header.tasks.size() == w.header.tasks.size(), "normalizing keeps every task");
  return out;
}

bool normalize_pass(Search& search, Work& w, PassStats& stats) {
  Work candidate = normalized(w);
  if (candidate == w || !search.accepts(candidate, stats)) return false;
  w = std::move(candidate);
  return true;
}

}  // namespace eevdf::shrinkers
