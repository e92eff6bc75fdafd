// Pass 6, shorter times; see shorten_gaps.h.
#include "shrinkers/shorten_gaps.h"

#include "base/assert.h"
#include "shrinkers/values.h"

namespace eevdf::shrinkers {
namespace {

std::uint64_t gap_before(const Work& w, std::size_t i) {
  return w.events[i].time_ns - (i == 0 ? 0 : w.events[i - 1].time_ns);
}

// `w` with the gap before event i set to `gap` (only ever shorter).
Work with_gap(const Work& w, std::size_t i, std::uint64_t gap) {
  const std::uint64_t old_gap = gap_before(w, i);
  EEVDF_ASSERT(gap <= old_gap, "gaps only shorten");
  Work out = w;
  for (std::size_t k = i; k < out.events.size(); ++k) out.events[k].time_ns -= old_gap - gap;
  return out;
}

// Shortens the gap before event i; true iff a shorter one was accepted.
bool shorten(Search& search, Work& w, std::size_t i, PassStats& stats) {
  const std::uint64_t gap = gap_before(w, i);
  if (gap == 0) return false;
  const std::size_t events = w.events.size();
  bool progress = false;
  // A repair that drops events ends the search: index i may now be another event.
  const auto fails = [&](std::uint64_t x) {
    if (search.spent() || w.events.size() != events || x >= gap_before(w, i)) return false;
    Work candidate = with_gap(w, i, x);
    if (!search.accepts(candidate, stats)) return false;
    w = std::move(candidate);
    progress = true;
    return true;
  };
  if (fails(0)) return true;
  bisect_roundest(0, gap, fails);
  return progress;
}

}  // namespace

bool shorten_gaps_pass(Search& search, Work& w, PassStats& stats) {
  bool progress = false;
  // `w` never grows, so the index bound holds.
  for (std::size_t i = 0; i < w.events.size() && !search.spent(); ++i) progress |= shorten(search, w, i, stats);
  for (std::size_t i = 1; i < w.events.size(); ++i)
    EEVDF_ASSERT(w.events[i - 1].time_ns <= w.events[i].time_ns, "times stay in order");
  return progress;
}

}  // namespace eevdf::shrinkers
