// The property catalogue of INVARIANTS.md: names, what kind of check each is, and
// the arithmetic it is exact in. The checks themselves live beside this file.
#pragma once

#include <array>        // the table
#include <string_view>  // names

namespace eevdf::properties {

enum class Kind { pass_fail, measure, both };  // `both`: pass/fail in some stretches, else a measure
enum class Exact { kernel, ideal, both, system };

struct PropertyInfo {
  std::string_view name;
  Kind kind;
  Exact exact_in;
  std::string_view summary;
};

inline constexpr std::array<PropertyInfo, 31> kCatalogue{{
    {"sums_consistent", Kind::pass_fail, Exact::both, "incremental sums, load and nr_queued match a recount"},
    {"counters_consistent", Kind::pass_fail, Exact::both, "nr_running, nr_runnable and task states agree"},
    {"task_conservation", Kind::pass_fail, Exact::both, "every runnable task is on exactly one runqueue"},
    {"service_conservation", Kind::pass_fail, Exact::both, "charged CPU time equals busy time to the ns"},
    {"no_overflow", Kind::pass_fail, Exact::kernel, "no s64 difference, product or sum overflows"},
    {"lag_zero_sum", Kind::pass_fail, Exact::both, "weighted lags sum to zero (kernel: within the floor)"},
    {"pick_eligible", Kind::pass_fail, Exact::both, "the picked entity is eligible unless alone"},
    {"pick_earliest_deadline", Kind::pass_fail, Exact::both, "the pick has the earliest eligible deadline"},
    {"pick_nonempty", Kind::pass_fail, Exact::both, "a pick on a non-empty queue returns an entity"},
    {"wakeup_preempt_rule", Kind::pass_fail, Exact::both, "wakeup preemption iff the wakee would be picked"},
    {"placement_eligible", Kind::pass_fail, Exact::both, "an entity placed with lag >= 0 is eligible"},
    {"placement_preserves_lag", Kind::pass_fail, Exact::both, "PLACE_LAG placement keeps the stored lag"},
    {"migration_preserves_lag", Kind::pass_fail, Exact::both, "migration keeps lag and relative deadline"},
    {"reweight_preserves_lag", Kind::pass_fail, Exact::both, "renice keeps V and the service lag"},
    {"lone_no_resched", Kind::pass_fail, Exact::both, "a lone entity is never asked to reschedule"},
    {"slice_sane", Kind::pass_fail, Exact::both, "slices are within bounds and refreshed when default"},
    {"min_slice_exact", Kind::pass_fail, Exact::both, "protection uses the true minimum queued slice"},
    {"slice_protection", Kind::pass_fail, Exact::both, "resched iff deadline or protection is reached"},
    {"lag_bound_steady", Kind::both, Exact::ideal, "Theorem 1 lag bound in steady stretches"},
    {"lag_bound", Kind::both, Exact::both, "service lag within slice + tick in qualifying stretches"},
    {"lag_clamped", Kind::pass_fail, Exact::kernel, "a stored vlag is within the clamp"},
    {"delayed_entry", Kind::pass_fail, Exact::both, "delayed only on an ineligible sleep with DELAY_DEQUEUE"},
    {"delayed_never_runs", Kind::pass_fail, Exact::both, "a delayed entity never runs nor becomes a buddy"},
    {"delayed_frozen", Kind::pass_fail, Exact::both, "a delayed entity's vruntime and deadline stay put"},
    {"delayed_completion", Kind::pass_fail, Exact::both, "delayed entities leave by pick, wake or force"},
    {"iowait_accounting", Kind::pass_fail, Exact::both, "nr_iowait counts completed io sleeps per CPU"},
    {"iowait_visibility", Kind::measure, Exact::both, "time io sleepers spend uncounted (measure)"},
    {"deterministic", Kind::pass_fail, Exact::system, "same trace, same dump; same seed, same trace"},
    {"fast_matches_reference", Kind::pass_fail, Exact::system, "fast model equals the kernel reference"},
    {"kernel_matches_reference", Kind::pass_fail, Exact::system, "6.12 profile equals the real fair.c"},
    {"ideal_tracks_kernel", Kind::pass_fail, Exact::system, "ideal and kernel decide alike within rounding"},
}};

}  // namespace eevdf::properties
