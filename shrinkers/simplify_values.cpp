// Pass 5, plainer values; see simplify_values.h.
#include "shrinkers/simplify_values.h"

#include <functional>  // the field setters

#include "base/assert.h"
#include "model/tunables.h"
#include "shrinkers/values.h"

namespace eevdf::shrinkers {
namespace {

// One value of the trace: how to set it on a copy, and whether the copy still holds
// the same thing there (a repair may drop events and shift indices).
struct Site {
  std::function<bool(const Work&)> present;
  std::function<void(Work&, std::int64_t)> set;
};

// Tries `value` at `site`; on success `w` is the accepted trace.
bool try_value(Search& search, Work& w, const Site& site, std::int64_t value, PassStats& stats) {
  if (search.spent() || !site.present(w)) return false;
  Work candidate = w;
  site.set(candidate, value);
  if (candidate == w || !search.accepts(candidate, stats)) return false;
  w = std::move(candidate);
  return true;
}

// The first of `values` that still fails.
bool try_in_order(Search& search, Work& w, const Site& site, const std::vector<std::int64_t>& values,
                  PassStats& stats) {
  for (const std::int64_t v : values)
    if (try_value(search, w, site, v, stats)) return true;
  return false;
}

// A custom slice: none, else the roundest smaller one from the 0.1 ms minimum.
bool simplify_slice(Search& search, Work& w, const Site& site, std::uint64_t slice_ns, PassStats& stats) {
  if (slice_ns == 0) return false;
  if (try_value(search, w, site, 0, stats)) return true;
  if (slice_ns <= model::CUSTOM_SLICE_MIN_NS) return false;
  bool progress = false;
  bisect_roundest(model::CUSTOM_SLICE_MIN_NS - 1, slice_ns, [&](std::uint64_t x) {
    const bool ok = try_value(search, w, site, static_cast<std::int64_t>(x), stats);
    progress |= ok;
    return ok;
  });
  return progress;
}

bool simplify_declaration(Search& search, Work& w, int id, PassStats& stats) {
  const auto decl = [id](Work& x) -> trace::TaskDecl& {
    for (trace::TaskDecl& d : x.header.tasks)
      if (d.id == id) return d;
    EEVDF_ASSERT(false, "the site's task is declared");
    return x.header.tasks.front();
  };
  const auto present = [id](const Work& x) { return x.header.find_task(id) != nullptr; };
  bool progress = false;
  const trace::TaskDecl d = decl(w);
  progress |= try_in_order(search, w, {present, [&](Work& x, std::int64_t v) { decl(x).nice = static_cast<int>(v); }},
                           toward(d.nice, 0), stats);
  progress |= simplify_slice(search, w,
                             {present, [&](Work& x, std::int64_t v) { decl(x).slice_ns = static_cast<std::uint64_t>(v); }},
                             d.slice_ns, stats);
  if (d.cpu) progress |= try_value(search, w, {present, [&](Work& x, std::int64_t) { decl(x).cpu.reset(); }}, 0, stats);
  return progress;
}

// Whether task `id` has no `fork` before event i, or one at the same time: its
// value then can as well be the declaration's (the replay judges whether it fails).
bool new_at(const Work& w, std::size_t i, int id) {
  for (std::size_t k = 0; k < i; ++k)
    if (w.events[k].task == id && w.events[k].verb == trace::Verb::fork) return w.events[k].time_ns == w.events[i].time_ns;
  return true;
}

// A renice or setslice of a new (or just forked) task said in its declaration
// instead: one event fewer.
bool absorb_into_declaration(Search& search, Work& w, std::size_t i, PassStats& stats) {
  const trace::Event e = w.events[i];
  if ((e.verb != trace::Verb::renice && e.verb != trace::Verb::setslice) || !new_at(w, i, e.task)) return false;
  Work candidate = w;
  for (trace::TaskDecl& d : candidate.header.tasks) {
    if (d.id != e.task) continue;
    if (e.verb == trace::Verb::renice) d.nice = e.nice;
    if (e.verb == trace::Verb::setslice) d.slice_ns = e.slice_ns;
  }
  candidate.events.erase(candidate.events.begin() + static_cast<std::ptrdiff_t>(i));
  if (!search.accepts(candidate, stats)) return false;
  w = std::move(candidate);
  return true;
}

bool simplify_event(Search& search, Work& w, std::size_t i, PassStats& stats) {
  if (absorb_into_declaration(search, w, i, stats)) return true;
  const trace::Event e = w.events[i];
  const auto present = [i, e](const Work& x) {
    return i < x.events.size() && x.events[i].verb == e.verb && x.events[i].task == e.task;
  };
  const auto at = [i](Work& x) -> trace::Event& { return x.events[i]; };
  switch (e.verb) {
    case trace::Verb::renice:
      return try_in_order(search, w, {present, [&](Work& x, std::int64_t v) { at(x).nice = static_cast<int>(v); }},
                          toward(e.nice, 0), stats);
    case trace::Verb::setslice:
      return simplify_slice(search, w,
                            {present, [&](Work& x, std::int64_t v) { at(x).slice_ns = static_cast<std::uint64_t>(v); }},
                            e.slice_ns, stats);
    case trace::Verb::sleep: {
      const Site io{present, [&](Work& x, std::int64_t v) { at(x).io = static_cast<trace::Io>(v); }};
      if (e.io == trace::Io::noacct)
        return try_in_order(search, w, io, {static_cast<std::int64_t>(trace::Io::none), static_cast<std::int64_t>(trace::Io::io)}, stats);
      if (e.io == trace::Io::io) return try_value(search, w, io, static_cast<std::int64_t>(trace::Io::none), stats);
      return false;
    }
    case trace::Verb::fork:
    case trace::Verb::wake:
      if (!e.cpu) return false;
      return try_value(search, w, {present, [&](Work& x, std::int64_t) { at(x).cpu.reset(); }}, 0, stats);
    default: return false;
  }
}

}  // namespace

bool simplify_values_pass(Search& search, Work& w, PassStats& stats) {
  bool progress = false;
  std::vector<int> ids;  // stable while `w` changes
  for (const trace::TaskDecl& d : w.header.tasks) ids.push_back(d.id);
  for (const int id : ids)
    if (!search.spent() && w.header.find_task(id) != nullptr) progress |= simplify_declaration(search, w, id, stats);
  // One value per event; `w` never grows, so the index bound holds.
  for (std::size_t i = 0; i < w.events.size() && !search.spent(); ++i) progress |= simplify_event(search, w, i, stats);
  EEVDF_ASSERT(w.header.tasks.size() <= ids.size(), "the pass never adds a task");
  return progress;
}

}  // namespace eevdf::shrinkers
