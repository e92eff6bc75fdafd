// explore/tree.h: the search of search-inl.h with workers over the selected kernel
// tree. Each node's state is rebuilt by replaying its path from the start on a fresh
// KernelSrcTreeRun, and so is each transition from it: the tree's C state has no copy,
// and the checks of each path keep that path's own memory.
#include "explore/tree.h"

#include "trace/error.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include <memory>  // runs

#include "explore/canonical-inl.h"
#include "explore/moves-inl.h"
#include "explore/search-inl.h"
#include "kernel_src/tree_build.h"
#include "model/profiles.h"
#include "replay/kernel_src_tree_run.h"
#include "replay/model_config.h"
#include "replay/query_kernel_src.h"

namespace eevdf::explore {
namespace {

using search::Candidate;
using search::Levels;

template <class P>
class TreeWorker : public search::Expansion {
 public:
  using Run = replay::KernelSrcTreeRun;
  using Mirror = model::Machine<model::KernelArith, P>;

  TreeWorker(const model::Config& config, const std::vector<model::TaskSpec>& specs,
             const std::vector<trace::Event>& prefix, const Options& options)
      : config_(config), specs_(specs), prefix_(prefix), options_(options), canonical_(specs, options.symmetry),
        paths_(prefix, task_ids(specs), options.alphabet.quantum_ns) {}

  search::Recorder& sink() { return sink_; }
  const search::Paths& paths() const { return paths_; }
  bool symmetric_tasks() const { return canonical_.symmetric_tasks(); }
  bool symmetric_cpus() const { return canonical_.symmetric_cpus(); }
  const runner::ProbeCounts* coverage() const { return nullptr; }

  // The start state: the prefix judged as it is applied, then its end-of-trace checks.
  search::Start start() {
    Run run(config_, specs_, &sink_, options_.selection);
    if (run.judges_nothing())
      throw trace::TraceError({options_.start_file, 0, 0}, "none of the selected properties is judged on this tree",
                              "`eevdf-check properties` lists what kernel-src judges");
    for (const trace::Event& e : prefix_) {
      const std::string reason = run.apply(e);
      if (!reason.empty())
        throw trace::TraceError({options_.start_file, e.line, 0},
                                "illegal in the state the trace reached on the tree: " + reason);
      take_warns(run);
      if (!run.oops().empty())
        throw trace::TraceError({options_.start_file, e.line, 0}, "the tree crashed in the start trace: " + run.oops());
    }
    run.finish();
    const Mirror& m = mirror(run);
    search::Start s{canonical_.fingerprint(m, options_.symmetry), 0, holds(run)};
    if (options_.symmetry_stats) s.exact_fp = canonical_.fingerprint(m, false);
    return s;
  }

  // Expands nodes [begin, end) of level `depth` into candidates.
  void expand(const Levels& levels, int depth, std::size_t begin, std::size_t end) {
    reset(sink_);
    const auto& level = levels[static_cast<std::size_t>(depth)];
    for (std::size_t i = begin; i < end; ++i) {
      const search::Node& node = level[i];
      const std::vector<trace::Event> path = paths_.path(levels, depth, static_cast<std::uint32_t>(i));
      const std::uint64_t t = path.empty() ? paths_.start_time() : path.back().time_ns;
      {
        const std::unique_ptr<Run> base = rebuilt(path);
        sink_.muted = true;
        base->finish();  // every CPU loaded into the mirror
        sink_.muted = false;
        enabled_moves(mirror(*base), options_.alphabet, moves_);
        footprints_.clear();
        for (const Move& move : moves_) footprints_.push_back(footprint(mirror(*base), move));
      }
      for (std::size_t k = 0; k < moves_.size(); ++k) {
        const Move& move = moves_[k];
        if (pruned(options_, depth, node, move, footprints_[k])) continue;
        const std::unique_ptr<Run> work = rebuilt(path);
        const auto first = static_cast<std::uint32_t>(sink_.found.size());
        if (!work->apply(paths_.event(move, t, depth + 1)).empty()) {
          ++tally.illegal;
          continue;
        }
        take_warns(*work);
        Candidate c;
        c.parent = static_cast<std::uint32_t>(i);
        c.move = move;
        c.footprint = footprints_[k];
        c.halted = !work->oops().empty();
        if (!c.halted) {
          work->finish();  // this state may be a trace's last: the end-of-trace checks
          c.fp = canonical_.fingerprint(mirror(*work), options_.symmetry);
          c.exact_fp = options_.symmetry && options_.symmetry_stats ? canonical_.fingerprint(mirror(*work), false) : c.fp;
          c.reach = holds(*work);
        }
        c.first_violation = first;
        c.violations = static_cast<std::uint32_t>(sink_.found.size()) - first;
        candidates.push_back(c);
      }
    }
  }

 private:
  // A fresh run of the tree at the end of the prefix and `path`, their checks muted
  // (each was judged when the search first took it).
  std::unique_ptr<Run> rebuilt(const std::vector<trace::Event>& path) {
    sink_.muted = true;
    auto run = std::make_unique<Run>(config_, specs_, &sink_, options_.selection);
    for (const auto* events : {&prefix_, &path})
      for (const trace::Event& e : *events) run->apply(e);
    run->take_kernel_warns();
    sink_.muted = false;
    return run;
  }

  void take_warns(Run& run) {
    for (const properties::Violation& v : run.take_kernel_warns()) sink_.violation(v);
  }

  static const Mirror& mirror(const Run& run) {
    const Mirror* m = run.template mirror<P>();
    EEVDF_ASSERT(m != nullptr, "the tree is judged by the forms it was explored with");
    return *m;
  }

  bool holds(const Run& run) const {
    if (options_.reach.empty()) return false;
    for (const trace::Expect& x : options_.reach)
      if (!replay::evaluate_kernel_src(run.kernel_src(), x).ok) return false;
    return true;
  }

  const model::Config& config_;
  const std::vector<model::TaskSpec>& specs_;
  const std::vector<trace::Event>& prefix_;
  const Options& options_;
  search::Recorder sink_;
  Canonical<P> canonical_;
  search::Paths paths_;
  std::vector<Move> moves_;
  std::vector<std::uint64_t> footprints_;
};

}  // namespace

Result explore_tree(const trace::Header& header, const std::vector<trace::Event>& prefix, const Options& options,
                    const Progress& progress) {
  const model::Config config = replay::make_config(header, replay::Options{}, "explore");
  const std::vector<model::TaskSpec> specs = replay::make_task_specs(header);
  const std::string forms = selected_tree_profile();
  if (const std::string why = replay::why_tree_not_runnable(header, config); !why.empty())
    throw trace::TraceError({options.start_file, 0, 0}, why, "explore this tree without injections or RUN_TO_PARITY_WAKEUP");
  if (forms == model::profile_6_12::name)
    return search::run<TreeWorker<model::profile_6_12>>(prefix, options, progress, config, specs);
  return search::run<TreeWorker<model::profile_6_18>>(prefix, options, progress, config, specs);
}

std::string selected_tree_profile() {
  try {
    return replay::selected_tree_forms();
  } catch (const replay::UnknownShape& e) {
    throw trace::TraceError({"--kernel-tree", 0, 0}, e.what());
  }
}

properties::Judging tree_judging(std::string_view profile) {
  properties::Judging j;
  j.profile = profile;
  j.kernel_src = true;
  j.reference_lockstep = false;
  j.tree = replay::selected_tree_traits();
  return j;
}

std::string selected_tree_name() {
  return "kernel-src " + kernel_src::selected_version() + " from " + kernel_src::selected_dir();
}

}  // namespace eevdf::explore

#else

namespace eevdf::explore {

Result explore_tree(const trace::Header&, const std::vector<trace::Event>&, const Options& options, const Progress&) {
  throw trace::TraceError({options.start_file, 0, 0}, "this build has no kernel-src (the kernel source package was not installed)");
}

std::string selected_tree_profile() {
  throw trace::TraceError({"--kernel-tree", 0, 0}, "this build has no kernel-src (the kernel source package was not installed)");
}

properties::Judging tree_judging(std::string_view profile) {
  properties::Judging j;
  j.profile = profile;
  return j;
}

std::string selected_tree_name() { return "no kernel-src in this build"; }

}  // namespace eevdf::explore

#endif
