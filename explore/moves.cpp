#include "explore/moves.h"

#include <tuple>  // the order of moves

namespace eevdf::explore {

namespace {
// A total order of moves at one instant: by their lowest CPU, then the rest.
auto order_key(const Move& m, std::uint64_t footprint) {
  const int lowest = footprint == 0 ? 64 : __builtin_ctzll(footprint);
  return std::tuple(lowest, static_cast<int>(m.verb), m.task, m.cpu, static_cast<int>(m.io), m.nice, m.slice_us);
}
}  // namespace

std::vector<int> task_ids(const std::vector<model::TaskSpec>& specs) {
  std::vector<int> ids;
  for (const model::TaskSpec& s : specs) ids.push_back(s.id);
  return ids;
}

trace::Event to_event(const std::vector<int>& ids, const Move& move, std::uint64_t t, int line) {
  trace::Event e;
  e.line = line;
  e.time_ns = t;
  e.verb = move.verb;
  if (move.task >= 0) e.task = ids.at(static_cast<std::size_t>(move.task));
  if (move.cpu == -2) e.all_cpus = true;
  if (move.cpu >= 0) e.cpu = move.cpu;
  e.io = move.io;
  e.nice = move.nice;
  e.slice_ns = std::uint64_t{move.slice_us} * 1000;
  return e;
}

bool commute_and_sorted_after(const Move& last, std::uint64_t last_footprint, const Move& next,
                              std::uint64_t next_footprint) {
  if (next.gap != 0) return false;                 // another instant: the order is the times'
  if ((last_footprint & next_footprint) != 0) return false;  // a CPU both change
  if (last.task >= 0 && last.task == next.task) return false;
  return order_key(next, next_footprint) < order_key(last, last_footprint);
}

}  // namespace eevdf::explore
