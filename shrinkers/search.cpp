// The budget keeper shared by the passes; see search.h.
#include "shrinkers/search.h"

#include "base/assert.h"

namespace eevdf::shrinkers {

Search::Search(const Predicate& still_fails, const Budget& budget)
    : still_fails_(still_fails), budget_(budget), start_(std::chrono::steady_clock::now()) {
  EEVDF_ASSERT(static_cast<bool>(still_fails_), "a shrink needs a predicate");
  EEVDF_ASSERT(budget_.seconds_max >= 0, "a negative time budget is a caller's mistake");
}

bool Search::accepts(const Work& candidate, PassStats& pass) {
  if (spent()) return false;
  if (candidates_ >= budget_.candidates_max) {
    spent_because_ = "budget: candidates";
    return false;
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  if (elapsed.count() > budget_.seconds_max) {
    spent_because_ = "budget: seconds";
    return false;
  }
  ++candidates_;
  ++pass.candidates;
  const bool fails = still_fails_(to_trace(candidate));
  if (fails) {
    ++accepted_;
    ++pass.accepted;
  }
  EEVDF_ASSERT(accepted_ <= candidates_, "only replayed candidates are accepted");
  return fails;
}

}  // namespace eevdf::shrinkers
