// Weights and inverses (docs/MODEL.md §1.2, §1.3 lazy inverse).
#include "model/weights.h"

#include <algorithm>  // std::max
#include <cassert>    // assert
#include <limits>     // std::numeric_limits

#include "model/kernel_int.h"

namespace eevdf::model {

// §1.2 scale_load(): 64-bit kernels keep 10 extra bits of resolution in every load.
std::uint64_t scale_load(std::uint64_t w) {
  assert(w <= (std::numeric_limits<std::uint64_t>::max() >> SCHED_FIXEDPOINT_SHIFT) &&
         "scaling must not shift weight bits out");
  const std::uint64_t scaled = w << SCHED_FIXEDPOINT_SHIFT;
  assert((scaled >> SCHED_FIXEDPOINT_SHIFT) == w);
  return scaled;
}

// §1.2 scale_load_down(): the max(2, ...) keeps a tiny non-zero group load from scaling
// down to 0 ("no load") or 1; the kernel's smallest group share is 2 too (MIN_SHARES).
std::uint64_t scale_load_down(std::uint64_t w) {
  if (w == 0) {
    return 0;
  }
  const std::uint64_t down = std::max<std::uint64_t>(2, w >> SCHED_FIXEDPOINT_SHIFT);
  assert(down >= 2 && "a non-zero load never scales down below 2");
  assert(down <= std::max<std::uint64_t>(2, w) && "scaling down never grows a load");
  return down;
}

// §1.2 set_load_weight(): tasks carry the table inverse, not the generic one.
load_weight load_weight_for_nice(int nice) {
  assert(nice >= NICE_MIN && nice <= NICE_MAX && "nice is -20..19");
  const std::size_t prio = to_size(nice - NICE_MIN);
  const load_weight lw{scale_load(sched_prio_to_weight[prio]), sched_prio_to_wmult[prio]};
  assert(lw.inv_weight != 0 && "a table inverse is never the lazy 'unset' 0");
  assert(scale_load_down(lw.weight) == sched_prio_to_weight[prio]);
  return lw;
}

// §1.3 __update_inv_weight(): w >= 2^32-1 would give an inverse of 0 or 1, so it is pinned
// to 1; w == 0 (an empty load) gets the largest inverse instead of dividing by zero.
std::uint32_t inv_weight_of(const load_weight& lw) {
  assert((lw.inv_weight == 0 || lw.weight != 0) && "a stored inverse implies a weight");
  if (lw.inv_weight != 0) {
    return lw.inv_weight;
  }
  const std::uint64_t w = scale_load_down(lw.weight);
  std::uint32_t inv = 0;
  if (w >= WMULT_CONST) {
    inv = 1;
  } else if (w == 0) {
    inv = WMULT_CONST;
  } else {
    inv = narrow_u32(WMULT_CONST / w);
  }
  assert(inv != 0 && "a computed inverse is never the lazy 'unset' 0");
  return inv;
}

// §1.3 __update_inv_weight(): computes the inverse once, on first use.
void update_inv_weight(load_weight& lw) {
  const std::uint32_t before = lw.inv_weight;
  lw.inv_weight = inv_weight_of(lw);
  assert(lw.inv_weight != 0);
  assert((before == 0 || before == lw.inv_weight) && "a set inverse is never recomputed");
}

}  // namespace eevdf::model
