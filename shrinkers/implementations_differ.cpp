// See implementations_differ.h.
#include "shrinkers/implementations_differ.h"

#ifdef EEVDF_HAVE_KERNEL_SRC

#include "base/assert.h"
#include "replay/implementation_lockstep.h"
#include "replay/model_config.h"
#include "shrinkers/candidate_replay.h"
#include "trace/error.h"

namespace eevdf::shrinkers {

Target implementations_differ_target(replay::ImplementationFactory a, replay::ImplementationFactory b) {
  Target t{std::string(kImplementationsDiffer), std::nullopt};
  t.implementations = std::make_shared<const Implementations>(Implementations{std::move(a), std::move(b)});
  return t;
}

Judge implementations_differ_judge(const Target& target) {
  EEVDF_ASSERT(target.implementations != nullptr, "an implementations_differ target carries its implementations");
  return [sides = target.implementations](const trace::Trace& t, bool repair) -> Verdict {
    const auto& [a, b] = *sides;
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
