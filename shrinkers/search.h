// What every pass shares: the predicate, the budget and the statistics. A pass asks
// `accepts(candidate)`; the answer is false once the budget is spent, and the pass
// then stops (it checks `spent()`), so no pass can run past the budget.
#pragma once

#include <chrono>   // steady_clock: the only clock, used for the budget alone
#include <cstdint>  // counts
#include <string>   // stop reasons

#include "shrinkers/candidate.h"
#include "shrinkers/shrink.h"

namespace eevdf::shrinkers {

class Search {
 public:
  Search(const Predicate& still_fails, const Budget& budget);

  // Replays `candidate` (unless the budget is spent) and counts it against `pass`.
  // True iff the candidate is valid and still fails.
  bool accepts(const Work& candidate, PassStats& pass);
  // Whether the budget is spent, and why ("" while it is not).
  bool spent() const { return !spent_because_.empty(); }
  const std::string& spent_because() const { return spent_because_; }
  std::uint64_t candidates() const { return candidates_; }
  std::uint64_t accepted() const { return accepted_; }

 private:
  const Predicate& still_fails_;
  Budget budget_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t candidates_ = 0;
  std::uint64_t accepted_ = 0;
  std::string spent_because_;
};

}  // namespace eevdf::shrinkers
