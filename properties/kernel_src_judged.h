// Which properties judge the real code (kernel-src) itself: the checks run on the
// mirror of its runqueues (replay/kernel_src_mirror.h), fed by the calls the
// harness's wrappers observe. A property needs the state and the hooks it reads; one
// whose hook no wrapper supplies is not judged on the real code, and says which
// call it would need. judging.h decides from this table; the mirror selects by it.
#pragma once

#include <array>        // the tables
#include <string_view>  // names
#include <vector>       // a tree's gaps

namespace eevdf::properties {

// The per-event properties judged on kernel-src's mirror (its state after every
// event; placed, picked, lag_stored, set_next, buddy_set, charged, v0_moved,
// wakeup_pick_step, wakeup_decided, delay_entered, delay_left and yielded from the
// wrapped calls, block_completed from the driver's __block_task), and kernel_warn (the
// real code's own warnings and crash).
inline constexpr std::array<std::string_view, 29> kJudgedOnKernelSrc{{
    "sums_consistent",
    "counters_consistent",
    "augmented_consistent",
    "task_conservation",
    "service_conservation",
    "lag_zero_sum",
    "pick_eligible",
    "pick_earliest_deadline",
    "pick_nonempty",
    "placement_eligible",
    "placement_preserves_lag",
    "migration_preserves_lag",
    "reweight_preserves_lag",
    "lag_clamped",
    "delayed_never_runs",
    "slice_sane",
    "lone_no_resched",
    "iowait_accounting",
    "iowait_visibility",
    "delayed_entry",
    "delayed_frozen",
    "delayed_completion",
    "lag_bound",
    "wakeup_preempt_rule",
    "slice_protection",
    "deadline_rule",
    "yield_rule",
    "charge_rule",
    "kernel_warn",
}};

// For each per-event property not judged on kernel-src: what the real code does not
// show the mirror yet.
struct KernelSrcGap {
  std::string_view name;
  std::string_view needs;
};
inline constexpr std::array<KernelSrcGap, 2> kKernelSrcGaps{{
    {"no_overflow", "the s64 operations of the real code, which wrap without a trace"},
    {"min_slice_exact", "set_protect_slice's minimum slice (protection_set: a vprot tree's set_protect_slice(cfs_rq, se))"},
}};

// The per-event properties only the real code is judged by: state the reference
// keeps no form of, with the reason.
struct KernelSrcOnly {
  std::string_view name;
  std::string_view why;
};
inline constexpr std::array<KernelSrcOnly, 1> kKernelSrcOnly{{
    {"augmented_consistent",
     "the reference keeps no per-node augmented values (model/cfs_rq.h: its timeline is an ordered set and its "
     "slices a multiset); it judges the real code's own rbtree"},
}};

// Why `name` is judged on kernel-src only ("" when the reference judges it too).
constexpr std::string_view kernel_src_only(std::string_view name) {
  for (const KernelSrcOnly& k : kKernelSrcOnly)
    if (k.name == name) return k.why;
  return {};
}

// What of a kernel tree decides which of kJudgedOnKernelSrc its mirror judges: the
// shape bits of its observation (replay/kernel_src_mirror.h tree_traits), never its
// version number.
struct TreeTraits {
  // The default tree: the properties kernel-src does not show run on the 6.12
  // reference in lockstep. Any other tree is judged by its mirror alone.
  bool reference_lockstep = true;
  bool vprot = false;              // se->vprot: the 6.18 forms (else 6.12's)
};

// The per-event properties of kJudgedOnKernelSrc a tree with these traits leaves
// unjudged, and why: where a tree changes a rule whose form is not stated yet, its
// shape bit becomes a trait and the property an entry here, listed as not judged.
// Every rule of the trees from 6.12 to 7.1 has its form (docs/KERNEL_TREES.md).
inline std::vector<KernelSrcGap> tree_gaps(const TreeTraits& /*traits*/) { return {}; }

constexpr bool judged_on_tree(std::string_view name, const TreeTraits& t) {
  if (name == "min_slice_exact") return t.vprot;
  for (const std::string_view p : kJudgedOnKernelSrc)
    if (p == name) return true;
  return false;
}

constexpr bool judged_on_kernel_src(std::string_view name) {
  for (const std::string_view p : kJudgedOnKernelSrc)
    if (p == name) return true;
  return false;
}

// What `name` would need to be judged on kernel-src ("" when it is, or is no
// per-event property).
constexpr std::string_view kernel_src_gap(std::string_view name) {
  for (const KernelSrcGap& g : kKernelSrcGaps)
    if (g.name == name) return g.needs;
  return {};
}

}  // namespace eevdf::properties
