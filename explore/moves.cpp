#include "explore/moves.h"

namespace eevdf::explore {

namespace {
// A total order of moves at one instant: by their lowest CPU, then the rest.
auto order_key(const Move& m, std::uint64_t footprint) {
  const int lowest = footprint == 0 ? 64 : __builtin_ctzll(footprint);
  return std::tuple(lowest, static_cast<int>(m.verb), m.task, m.cpu, static_cast<int>(m.io), m.nice, m.slice_us);
}
}  // namespace

bool commute_and_sorted_after(const Move& last, std::uint64_t last_footprint, const Move& next,
                              std::uint64_t next_footprint) {
  if (next.gap != 0) return false;                 // another instant: the order is the times'
  if ((last_footprint & next_footprint) != 0) return false;  // a CPU both change
  if (last.task >= 0 && last.task == next.task) return false;
  return order_key(next, next_footprint) < order_key(last, last_footprint);
}

}  // namespace eevdf::explore
