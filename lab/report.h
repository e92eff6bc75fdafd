// The lab's tables (docs/LAB.md, "Reading the tables"): per task group what `perf
// sched latency` shows (Runtime, Switches, Avg/Max/Sum delay), wakeup latency
// percentiles, involuntary preemptions, CPU shares, and the iowait time the two
// counters make visible; over several seeds the mean and the spread; two sides
// (A against B) side by side with the differences. Deterministic text and JSON.
#pragma once

#include <cstdint>  // ns
#include <string>   // text
#include <vector>   // runs, metrics

#include <nlohmann/json_fwd.hpp>

#include "lab/driver.h"

namespace eevdf::lab {

// One number of one run: a group's (group != "") or the whole run's.
struct Metric {
  std::string group;
  std::string name;  // "runtime_ms", "switches", "wakeup_p99_us", ...
  double value = 0;
};

// The metrics of one run, in a fixed order: per group, then the run's.
std::vector<Metric> metrics(const RunResult& run);

// Nearest-rank percentile (per mille: 500 is P50, 999 is P99.9) of sorted values;
// 0 for none.
std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, unsigned per_mille);

// One side of an experiment: its label ("DELAY_DEQUEUE", a tree) and one run per seed.
struct Side {
  std::string label;
  std::vector<RunResult> runs;
};

// The text report: for one run, the perf-style table, the latency percentiles and the
// iowait times; for several seeds or two sides, one row per metric with each side's
// mean and [min..max] and the difference of the means (B - A).
std::string format_report(const std::vector<Side>& sides);
nlohmann::json report_json(const std::vector<Side>& sides);

// The property violations of every run ("" when none).
std::string format_violations(const std::vector<Side>& sides);

}  // namespace eevdf::lab
