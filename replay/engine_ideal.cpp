// `replay --diff=ideal` (engines.h): ideal_tracks_kernel on one trace, the kernel and
// the ideal arithmetic in lockstep (ideal_diff.h). Explained divergences are noted,
// unexplained ones are violations (exit 1). A trace-wide `expect violation
// ideal_tracks_kernel` is judged; every other expectation is the plain replay's, so
// any trace of the corpus can be replayed this way.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "model/profiles.h"
#include "replay/engines.h"
#include "replay/ideal_diff.h"
#include "replay/model_config.h"
#include "trace/error.h"

namespace eevdf::replay {
namespace {

template <class P>
class IdealDiffEngine final : public Engine {
 public:
  explicit IdealDiffEngine(const EngineSetup& s)
      : s_(s), diff_(make_config(s.header, s.options, s.file), make_task_specs(s.header)) {}

  bool apply(const trace::Event& e) override {
    const std::size_t seen = diff_.found().size();
    const std::string reason = diff_.apply(e);
    if (!reason.empty()) throw trace::TraceError({s_.file, e.line, e.column}, reason);
    bool stop = false;
    for (std::size_t k = seen; k < diff_.found().size(); ++k) {
      const IdealDivergence& d = diff_.found()[k];
      s_.out << fmt::format("{}:{}: {} {}\n", s_.file, d.line,
                            d.explained ? "note: explained divergence (ideal_tracks_kernel holds):"
                                        : "ideal_tracks_kernel violated:",
                            d.message());
      stop |= !d.explained && !s_.options.keep_going && !expects_violation();
    }
    return !stop;
  }

  void expect(const trace::Expect&) override {}  // the plain replay judges them

  Outcome finish(std::uint64_t events) override {
    const IdealDiffStats& st = diff_.stats();
    const bool violated = st.unexplained != 0;
    const std::string tally = fmt::format(
        "{} events, {} decisions compared, {} explained and {} unexplained divergences, {} CPUs no longer compared "
        "({} after an overflow), {} events skipped by the ideal model; drift at most {:.3g} of its bound, largest "
        "bound {:.3g} ns",
        events, st.decisions, st.explained, st.unexplained, st.tainted_cpus, st.overflow_cpus, st.skipped_events,
        st.drift_ratio_max, st.lag_bound_max);
    if (violated) s_.out << fmt::format("  replay: eevdf-check replay --diff=ideal {}\n", s_.file);
    if (expects_violation() != violated) {
      s_.out << fmt::format("{}: FAILED: expected ideal_tracks_kernel {}; {}\n", s_.file,
                            expects_violation() ? "to be violated" : "to hold", tally);
      return Outcome::failed;
    }
    s_.out << fmt::format("{}: ok (ideal_tracks_kernel {}: {})\n", s_.file,
                          violated ? "violated, as expected" : "holds", tally);
    return Outcome::clean;
  }

 private:
  bool expects_violation() const {
    const auto& v = s_.header.expect_violations;
    return std::find(v.begin(), v.end(), "ideal_tracks_kernel") != v.end();
  }

  const EngineSetup s_;
  IdealDiff<P> diff_;
};

}  // namespace

std::unique_ptr<Engine> make_ideal_diff_engine(const EngineSetup& setup) {
  const std::string profile = setup.header.kernel.value_or(std::string(model::kDefaultProfile));
  if (profile == "6.12") return std::make_unique<IdealDiffEngine<model::profile_6_12>>(setup);
  return std::make_unique<IdealDiffEngine<model::profile_6_18>>(setup);
}

}  // namespace eevdf::replay
