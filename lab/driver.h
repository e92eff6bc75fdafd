// The lab's discrete-event driver: runs a workload's programs over a target (an
// implementation of the fair class, target.h) for a simulated duration, turning them
// into trace events as the scheduler decides: every CPU ticks at HZ (aligned, the
// kernel's default), a running task's burst ends after that much time on the CPU, a
// timed sleep ends, a task wakes another. What it measures is what `perf sched
// latency` and schbench report (docs/LAB.md, "What is measured").
#pragma once

#include <cstdint>   // ns, counts
#include <map>       // violations per property
#include <optional>  // the window
#include <ostream>   // the saved trace
#include <string>    // names
#include <utility>   // feature words
#include <vector>    // per task

#include "lab/target.h"
#include "lab/timeline.h"
#include "lab/workload.h"
#include "properties/property.h"
#include "trace/trace.h"

namespace eevdf::lab {

struct TaskStats {
  std::uint64_t runtime_ns = 0;
  std::uint64_t switches = 0;      // times switched in
  std::uint64_t delays = 0;        // runnable (woken, forked or preempted) to switched in
  std::uint64_t delay_sum_ns = 0;
  std::uint64_t delay_max_ns = 0;
  std::vector<std::uint64_t> wakeup_latencies_ns;  // woken to switched in
  // Switched out while still runnable, by the event that did it (its own yield is
  // not counted): a wakeup (wake, fork), a tick, anything else (renice).
  std::uint64_t preempt_wakeup = 0;
  std::uint64_t preempt_tick = 0;
  std::uint64_t preempt_other = 0;
};

struct RunResult {
  std::string workload;
  std::uint64_t seed = 0;
  std::uint64_t duration_ns = 0;      // simulated (shorter when the target halted)
  std::uint64_t events = 0;
  std::vector<std::string> task_names;  // per task index: "client.0"
  std::vector<int> task_group;          // per task index
  std::vector<std::string> group_names;
  std::vector<TaskStats> tasks;
  // The time integral of Σ over CPUs of nr_iowait and of nr_iowait_acct: the iowait
  // time each counter makes visible, in ns.
  std::uint64_t iowait_ns = 0;
  std::uint64_t iowait_acct_ns = 0;
  // What the properties found: the first violations in full, and a count per property.
  std::vector<properties::Violation> violations;
  std::map<std::string, std::uint64_t> violation_counts;
  std::map<std::string, std::uint64_t> evaluated;  // per property: times judged
  bool halted = false;
  std::optional<Timeline> timeline;
};

struct RunOptions {
  std::uint64_t seed = 1;
  std::optional<std::uint64_t> duration_ns;  // overrides the workload's
  std::vector<std::pair<std::string, bool>> features;  // after the workload's (a later word wins)
  std::optional<std::pair<std::uint64_t, std::uint64_t>> window;  // the timeline's [from, to)
  std::vector<std::string> lag_of;  // task names ("client.0") whose lag the timeline plots
  std::ostream* save = nullptr;     // the trace, as it is generated
  std::string file = "<workload>";  // for messages
};

// The trace header of a workload: its machine, features (then `features`) and one task
// per group member, ids from 1 in group order, named "group.i".
trace::Header lab_header(const Workload& w, const std::vector<std::pair<std::string, bool>>& features);

// Runs `w` on the target built by `make` from the header (make_target). Throws
// trace::TraceError (exit 2) for a workload the target refuses.
RunResult run_workload(const Workload& w, const TargetSpec& target, const RunOptions& options);

}  // namespace eevdf::lab
