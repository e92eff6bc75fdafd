// Pass 1, delta debugging over events; see delete_events.h.
#include "shrinkers/delete_events.h"

#include "base/assert.h"

namespace eevdf::shrinkers {
namespace {

// The sliding windows: sizes 2 and 3 catch a pair or triple of neighbours that only
// go together (a sleep and the tick after it), on traces already small enough that
// n windows of n-event replays cost little.
constexpr std::size_t kWindowSizeMax = 3;
constexpr std::size_t kWindowEventsMax = 200;

// One sweep of blocks of `size` events, left to right. True iff one was deleted.
bool sweep(Search& search, Work& w, std::size_t size, PassStats& stats) {
  bool progress = false;
  std::size_t first = 0;
  // Each step advances `first` by `size` or removes >= 1 event: at most 2n steps.
  const std::size_t steps_max = 2 * w.events.size() + 2;
  for (std::size_t step = 0; step < steps_max && first < w.events.size(); ++step) {
    if (search.spent()) return progress;
    Work candidate = delete_events(w, first, size);
    if (search.accepts(candidate, stats)) {
      EEVDF_ASSERT(candidate.events.size() < w.events.size(), "an accepted deletion deletes");
      w = std::move(candidate);
      progress = true;
    } else {
      first += size;
    }
  }
  EEVDF_ASSERT(first >= w.events.size() || search.spent(), "the sweep reached the end within its bound");
  return progress;
}

// Windows of `size` events at every start, left to right: blocks the halving sweep
// never aligns (events 1-2 at size 2). True iff one was deleted.
bool slide(Search& search, Work& w, std::size_t size, PassStats& stats) {
  bool progress = false;
  // Each step advances `first` by one or removes >= 1 event: at most 2n steps.
  const std::size_t steps_max = 2 * w.events.size() + 2;
  std::size_t first = 0;
  for (std::size_t step = 0; step < steps_max && first + size <= w.events.size() && !search.spent(); ++step) {
    Work candidate = delete_events(w, first, size);
    if (search.accepts(candidate, stats)) {
      w = std::move(candidate);
      progress = true;
    } else {
      ++first;
    }
  }
  return progress;
}

}  // namespace

bool delete_events_pass(Search& search, Work& w, PassStats& stats) {
  bool progress = false;
  std::size_t size = w.events.size() / 2 > 0 ? w.events.size() / 2 : 1;
  // Sizes halve from n/2 to 1: at most 64 sizes for any n that fits in size_t.
  constexpr int sizes_max = 64;
  for (int k = 0; k < sizes_max && !w.events.empty() && !search.spent(); ++k) {
    progress |= sweep(search, w, size, stats);
    if (size == 1) break;
    size /= 2;
  }
  EEVDF_ASSERT(size == 1 || w.events.empty() || search.spent(), "the pass ends at single events");
  // Unaligned windows only on small traces: n replays of n events each.
  if (w.events.size() <= kWindowEventsMax)
    for (std::size_t window = 2; window <= kWindowSizeMax && !search.spent(); ++window)
      progress |= slide(search, w, window, stats);
  return progress;
}

}  // namespace eevdf::shrinkers
