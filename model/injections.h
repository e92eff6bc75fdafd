// The historical kernel bugs the model can switch on (docs/INJECTIONS.md), by name. With none
// switched on the model is the faithful one.
#pragma once

#include <array>        // the table
#include <bitset>       // InjectionSet
#include <cstddef>      // std::size_t
#include <optional>     // lookup by name
#include <string_view>  // names

namespace eevdf::model {

enum class Injection : std::size_t {
  reweight_unscaled_lag,
  reweight_unclamped_lag,
  parity_ignores_min_slice,
  buddy_accepts_delayed,
  iowait_dec_new_rq,
  stale_min_slice,
};

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

inline std::optional<Injection> injection_by_name(std::string_view name) {
  for (std::size_t i = 0; i < kInjections.size(); ++i)
    if (kInjections[i].name == name) return static_cast<Injection>(i);
  return std::nullopt;
}

// The historical bugs switched on for one replay; empty for the faithful model.
class InjectionSet {
 public:
  bool on(Injection i) const { return bits_[static_cast<std::size_t>(i)]; }
  void set(Injection i) { bits_[static_cast<std::size_t>(i)] = true; }
  bool none() const { return bits_.none(); }

 private:
  std::bitset<kInjections.size()> bits_;
};

}  // namespace eevdf::model
