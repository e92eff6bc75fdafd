// Value orders for the simplifying passes; see values.h.
#include "shrinkers/values.h"

#include <cstdint>  // UINT64_MAX

#include "base/assert.h"

namespace eevdf::shrinkers {

std::vector<std::int64_t> toward(std::int64_t value, std::int64_t target) {
  std::vector<std::int64_t> out;
  if (value == target) return out;
  out.push_back(target);
  const bool down = target < value;
  std::int64_t diff = (down ? value - target : target - value) / 2;
  // The difference halves: at most 64 steps.
  for (int step = 0; step < 64 && diff > 0; ++step, diff /= 2) out.push_back(down ? value - diff : value + diff);
  EEVDF_ASSERT(out.size() <= 65, "halving steps are bounded");
  return out;
}

std::optional<std::uint64_t> roundest_between(std::uint64_t lo, std::uint64_t hi) {
  if (hi < lo + 2) return std::nullopt;
  const std::uint64_t mid = lo + (hi - lo) / 2;
  std::uint64_t p = 1;
  while (p <= hi / 10) p *= 10;  // the largest power of ten not above hi
  // From the roundest unit down: the first that has a multiple strictly inside.
  for (; p >= 1; p /= 10) {
    if (lo / p + 1 > UINT64_MAX / p) continue;  // no multiple of p above lo fits in 64 bits
    const std::uint64_t first = (lo / p + 1) * p;  // the smallest multiple above lo
    if (first >= hi) continue;
    const std::uint64_t last = ((hi - 1) / p) * p;  // the largest multiple below hi
    std::uint64_t x = (mid / p) * p;
    if (mid - x > p / 2 && x + p <= last) x += p;  // round half down to the nearest multiple
    if (x < first) x = first;
    if (x > last) x = last;
    EEVDF_ASSERT(x > lo && x < hi, "the roundest value lies strictly inside");
    return x;
  }
  EEVDF_ASSERT(false, "hi - lo >= 2 leaves an integer inside");
  return std::nullopt;
}

}  // namespace eevdf::shrinkers
