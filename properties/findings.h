// The findings registry (docs/INJECTIONS.md, Findings; docs/PROPERTIES.md): failures of the faithful
// model that are genuine upstream behaviour. A violation is a known finding only when
// its property, the profile and the condition all match an entry; each entry has a
// trace in corpus/findings/ that shows it.
#pragma once

#include <array>        // the registry
#include <cstddef>      // positions
#include <cstdint>      // ns
#include <string_view>  // names

namespace eevdf::properties {

struct FindingInfo {
  std::string_view name;       // also the corpus/findings/ file name
  std::string_view property;
  std::string_view profiles;   // the profiles it applies to
  std::string_view condition;  // what identifies it
  std::string_view origin;     // the kernel behaviour or commit it comes from
};

inline constexpr std::array<FindingInfo, 11> kFindings{{
    {"monotone-min-vruntime-overflow", "no_overflow", "6.18",
     "the runqueue had a tick-less stretch of at least 1 s with queued entities before the overflow",
     "min_vruntime as v0 up to v6.18.3 (zero_vruntime from 79f3f9bedd14, v6.19)"},
    {"delay-dequeue-hides-iowait", "iowait_visibility", "6.12, 6.18",
     "any delayed io sleep: a measure, never a failure",
     "DELAY_DEQUEUE (152e11f6df29, v6.12): __block_task runs only when the delayed dequeue completes"},
    // The fairness bounds (docs/PROPERTIES.md asks which stretches lag_bound holds in on
    // the faithful model; properties/delayed.h checks it only there).
    {"lag-bound-steady-off-tick-grid", "lag_bound_steady", "6.18",
     "r_max is not a whole number of ticks and the lag is within ceil(r_max/q)*q + q: a protected slice "
     "runs to the next tick",
     "slice protection (RUN_TO_PARITY, §7.3) noticed only at the tick (§8.2)"},
    {"lag-bound-off-tick-grid", "lag_bound", "6.12, 6.18",
     "a measure: s_max is not a whole number of ticks (the catalogue's slice shorter than the tick)",
     "preemption at the tick only (§8.2)"},
    {"lag-bound-stored-lag-joins", "lag_bound", "6.12, 6.18",
     "a measure: a task joined with a stored lag or a relative deadline",
     "PLACE_LAG (§6.1): a join with lag l moves V by -w*l/W"},
    {"lag-bound-renice-renews-protection", "lag_bound", "6.18",
     "a measure: a queued task was reniced or given a slice",
     "set_user_nice/sched_setattr put and set curr again: a fresh slice protection (§7.3, §19)"},
    {"lag-bound-yield", "lag_bound", "6.12, 6.18",
     "a measure: a queued task yielded",
     "yield_task_fair moves vruntime to the deadline without service (§12)"},
    {"kernel-src-null-pick-after-overflow", "kernel_warn", "6.12 (kernel-src, Debian 6.12.117)",
     "kernel-src stopped where the real code would crash: pick_eevdf() found nothing eligible after an s64 "
     "overflow of the sums (unphysical tick-less stretches); the reference leaves the CPU idle there",
     "pick_next_entity() dereferences pick_eevdf()'s result unchecked (linux-source-6.12 6.12.117-1~deb12u1)"},
    // Found by the properties on the real code (run --model=kernel-src --unphysical).
    {"k612-tickless-eligibility-overflow", "no_overflow", "6.12 (kernel-src, Debian 6.12.117)",
     "the runqueue had a tick-less stretch of at least 1 s with queued entities before the overflow (a nice-19 "
     "curr beside eight nice -20 tasks: key*W overflows after 190 s without a tick)",
     "vruntime_eligible() forms (v - v0) * W in s64; zero_vruntime keeps v0 at V, but one charge of a long "
     "stretch puts the light curr's key that far from it (linux-source-6.12 6.12.117-1~deb12u1)"},
    // Found by augmented_consistent on the real code's own rbtree (kernel-src).
    {"rbtree-rotate-stale-min-slice", "augmented_consistent", "6.12 (kernel-src, Debian 6.12.117), 6.18 (kernel trees)",
     "every member's min_vruntime is its subtree's; a min_slice (or max_slice) differs only at members with a child",
     "RB_DECLARE_CALLBACKS over min_vruntime: the rotation and copy callbacks copy only min_vruntime to the node "
     "that takes another's place, so its min_slice (max_slice) still describes its old subtree "
     "(docs/findings/rbtree-rotate-stale-min-slice.md)"},
    {"enqueue-max-slice-uninitialized", "augmented_consistent", "6.18 (kernel trees that keep max_slice: 7.0, 7.1)",
     "every member's min_vruntime is its subtree's and every leaf's min_slice its own slice; a leaf's max_slice "
     "differs",
     "__enqueue_entity() sets the inserted node's min_vruntime and min_slice but not its max_slice "
     "(docs/findings/enqueue-max-slice-uninitialized.md)"},
}};

// The entry named `name`, or nullptr.
constexpr const FindingInfo* find_finding(std::string_view name) {
  for (const FindingInfo& f : kFindings)
    if (f.name == name) return &f;
  return nullptr;
}

// Whether only the real code (kernel-src) meets the finding `name`: its trace is
// replayed with --model=kernel-src (the reference does not crash there).
constexpr bool met_on_kernel_src_only(std::string_view name) {
  return name == "kernel-src-null-pick-after-overflow" || name == "rbtree-rotate-stale-min-slice";
}

// Whether only kernel trees other than the default one meet the finding `name`: its
// trace is under corpus/findings/trees/<release line>/, replayed with --kernel-tree.
constexpr bool met_on_kernel_trees_only(std::string_view name) { return name == "enqueue-max-slice-uninitialized"; }

// The registered name `name`; a name not in the table fails to compile when the
// call is a constant expression (every caller's is).
constexpr std::string_view known_finding(std::string_view name) {
  for (const FindingInfo& f : kFindings)
    if (f.name == name) return f.name;
  throw "not in kFindings";
}

// Whether the entry `name` covers the profile `profile` ("6.12", "6.18"): its
// `profiles` starts with it or names it after a comma ("6.12, 6.18").
constexpr bool finding_covers(std::string_view name, std::string_view profile) {
  for (const FindingInfo& f : kFindings) {
    if (f.name != name) continue;
    const std::string_view list = f.profiles;
    for (std::size_t at = 0; at + profile.size() <= list.size(); ++at)
      if (list.substr(at, profile.size()) == profile && (at == 0 || list.substr(at - 2, 2) == ", ")) return true;
    return false;
  }
  return false;
}

// The tick-less stretch (ns) from which an overflow counts as the min_vruntime finding.
inline constexpr std::uint64_t kTicklessFindingNs = 1'000'000'000;

}  // namespace eevdf::properties
