// What every pass shares: the judge, the budget and the statistics. A pass asks
// `accepts(candidate)`; the answer is false once the budget is spent, and the pass
// then stops (it checks `spent()`), so no pass can run past the budget.
#pragma once

#include <chrono>   // steady_clock: the only clock, used for the budget alone
#include <cstdint>  // counts
#include <optional>  // the first crash
#include <string>   // stop reasons

#include "shrinkers/candidate.h"
#include "shrinkers/shrink.h"

namespace eevdf::shrinkers {

class Search {
 public:
  Search(const Judge& judge, const Budget& budget);

  // Replays `candidate` with repair (unless the budget is spent) and counts it
  // against `pass`. True iff it still fails; `candidate` is then what the replay
  // kept (kept_by), confirmed by a replay without repair if events were skipped.
  bool accepts(Work& candidate, PassStats& pass);
  // The same without repair or cut: the input of a shrink is judged as it is.
  bool accepts_as_is(Work& candidate, PassStats& pass);
  // Whether the budget is spent, and why ("" while it is not).
  bool spent() const { return !spent_because_.empty(); }
  const std::string& spent_because() const { return spent_because_; }
  std::uint64_t candidates() const { return candidates_; }
  std::uint64_t accepted() const { return accepted_; }
  double seconds() const;
  // The first candidate the judge failed on with an InternalError, and the error.
  const std::optional<trace::Trace>& crash() const { return crash_; }
  const std::string& crash_reason() const { return crash_reason_; }

 private:
  // One replay within the budget; nullopt when the budget is spent.
  std::optional<Verdict> replay(const Work& candidate, bool repair, PassStats& pass);

  const Judge& judge_;
  Budget budget_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t candidates_ = 0;
  std::uint64_t accepted_ = 0;
  std::string spent_because_;
  std::optional<trace::Trace> crash_;
  std::string crash_reason_;
};

}  // namespace eevdf::shrinkers
