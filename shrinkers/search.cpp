// The budget keeper shared by the passes; see search.h.
#include "shrinkers/search.h"

#include "base/assert.h"

namespace eevdf::shrinkers {

Search::Search(const Judge& judge, const Budget& budget)
    : judge_(judge), budget_(budget), start_(std::chrono::steady_clock::now()) {
  EEVDF_ASSERT(static_cast<bool>(judge_), "a shrink needs a judge");
  EEVDF_ASSERT(budget_.seconds_max >= 0, "a negative time budget is a caller's mistake");
}

double Search::seconds() const {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  return elapsed.count();
}

std::optional<Verdict> Search::replay(const Work& candidate, bool repair, PassStats& pass) {
  if (spent()) return std::nullopt;
  if (candidates_ >= budget_.candidates_max) {
    spent_because_ = "budget: candidates";
    return std::nullopt;
  }
  if (seconds() > budget_.seconds_max) {
    spent_because_ = "budget: seconds";
    return std::nullopt;
  }
  ++candidates_;
  ++pass.candidates;
  Verdict v;
  try {
    v = judge_(to_trace(candidate), repair);
  } catch (const InternalError& e) {  // a defect of the tool, never "does not fail" in silence
    if (!crash_) {
      crash_ = to_trace(candidate);
      crash_reason_ = e.what();
    }
    return Verdict{};
  }
  EEVDF_ASSERT(v.events_used <= candidate.events.size(), "a verdict covers the candidate's events only");
  EEVDF_ASSERT(repair || v.dropped.empty(), "nothing is skipped without repair");
  return v;
}

bool Search::accepts(Work& candidate, PassStats& pass) {
  const std::optional<Verdict> v = replay(candidate, true, pass);
  if (!v || !v->fails) return false;
  Work kept = kept_by(candidate, *v);
  if (!v->dropped.empty()) {
    // The repairing replay ran the checks' before-event hooks on the skipped events:
    // only a plain replay of what it kept says that trace, as text, fails.
    const std::optional<Verdict> confirmed = replay(kept, false, pass);
    if (!confirmed || !confirmed->fails) return false;
    kept = kept_by(kept, *confirmed);
  }
  candidate = std::move(kept);
  ++accepted_;
  ++pass.accepted;
  EEVDF_ASSERT(accepted_ <= candidates_, "only replayed candidates are accepted");
  return true;
}

bool Search::accepts_as_is(Work& candidate, PassStats& pass) {
  const std::optional<Verdict> v = replay(candidate, false, pass);
  if (!v || !v->fails) return false;
  candidate = kept_by(candidate, *v);
  ++accepted_;
  ++pass.accepted;
  return true;
}

}  // namespace eevdf::shrinkers
