// The historical kernel bugs the model can switch on (BUGS.md), by name. With none
// switched on the model is the faithful one.
#pragma once

#include <array>        // the table
#include <string_view>  // names

namespace eevdf::model {

struct InjectionInfo {
  std::string_view name;
  std::string_view kernel_fix;  // the commit that fixed the historical bug
};

inline constexpr std::array<InjectionInfo, 6> kInjections{{
    {"reweight_unscaled_lag", "eab03c23c2a1"},
    {"reweight_unclamped_lag", "1560d1f6eb6b"},
    {"parity_ignores_min_slice", "3a0baa8e6c57, 74eec63661d4"},
    {"buddy_accepts_delayed", "493afbd187c4"},
    {"iowait_dec_new_rq", "ec618b84f6e1 (same kind)"},
    {"stale_min_slice", "sched/fair: Fix rb augmented with multi fields (2026)"},
}};

}  // namespace eevdf::model
