// The shrinker benchmark (docs/BENCHMARKS.md): the same failing traces
// shrunk by shrinkers/ and by RapidCheck's list shrinking (rc_list_shrink.h) with a
// budget of 10x the shrinkers' time, side by side from one run.
//
// The traces: for each injection and size N, the first `seeds` generated traces of
// exactly N events (the campaign's generator settings: 2x64, 2..16 tasks on up to 8
// busy CPUs, random feature sets, the injection on; trace k's seed split from
// (seed, k)) that violate one of the injection's "caught by" properties (docs/INJECTIONS.md) on
// their own for the first time in their last quarter, so the failure needs the whole
// trace's history to be searched; when `traces_max` seeds give fewer, the latest-
// failing of them complete the set (the report shows where each fails). The target
// of both shrinkers is that first violation (property and finding status).
#pragma once

#include <cstdint>     // counts
#include <functional>  // progress
#include <string>      // names
#include <vector>      // cases

namespace eevdf::bench {

struct ShrinkBenchOptions {
  std::vector<std::string> injections;  // empty: every implemented one
  std::vector<std::uint64_t> sizes{100, 300, 1000, 10000};
  int seeds = 5;
  std::uint64_t seed = 1;
  double rc_budget_factor = 10;
  double budget_seconds = 60;  // the shrinkers' own budget (the CLI's default is 30 s)
  // Generated traces searched per (injection, size) for late failures: most fail
  // early (and cost only their events up to the failure); some injections almost
  // never fail late in a long trace (an io sleep and a wakeup migration come early).
  std::uint64_t traces_max = 3000;
};

struct ShrinkCase {
  std::string injection;
  std::uint64_t size = 0;       // events of the failing trace
  std::uint64_t trace_index = 0;
  std::string property;
  std::uint64_t failure_at = 0;  // events up to the first failure
  std::uint64_t ours_events = 0, ours_tasks = 0, ours_cpus = 0, ours_candidates = 0;
  double ours_seconds = 0;
  std::string ours_stopped;
  std::uint64_t rc_events = 0, rc_candidates = 0;
  double rc_seconds = 0;
  bool rc_finished = false;
  std::string ours_text, rc_text;  // the shrunk traces
};

// Every case, in (injection, size, trace) order; `progress` (may be empty) gets each
// case as it completes.
std::vector<ShrinkCase> run_shrink_bench(const ShrinkBenchOptions& options,
                                         const std::function<void(const ShrinkCase&)>& progress);

// Injections the model implements (docs/INJECTIONS.md minus stale_min_slice).
std::vector<std::string> implemented_injections();

}  // namespace eevdf::bench
