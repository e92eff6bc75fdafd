// The sched_features switches the modelled fair class reads (docs/MODEL.md §14),
// by their kernel names, with each profile's defaults.
#pragma once

#include <array>        // the feature table
#include <bitset>       // FeatureSet
#include <cstddef>      // std::size_t
#include <optional>     // lookup by name
#include <string_view>  // names

namespace eevdf::model {

enum class Feature : std::size_t {
  PLACE_LAG,
  PLACE_DEADLINE_INITIAL,
  PLACE_REL_DEADLINE,
  RUN_TO_PARITY,
  PREEMPT_SHORT,
  NEXT_BUDDY,
  PICK_BUDDY,
  DELAY_DEQUEUE,
  DELAY_ZERO,
  WAKEUP_PREEMPTION,
  RUN_TO_PARITY_WAKEUP,  // unmerged RFC (K Prateek Nayak, March 2024), §8.3
};

struct FeatureInfo {
  std::string_view name;
  bool default_on;  // the same in the 6.12 and 6.18 profiles (§14)
  std::string_view meaning;
};

inline constexpr std::array<FeatureInfo, 11> kFeatures{{
    {"PLACE_LAG", true, "keep the (inflated) lag across sleep and migration"},
    {"PLACE_DEADLINE_INITIAL", true, "a new task's first deadline is half a slice away"},
    {"PLACE_REL_DEADLINE", true, "keep the relative deadline across non-sleep dequeues"},
    {"RUN_TO_PARITY", true, "protect an eligible curr for the shortest queued slice"},
    {"PREEMPT_SHORT", true, "a wakee with a shorter slice may override protection"},
    {"NEXT_BUDDY", false, "a wakee becomes the next buddy"},
    {"PICK_BUDDY", true, "the pick honours an eligible next buddy"},
    {"DELAY_DEQUEUE", true, "an ineligible sleeper stays queued until picked or woken"},
    {"DELAY_ZERO", true, "clip positive lag to 0 when a delayed dequeue completes"},
    {"WAKEUP_PREEMPTION", true, "allow wakeup preemption at all"},
    {"RUN_TO_PARITY_WAKEUP", false, "RFC: a protected curr survives wakeups even if ineligible"},
}};

inline std::optional<Feature> feature_by_name(std::string_view name) {
  for (std::size_t i = 0; i < kFeatures.size(); ++i)
    if (kFeatures[i].name == name) return static_cast<Feature>(i);
  return std::nullopt;
}

// The switches one replay runs with: profile defaults, then the trace header, then
// the command line.
class FeatureSet {
 public:
  static FeatureSet defaults() {
    FeatureSet set;
    for (std::size_t i = 0; i < kFeatures.size(); ++i) set.bits_[i] = kFeatures[i].default_on;
    return set;
  }
  bool on(Feature f) const { return bits_[static_cast<std::size_t>(f)]; }
  void set(Feature f, bool value) { bits_[static_cast<std::size_t>(f)] = value; }
  bool operator==(const FeatureSet&) const = default;

 private:
  std::bitset<kFeatures.size()> bits_;
};

}  // namespace eevdf::model
