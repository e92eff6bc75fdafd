// What each measure's value is (catalogue: Kind::measure and Kind::both), for the
// reports of `replay` and `run`: the number alone does not say.
#pragma once

#include <string_view>

namespace eevdf::properties {

constexpr std::string_view measure_unit(std::string_view name) {
  if (name == "iowait_visibility") return "ns x io sleepers that no nr_iowait counts";
  if (name == "lag_bound") return "largest |service lag| / (s_max + q) outside the qualifying stretches";
  if (name == "lag_bound_steady") return "largest |service lag| / (r_max + q) outside the steady stretches";
  return "";
}

}  // namespace eevdf::properties
