// The breadth-first search of explore.h: levels of nodes (a parent and a move), each
// expanded by workers that rebuild a node's state from the start state along its
// path, then branch by copying that state (CheckedRun::copy_state_from); the
// workers' candidates are merged in frontier order, so the result is the same for
// any number of workers.
#include "explore/explore.h"

#include <algorithm>      // min
#include <chrono>         // wall time of the report
#include <ctime>          // CPU time of the report
#include <memory>         // workers
#include <thread>         // parallel expansion
#include <type_traits>    // the profile with coverage probes

#include "explore/canonical-inl.h"
#include "explore/fingerprint_set.h"
#include "explore/moves-inl.h"
#include "model/arith_kernel.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "runner/coverage.h"

namespace eevdf::explore {
namespace {

using model::KernelArith;

struct Node {
  std::uint32_t parent = 0;     // index in the level before
  Move move;                    // what led here
  std::uint64_t footprint = 0;  // the move's CPUs, in the parent's state
  bool por_free = false;        // reached at this depth after different moves: nothing pruned here
};

struct Recorded {
  std::string property;
  std::string values;
  std::string explanation;
};

// The violations of one transition (the replays of a known path are muted).
class Recorder final : public properties::Sink {
 public:
  void violation(const properties::Violation& v) override {
    if (!muted) found.push_back({std::string(v.property), v.values, v.explanation});
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  bool muted = false;
  std::vector<Recorded> found;
};

struct Candidate {
  std::uint64_t fp = 0, exact_fp = 0;
  std::uint32_t parent = 0;
  Move move;
  std::uint64_t footprint = 0;
  bool halted = false;
  bool reach = false;
  std::uint32_t first_violation = 0, violations = 0;  // into the worker's list
};

struct Tally {
  std::uint64_t pruned = 0, illegal = 0;
};

template <class P>
class Worker {
 public:
  using Run = replay::CheckedRun<KernelArith, P>;

  Worker(const model::Config& config, const std::vector<model::TaskSpec>& specs, const std::vector<trace::Event>& prefix,
         const Options& options)
      : options_(options),
        root_(config, specs, sink_, options.selection),
        base_(config, specs, sink_, options.selection),
        work_(config, specs, sink_, options.selection),
        canonical_(specs, options.symmetry) {
    // The coverage probes count the transitions tried (work_), not the replays of
    // known paths: each run's probe keeps its own tally across copies.
    if constexpr (std::is_same_v<P, model::profile_6_18>) {
      root_.template add_probe<runner::CoverageProbe>(replayed_);
      base_.template add_probe<runner::CoverageProbe>(replayed_);
      work_.template add_probe<runner::CoverageProbe>(coverage);
    }
    for (const trace::Event& e : prefix) {
      const std::string reason = root_.apply(e);
      if (!reason.empty())
        throw trace::TraceError({options.start_file, e.line, 0}, "illegal in the state the trace reached: " + reason);
      start_time_ = e.time_ns;
    }
    prefix_lines_ = prefix.empty() ? 0 : prefix.back().line;
  }

  Run& root() { return root_; }
  Run& scratch() { return base_; }  // free between expansions
  Recorder& sink() { return sink_; }
  Canonical<P>& canonical() { return canonical_; }
  std::uint64_t start_time() const { return start_time_; }

  // The events of the path to node `i` of level `depth`.
  std::vector<trace::Event> path(const std::vector<std::vector<Node>>& levels, int depth, std::uint32_t i) {
    std::vector<const Node*> nodes;
    for (int d = depth; d > 0; --d) {
      nodes.push_back(&levels[static_cast<std::size_t>(d)][i]);
      i = nodes.back()->parent;
    }
    std::vector<trace::Event> out;
    std::uint64_t t = start_time_;
    int line = prefix_lines_;
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      t += (*it)->move.gap * options_.alphabet.quantum_ns;
      out.push_back(to_event(root_.machine(), (*it)->move, t, ++line));
    }
    return out;
  }

  // Expands nodes [begin, end) of level `depth` into candidates.
  void expand(const std::vector<std::vector<Node>>& levels, int depth, std::size_t begin, std::size_t end) {
    candidates.clear();
    sink_.found.clear();
    tally = {};
    const auto& level = levels[static_cast<std::size_t>(depth)];
    for (std::size_t i = begin; i < end; ++i) {
      const Node& node = level[i];
      sink_.muted = true;
      base_.copy_state_from(root_);
      std::uint64_t t = start_time_;
      for (const trace::Event& e : path(levels, depth, static_cast<std::uint32_t>(i))) {
        base_.apply(e);
        t = e.time_ns;
      }
      sink_.muted = false;
      enabled_moves(base_.machine(), options_.alphabet, moves_);
      for (const Move& move : moves_) {
        const std::uint64_t fp_cpus = footprint(base_.machine(), move);
        if (options_.por && depth > 0 && !node.por_free &&
            commute_and_sorted_after(node.move, node.footprint, move, fp_cpus)) {
          ++tally.pruned;
          continue;
        }
        work_.copy_state_from(base_);
        const auto first = static_cast<std::uint32_t>(sink_.found.size());
        const trace::Event e =
            to_event(base_.machine(), move, t + move.gap * options_.alphabet.quantum_ns, prefix_lines_ + depth + 1);
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

  std::vector<Candidate> candidates;
  Tally tally;
  runner::ProbeCounts coverage{};

 private:
  runner::ProbeCounts replayed_{};
  const Options& options_;
  Recorder sink_;
  Run root_, base_, work_;
  Canonical<P> canonical_;
  std::vector<Move> moves_;
  std::uint64_t start_time_ = 0;
  int prefix_lines_ = 0;
};

double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

template <class P>
Result run_search(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                  const std::vector<trace::Event>& prefix, const Options& options, const Progress& progress) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_now();
  const int jobs = std::max(1, options.jobs);
  std::vector<std::unique_ptr<Worker<P>>> workers;
  for (int w = 0; w < jobs; ++w) workers.push_back(std::make_unique<Worker<P>>(config, specs, prefix, options));
  Worker<P>& first = *workers.front();

  Result result;
  result.reach_asked = !options.reach.empty();
  result.symmetric_tasks = options.symmetry && first.canonical().symmetric_tasks();
  result.symmetric_cpus = options.symmetry && first.canonical().symmetric_cpus();
  FingerprintSet visited, exact;
  std::vector<std::vector<Node>> levels(1, std::vector<Node>(1));
  std::map<std::string, bool> seen;  // properties with a counterexample
  std::uint64_t peak_index_bytes = 0;

  const auto record = [&](const std::vector<Recorded>& found, std::size_t from, std::size_t count, int depth,
                          const std::vector<trace::Event>& path) {
    for (std::size_t k = from; k < from + count; ++k) {
      if (seen[found[k].property]) continue;
      seen[found[k].property] = true;
      result.violations.push_back({found[k].property, depth, {path}, found[k].values, found[k].explanation});
    }
  };

  // Depth 0: the start state, with the end-of-trace checks of the prefix.
  {
    auto& base = first.scratch();
    base.copy_state_from(first.root());
    const std::uint64_t fp = first.canonical().fingerprint(base.machine(), options.symmetry);
    visited.insert(fp);
    if (options.symmetry_stats) exact.insert(first.canonical().fingerprint(base.machine(), false));
    if (first.holds(base.machine())) result.reached = true;
    base.finish();
  }
  // The prefix's own violations reached the first worker's sink as it was built.
  record(first.sink().found, 0, first.sink().found.size(), 0, prefix);
  Level root_level;
  root_level.states = 1;
  result.levels.push_back(root_level);
  result.distinct = 1;
  if (result.reached) result.witness.events = prefix;
  if (progress) progress(0, result);

  bool stop = result.reached || (!result.violations.empty() && !options.keep_going);
  int depth = 0;
  for (; depth < options.depth && !stop && !levels.back().empty(); ++depth) {
    const auto level_start = std::chrono::steady_clock::now();
    const auto& level = levels[static_cast<std::size_t>(depth)];
    const std::size_t n = level.size();
    std::vector<std::thread> threads;
    for (int w = 0; w < jobs; ++w) {
      const std::size_t b = n * static_cast<std::size_t>(w) / static_cast<std::size_t>(jobs);
      const std::size_t e = n * static_cast<std::size_t>(w + 1) / static_cast<std::size_t>(jobs);
      Worker<P>* worker = workers[static_cast<std::size_t>(w)].get();
      if (jobs == 1) {
        worker->expand(levels, depth, b, e);
      } else {
        threads.emplace_back([worker, &levels, depth, b, e] { worker->expand(levels, depth, b, e); });
      }
    }
    for (auto& t : threads) t.join();

    Level lv;
    std::vector<Node> next;
    NodeIndex next_index;
    for (auto& worker : workers) {
      lv.pruned_por += worker->tally.pruned;
      lv.illegal += worker->tally.illegal;
      for (const Candidate& c : worker->candidates) {
        ++lv.transitions;
        if (c.violations > 0 || (c.reach && !result.reached)) {
          auto path = first.path(levels, depth, c.parent);
          std::uint64_t t = path.empty() ? first.start_time() : path.back().time_ns;
          path.push_back(to_event(first.root().machine(), c.move, t + c.move.gap * options.alphabet.quantum_ns,
                                  static_cast<int>(path.size()) + (prefix.empty() ? 0 : prefix.back().line) + 1));
          std::vector<trace::Event> full = prefix;
          full.insert(full.end(), path.begin(), path.end());
          record(worker->sink().found, c.first_violation, c.violations, depth + 1, full);
          if (c.reach && !result.reached) {
            result.reached = true;
            result.witness.events = full;
          }
        }
        if (c.halted) continue;
        const bool fresh = visited.insert(c.fp);
        if (options.symmetry && options.symmetry_stats && exact.insert(c.exact_fp) && !fresh) ++lv.merged_symmetry;
        if (fresh) {
          if (options.por) next_index.add(c.fp, static_cast<std::uint32_t>(next.size()));
          next.push_back({c.parent, c.move, c.footprint, false});
        } else if (options.por) {
          // A state first reached at this depth by another move keeps every move.
          if (const std::int64_t known = next_index.find(c.fp); known >= 0) {
            Node& k = next[static_cast<std::size_t>(known)];
            if (!(k.move == c.move) || k.footprint != c.footprint) k.por_free = true;
          }
        }
      }
    }
    lv.states = next.size();
    lv.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - level_start).count();
    result.levels.push_back(lv);
    result.transitions += lv.transitions;
    result.distinct = visited.size();
    if (!next.empty()) result.depth_reached = depth + 1;
    peak_index_bytes = std::max(peak_index_bytes, next_index.bytes());
    levels.push_back(std::move(next));
    if (progress) progress(depth + 1, result);
    stop = result.reached || (!result.violations.empty() && !options.keep_going);
  }
  if constexpr (std::is_same_v<P, model::profile_6_18>)
    for (std::size_t k = 0; k < runner::kProbeNames.size(); ++k) {
      std::uint64_t n = 0;
      for (const auto& w : workers) n += w->coverage[k];
      result.coverage.emplace_back(runner::kProbeNames[k], n);
    }
  result.stopped_early = stop;
  result.exhausted = !stop;
  result.collision_probability = visited.collision_probability();
  result.memory_bytes = visited.bytes() + exact.bytes() + peak_index_bytes;
  for (const auto& l : levels) result.memory_bytes += l.capacity() * sizeof(Node);
  result.cpu_seconds = cpu_now() - cpu_start;
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

}  // namespace

Result explore(const trace::Header& header, const std::vector<trace::Event>& prefix, const Options& options,
               const Progress& progress) {
  const model::Config config = replay::make_config(header, replay::Options{}, "explore");
  const std::vector<model::TaskSpec> specs = replay::make_task_specs(header);
  if (header.kernel.value_or("6.18") == model::profile_6_12::name)
    return run_search<model::profile_6_12>(config, specs, prefix, options, progress);
  return run_search<model::profile_6_18>(config, specs, prefix, options, progress);
}

}  // namespace eevdf::explore
