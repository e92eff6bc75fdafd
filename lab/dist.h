// Drawing a workload's durations (workload.h Dist) from the run's one PRNG.
#pragma once

#include <cstdint>  // ns

#include "generator/prng.h"
#include "lab/workload.h"

namespace eevdf::lab {

// A constant takes no draw, so that adding a constant statement to a program does
// not change the draws of the others.
inline std::uint64_t draw(const Dist& d, generator::Prng& prng) {
  return d.lo == d.hi ? d.lo : prng.range_inclusive(d.lo, d.hi);
}

}  // namespace eevdf::lab
