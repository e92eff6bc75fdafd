// See implementations_differ.h.
#include "shrinkers/implementations_differ.h"

#ifdef EEVDF_HAVE_KERNEL_SRC

#include "replay/implementation_lockstep.h"
#include "replay/model_config.h"
#include "shrinkers/candidate_replay.h"
#include "trace/error.h"

namespace eevdf::shrinkers {

Judge implementations_differ_judge(const replay::ImplementationFactory& a, const replay::ImplementationFactory& b) {
  return [a, b](const trace::Trace& t, bool repair) -> Verdict {
    try {
      if (!declarations_in_range(t.header)) return {};
      replay::ImplementationLockstep lock(a, b, replay::make_config(t.header, replay::Options{}, kCandidateFile),
                                         replay::make_task_specs(t.header));
      if (!lock.difference().empty()) return Verdict{true, 0, {}};
      const auto apply = [&](const trace::Event& e) {
        if (!lock.apply(e).empty()) return Applied::illegal;
        return lock.going() ? Applied::ok : Applied::stop;
      };
      return replay_candidate(t, ReplayMode{repair, true}, apply, [&] { return !lock.difference().empty(); }, [] {});
    } catch (const trace::TraceError&) {
      return {};  // an invalid candidate does not fail
    }
  };
}

}  // namespace eevdf::shrinkers

#endif
