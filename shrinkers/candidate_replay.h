// One replay of a shrink candidate, whatever replays it: the event loop the two judges
// share (violates.cpp: the properties on the reference; differential.cpp: two
// implementations in lockstep). A shrinker-built candidate is not parsed, so the
// parser's range and order checks are repeated here.
#pragma once

#include <cstddef>  // indices
#include <cstdint>  // times
#include <variant>  // body statements

#include "base/assert.h"
#include "model/profiles.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/static_rules.h"
#include "trace/trace.h"

namespace eevdf::shrinkers {

// The name a candidate's errors would carry; nobody sees them (an invalid candidate
// is rejected).
inline constexpr const char* kCandidateFile = "<shrink candidate>";

struct ReplayMode {
  bool repair = false;      // skip illegal events instead of rejecting
  bool early_stop = false;  // stop at the failure
};

// Whether `e` names only what the header declares.
inline bool names_declared(const trace::Header& h, const trace::Event& e) {
  if (e.task != 0 && h.find_task(e.task) == nullptr) return false;
  return !e.cpu || (*e.cpu >= 0 && *e.cpu < h.topology_or_default().ncpus());
}

inline bool declarations_in_range(const trace::Header& h) {
  const int ncpus = h.topology_or_default().ncpus();
  for (const trace::TaskDecl& d : h.tasks)
    if (d.cpu && (*d.cpu < 0 || *d.cpu >= ncpus)) return false;
  return true;
}

// `f.template operator()<P>()` with P the candidate's `kernel` profile: a 6.12 trace
// replays in the 6.12 model.
template <class F>
decltype(auto) with_profile(const trace::Header& h, F&& f) {
  if (h.kernel.value_or(std::string(model::kDefaultProfile)) == model::profile_6_12::name)
    return f.template operator()<model::profile_6_12>();
  return f.template operator()<model::profile_6_18>();
}

// What one event did to the replay.
enum class Applied {
  ok,       // applied
  illegal,  // illegal where it stands: nothing changed
  stop,     // applied, and nothing after it can change the verdict
};

// Replays the events of `t` through `apply(event) -> Applied`; `failed()` says whether
// the target has failed by now, `finish()` runs the end-of-trace checks of a replay
// that reached the end. The caller has checked declarations_in_range. Throws what
// `apply` throws (trace::TraceError, InternalError: an invalid candidate).
template <class Apply, class Failed, class Finish>
Verdict replay_candidate(const trace::Trace& t, ReplayMode mode, Apply&& apply, Failed&& failed, Finish&& finish) {
  Verdict out;
  trace::StaticRules rules(kCandidateFile);
  std::uint64_t now = 0;
  std::size_t index = 0;  // among events
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;  // Expect statements are the caller's business
    const std::size_t i = index++;
    bool legal = names_declared(t.header, *e) && e->time_ns >= now;
    if (legal) {
      try {
        rules.check(*e);  // records nothing when it throws
      } catch (const trace::TraceError&) {
        legal = false;
      }
    }
    const Applied a = legal ? apply(*e) : Applied::illegal;
    if (a == Applied::illegal) {
      if (!mode.repair) return Verdict{};
      out.dropped.push_back(i);
      continue;
    }
    now = e->time_ns;
    if ((mode.early_stop || a == Applied::stop) && failed()) {
      out.fails = true;
      out.events_used = i + 1;
      return out;
    }
    if (a == Applied::stop) {
      out.events_used = i + 1;
      return out;
    }
  }
  finish();
  out.fails = failed();
  out.events_used = index;
  EEVDF_ASSERT(out.dropped.size() <= index, "only events are dropped");
  return out;
}

}  // namespace eevdf::shrinkers
