// The breadth-first search of explore.h over any implementation: levels of nodes (a
// parent and a move), each expanded by workers (`W`: explore.cpp's over the reference,
// explore_tree.cpp's over a kernel tree) whose candidates are merged in frontier
// order, so that the result is the same for any number of workers. Included by the
// two worker files only.
#pragma once

#include <algorithm>  // max
#include <chrono>     // wall time of the report
#include <ctime>      // CPU time of the report
#include <map>        // properties with a counterexample
#include <memory>     // workers
#include <string>     // properties
#include <thread>     // parallel expansion
#include <vector>     // levels

#include "explore/explore.h"
#include "explore/fingerprint_set.h"
#include "properties/property.h"
#include "runner/coverage.h"

namespace eevdf::explore::search {

struct Node {
  std::uint32_t parent = 0;     // index in the level before
  Move move;                    // what led here
  std::uint64_t footprint = 0;  // the move's CPUs, in the parent's state
  bool por_free = false;        // reached at this depth after different moves: nothing pruned here
};
using Levels = std::vector<std::vector<Node>>;

struct Recorded {
  std::string property;
  std::string values;
  std::string explanation;
  std::string finding;
};

// The violations of one transition (the replays of a known path are muted).
class Recorder final : public properties::Sink {
 public:
  void violation(const properties::Violation& v) override {
    if (!muted) found.push_back({std::string(v.property), v.values, v.explanation, std::string(v.finding)});
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  bool muted = false;
  std::vector<Recorded> found;
};

// One transition a worker tried, for the merge.
struct Candidate {
  std::uint64_t fp = 0, exact_fp = 0;
  std::uint32_t parent = 0;
  Move move;
  std::uint64_t footprint = 0;
  bool halted = false;
  bool reach = false;
  std::uint32_t first_violation = 0, violations = 0;  // into the worker's Recorder
};

struct Tally {
  std::uint64_t pruned = 0, illegal = 0;
};

// What a worker's expand() leaves for the merge: its candidates and tallies, the
// violations they point into in its Recorder.
struct Expansion {
  std::vector<Candidate> candidates;
  Tally tally;
  // At the start of an expansion: the last level's results gone.
  void reset(Recorder& sink) {
    candidates.clear();
    sink.found.clear();
    tally = {};
  }
  // Whether partial-order reduction leaves out `move` (changing `cpus`) after the move
  // that led to `node` at `depth`; counted.
  bool pruned(const Options& o, int depth, const Node& node, const Move& move, std::uint64_t cpus) {
    if (!o.por || depth == 0 || node.por_free || !commute_and_sorted_after(node.move, node.footprint, move, cpus))
      return false;
    ++tally.pruned;
    return true;
  }
};

// The start state, as a worker saw it: its fingerprints and whether `reach` holds.
struct Start {
  std::uint64_t fp = 0, exact_fp = 0;
  bool reached = false;
};

// The trace events of paths: times from the start state's last event, lines after it.
class Paths {
 public:
  Paths(const std::vector<trace::Event>& prefix, std::vector<int> task_ids, std::uint64_t quantum_ns)
      : ids_(std::move(task_ids)), quantum_ns_(quantum_ns) {
    if (!prefix.empty()) {
      start_time_ = prefix.back().time_ns;
      prefix_lines_ = prefix.back().line;
    }
  }
  std::uint64_t start_time() const { return start_time_; }
  // The event of `move` after a parent whose last event was at `parent_time`, at `depth`.
  trace::Event event(const Move& move, std::uint64_t parent_time, int depth) const {
    return to_event(ids_, move, parent_time + move.gap * quantum_ns_, prefix_lines_ + depth);
  }
  // The events from the start state to node `i` of level `depth`.
  std::vector<trace::Event> path(const Levels& levels, int depth, std::uint32_t i) const {
    std::vector<const Node*> nodes;
    for (int d = depth; d > 0; --d) {
      nodes.push_back(&levels[static_cast<std::size_t>(d)][i]);
      i = nodes.back()->parent;
    }
    std::vector<trace::Event> out;
    std::uint64_t t = start_time_;
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      out.push_back(event((*it)->move, t, static_cast<int>(out.size()) + 1));
      t = out.back().time_ns;
    }
    return out;
  }

 private:
  std::vector<int> ids_;
  std::uint64_t quantum_ns_;
  std::uint64_t start_time_ = 0;
  int prefix_lines_ = 0;
};

inline double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The search. `W` is made per job as W(args...) and offers: start() (the start state,
// its end-of-trace checks run), expand(levels, depth, begin, end) into `candidates`
// and `tally`, sink() (the violations candidates point into), paths(), the symmetry
// in force (symmetric_tasks(), symmetric_cpus()) and coverage() (nullptr: none kept).
// Workers derive from Expansion.
template <class W, class... Args>
Result run(const std::vector<trace::Event>& prefix, const Options& options, const Progress& progress,
           const Args&... args) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_now();
  const int jobs = std::max(1, options.jobs);
  std::vector<std::unique_ptr<W>> workers;
  for (int w = 0; w < jobs; ++w) workers.push_back(std::make_unique<W>(args..., prefix, options));
  W& first = *workers.front();

  Result result;
  result.reach_asked = !options.reach.empty();
  result.symmetric_tasks = options.symmetry && first.symmetric_tasks();
  result.symmetric_cpus = options.symmetry && first.symmetric_cpus();
  FingerprintSet visited, exact;
  Levels levels(1, std::vector<Node>(1));
  std::map<std::string, bool> seen;  // properties and known findings with a counterexample
  std::uint64_t peak_index_bytes = 0;

  const auto record = [&](const std::vector<Recorded>& found, std::size_t from, std::size_t count, int depth,
                          const std::vector<trace::Event>& path) {
    for (std::size_t k = from; k < from + count; ++k) {
      const Recorded& f = found[k];
      const std::string key = f.finding.empty() ? f.property : "finding " + f.finding;
      if (seen[key]) continue;
      seen[key] = true;
      (f.finding.empty() ? result.violations : result.findings)
          .push_back({f.property, depth, {path}, f.values, f.explanation, f.finding});
    }
  };

  // Depth 0: the start state, with the end-of-trace checks of the prefix. The prefix's
  // own violations reached the first worker's sink as it was built.
  const Start start = first.start();
  visited.insert(start.fp);
  if (options.symmetry_stats) exact.insert(start.exact_fp);
  result.reached = start.reached;
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
    const std::size_t n = levels[static_cast<std::size_t>(depth)].size();
    std::vector<std::thread> threads;
    for (int w = 0; w < jobs; ++w) {
      const std::size_t b = n * static_cast<std::size_t>(w) / static_cast<std::size_t>(jobs);
      const std::size_t e = n * static_cast<std::size_t>(w + 1) / static_cast<std::size_t>(jobs);
      W* worker = workers[static_cast<std::size_t>(w)].get();
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
          auto path = first.paths().path(levels, depth, c.parent);
          const std::uint64_t t = path.empty() ? first.paths().start_time() : path.back().time_ns;
          path.push_back(first.paths().event(c.move, t, depth + 1));
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
  if (first.coverage() != nullptr)
    for (std::size_t k = 0; k < runner::kProbeNames.size(); ++k) {
      std::uint64_t n = 0;
      for (const auto& w : workers) n += (*w->coverage())[k];
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

}  // namespace eevdf::explore::search
