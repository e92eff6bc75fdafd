// A lab workload as data: groups of tasks, each running a small looping program.
// The format (`eevdf-lab 1`, docs/LAB.md) is read by read_workload; the driver
// (driver.h) turns the programs into trace events as the scheduler decides.
#pragma once

#include <cstdint>   // durations
#include <optional>  // header values
#include <string>    // names
#include <utility>   // feature words
#include <vector>    // groups, programs

#include "trace/trace.h"  // TopologySpec, Io

namespace eevdf::lab {

// A duration drawn per use: uniform over [lo, hi] ns (lo == hi: a constant).
struct Dist {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  bool operator==(const Dist&) const = default;
};

// Which tasks of group `group` a `wake` reaches (docs/LAB.md, "Programs").
enum class WakeWhom {
  partner,  // the task(s) of the same share: index i of a group of n, k tasks of a group of m
  all,      // every task of the group
  one,      // the next task of the group in turn (a cursor per waker)
};

// One statement of a program. Which fields mean something depends on `op`.
struct Op {
  enum Kind { run, sleep, wait, wake, yield, renice };
  Kind kind = run;
  int line = 0;             // its line in the workload file, for messages
  Dist dist;                // run, sleep
  trace::Io io = trace::Io::none;  // sleep, wait
  int group = -1;           // wake: the index of the woken group in Workload::groups
  WakeWhom whom = WakeWhom::partner;
  int nice = 0;             // renice
  bool operator==(const Op&) const = default;
};

struct Group {
  std::string name;
  int line = 0;
  int count = 1;
  int nice = 0;
  std::uint64_t slice_ns = 0;  // 0: the default slice
  std::vector<int> cpus;       // the CPUs its tasks may run on, ascending; empty: all
  std::uint64_t start_ns = 0;  // when its tasks are forked
  std::vector<Op> program;     // run in a loop, from the first statement
  bool operator==(const Group&) const = default;
};

struct Workload {
  std::string name;                      // the file's stem ("buddy_pair")
  std::vector<std::string> description;  // the comment lines before `eevdf-lab 1`
  std::optional<std::string> kernel;     // "6.18" or "6.12"
  trace::TopologySpec topology{.sockets = 1, .cores_per_socket = 1};
  int hz = 1000;
  std::optional<std::uint64_t> base_slice_ns;
  std::vector<std::pair<std::string, bool>> features;  // as the trace header keeps them
  std::uint64_t duration_ns = 10'000'000'000ull;
  std::vector<Group> groups;
  bool operator==(const Workload&) const = default;
};

// Reads a workload; throws trace::TraceError naming `file`, line and column for
// anything malformed or impossible (exit 2).
Workload read_workload(const std::string& text, const std::string& file);

}  // namespace eevdf::lab
