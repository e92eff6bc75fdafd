// explore.h over the reference: workers that rebuild a node's state from the start
// state along its path, then branch by copying that state (CheckedRun::
// copy_state_from); the search itself is search-inl.h's.
#include "explore/explore.h"

#include <type_traits>  // the profile with coverage probes

#include "explore/canonical-inl.h"
#include "explore/moves-inl.h"
#include "explore/search-inl.h"
#include "explore/tree.h"
#include "model/arith_kernel.h"
#include "model/profiles.h"
#include "properties/judging.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "runner/coverage.h"

namespace eevdf::explore {
namespace {

using model::KernelArith;
using search::Candidate;
using search::Levels;
using search::Node;

template <class P>
class Worker : public search::Expansion {
 public:
  using Run = replay::CheckedRun<KernelArith, P>;

  Worker(const model::Config& config, const std::vector<model::TaskSpec>& specs, const std::vector<trace::Event>& prefix,
         const Options& options)
      : options_(options),
        root_(config, specs, sink_, options.selection),
        base_(config, specs, sink_, options.selection),
        work_(config, specs, sink_, options.selection),
        canonical_(specs, options.symmetry),
        paths_(prefix, task_ids(specs), options.alphabet.quantum_ns) {
    // The coverage probes count the transitions tried (work_), not the replays of
    // known paths: each run's probe keeps its own tally across copies.
    if constexpr (std::is_same_v<P, model::profile_6_18>) {
      root_.template add_probe<runner::CoverageProbe>(replayed_);
      base_.template add_probe<runner::CoverageProbe>(replayed_);
      work_.template add_probe<runner::CoverageProbe>(coverage_);
    }
    for (const trace::Event& e : prefix) {
      const std::string reason = root_.apply(e);
      if (!reason.empty())
        throw trace::TraceError({options.start_file, e.line, 0}, "illegal in the state the trace reached: " + reason);
    }
  }

  search::Recorder& sink() { return sink_; }
  const search::Paths& paths() const { return paths_; }
  bool symmetric_tasks() const { return canonical_.symmetric_tasks(); }
  bool symmetric_cpus() const { return canonical_.symmetric_cpus(); }
  const runner::ProbeCounts* coverage() const {
    return std::is_same_v<P, model::profile_6_18> ? &coverage_ : nullptr;
  }

  search::Start start() {
    base_.copy_state_from(root_);
    search::Start s{canonical_.fingerprint(base_.machine(), options_.symmetry), 0, holds(base_.machine())};
    if (options_.symmetry_stats) s.exact_fp = canonical_.fingerprint(base_.machine(), false);
    base_.finish();
    return s;
  }

  // Expands nodes [begin, end) of level `depth` into candidates.
  void expand(const Levels& levels, int depth, std::size_t begin, std::size_t end) {
    reset(sink_);
    const auto& level = levels[static_cast<std::size_t>(depth)];
    for (std::size_t i = begin; i < end; ++i) {
      const Node& node = level[i];
      sink_.muted = true;
      base_.copy_state_from(root_);
      std::uint64_t t = paths_.start_time();
      for (const trace::Event& e : paths_.path(levels, depth, static_cast<std::uint32_t>(i))) {
        base_.apply(e);
        t = e.time_ns;
      }
      sink_.muted = false;
      enabled_moves(base_.machine(), options_.alphabet, moves_);
      for (const Move& move : moves_) {
        const std::uint64_t fp_cpus = footprint(base_.machine(), move);
        if (pruned(options_, depth, node, move, fp_cpus)) continue;
        work_.copy_state_from(base_);
        const auto first = static_cast<std::uint32_t>(sink_.found.size());
        const trace::Event e = paths_.event(move, t, depth + 1);
        if (!work_.apply(e).empty()) {
          ++tally.illegal;
          continue;
        }
        Candidate c;
        c.parent = static_cast<std::uint32_t>(i);
        c.move = move;
        c.footprint = fp_cpus;
        c.halted = work_.halted();
        if (!c.halted) {
          c.fp = canonical_.fingerprint(work_.machine(), options_.symmetry);
          c.exact_fp = options_.symmetry && options_.symmetry_stats ? canonical_.fingerprint(work_.machine(), false) : c.fp;
          c.reach = holds(work_.machine());
          work_.finish();  // this state may be a trace's last: the end-of-trace checks
        }
        c.first_violation = first;
        c.violations = static_cast<std::uint32_t>(sink_.found.size()) - first;
        candidates.push_back(c);
      }
    }
  }

  bool holds(const model::Machine<KernelArith, P>& m) const {
    if (options_.reach.empty()) return false;
    for (const trace::Expect& x : options_.reach)
      if (!replay::evaluate(m, x).ok) return false;
    return true;
  }

 private:
  runner::ProbeCounts coverage_{}, replayed_{};
  const Options& options_;
  search::Recorder sink_;
  Run root_, base_, work_;
  Canonical<P> canonical_;
  search::Paths paths_;
  std::vector<Move> moves_;
};

}  // namespace

std::string unjudged(std::string_view name, const trace::Header& header, const Options& options) {
  const std::string profile = header.kernel.value_or(std::string(model::kDefaultProfile));
  properties::Judging j;
  if (options.kernel_tree) j = tree_judging(profile);
  j.profile = profile;
  return properties::unjudged(name, j, properties::Asker::explore);
}

Result explore(const trace::Header& header, const std::vector<trace::Event>& prefix, const Options& options,
               const Progress& progress) {
  if (options.kernel_tree) return explore_tree(header, prefix, options, progress);
  const model::Config config = replay::make_config(header, replay::Options{}, "explore");
  const std::vector<model::TaskSpec> specs = replay::make_task_specs(header);
  if (header.kernel.value_or("6.18") == model::profile_6_12::name)
    return search::run<Worker<model::profile_6_12>>(prefix, options, progress, config, specs);
  return search::run<Worker<model::profile_6_18>>(prefix, options, progress, config, specs);
}

}  // namespace eevdf::explore
