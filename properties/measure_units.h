// What each measure's value is (catalogue: Kind::measure and Kind::both), for the
// reports of `replay` and `run`: the number alone does not say.
#pragma once

#include <string_view>

namespace eevdf::properties {

constexpr std::string_view measure_unit(std::string_view name) {
  if (name == "iowait_visibility") return "ns x io sleepers that no nr_iowait counts";
  if (name == "lag_bound" || name == "lag_bound_steady")
    return "largest |service lag| / (bound + tick) outside the qualifying stretches";
  return "";
}

}  // namespace eevdf::properties
