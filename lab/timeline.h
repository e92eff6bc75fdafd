// What one lab run did over a window of time, for the SVG timeline (svg.h): who ran
// on which CPU when, and the lag of chosen tasks. Filled by the driver (driver.h).
#pragma once

#include <cstdint>  // times
#include <string>   // names
#include <vector>   // slices, series

namespace eevdf::lab {

// Task `task` ran on `cpu` over [start_ns, end_ns) (clipped to the window).
struct RunSlice {
  int cpu = 0;
  int task = 0;  // index into Timeline::task_names
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

// A chosen task's lag after each event in the window: V - vruntime of its runqueue,
// in virtual ns (positive: owed service). `queued` false: not on a runqueue (no lag).
struct LagSample {
  std::uint64_t time_ns = 0;
  bool queued = false;
  std::int64_t lag_ns = 0;
};
struct LagSeries {
  int task = 0;
  std::vector<LagSample> samples;  // in time order; several may share a time
};

struct Timeline {
  std::string title;               // workload, side, seed
  std::uint64_t from_ns = 0;       // the window
  std::uint64_t to_ns = 0;
  int ncpus = 1;
  std::vector<std::string> task_names;  // "client.0"
  std::vector<int> task_group;          // per task: its group's index (its colour)
  std::vector<std::string> group_names;
  std::vector<RunSlice> slices;         // in start order
  std::vector<LagSeries> lag;
};

// The timeline as a standalone SVG document. Deterministic: the same timeline gives
// the same bytes (no clock, no locale, integer coordinates).
std::string render_svg(const Timeline& timeline);

}  // namespace eevdf::lab
