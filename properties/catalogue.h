// The property catalogue of docs/PROPERTIES.md: names, what kind of check each is, and
// the arithmetic it is exact in. The checks themselves live beside this file.
#pragma once

#include <array>        // the table
#include <string_view>  // names

namespace eevdf::properties {

enum class Kind { pass_fail, measure, both };  // `both`: pass/fail in some stretches, else a measure
enum class Exact { kernel, ideal, both, system };
// The kernel profiles a property applies to (docs/PROPERTIES.md, Rules), and whether its
// 6.12 statement differs from the 6.18 one (Forms<P>, profile_forms.h).
enum class Profiles { both, both_own_6_12_form, only_6_18, only_6_12 };

struct PropertyInfo {
  std::string_view name;
  Kind kind;
  Exact exact_in;
  std::string_view summary;
  Profiles profiles = Profiles::both;
  // The 6.12 form where it differs, or why the property does not apply to 6.12.
  std::string_view on_6_12 = {};
  // A whole-system property: what judges it (the replay flag of its differential,
  // or "tests"); empty for the per-event checks of the registry.
  std::string_view judged_by = {};
};

inline constexpr std::array<PropertyInfo, 36> kCatalogue{{
    {"sums_consistent", Kind::pass_fail, Exact::both, "incremental sums, load and nr_queued match a recount",
     Profiles::both_own_6_12_form, "v0 is zero_vruntime: it moves only inside avg_vruntime, to V of Q at that moment, in either direction (§4.3)"},
    {"counters_consistent", Kind::pass_fail, Exact::both, "nr_running, nr_runnable and task states agree"},
    {"augmented_consistent", Kind::pass_fail, Exact::kernel,
     "each tree member keeps its subtree's minimum vruntime (and min/max slice) (kernel-src)"},
    {"task_conservation", Kind::pass_fail, Exact::both, "every runnable task is on exactly one runqueue"},
    {"service_conservation", Kind::pass_fail, Exact::both, "charged CPU time equals busy time to the ns"},
    {"no_overflow", Kind::pass_fail, Exact::kernel, "no s64 difference, product or sum overflows"},
    {"lag_zero_sum", Kind::pass_fail, Exact::both, "weighted lags sum to zero (kernel: within the floor)"},
    {"pick_eligible", Kind::pass_fail, Exact::both, "the picked entity is eligible unless alone"},
    {"pick_earliest_deadline", Kind::pass_fail, Exact::both, "the pick has the earliest eligible deadline",
     Profiles::both_own_6_12_form, "the protected curr exempt is RUN_TO_PARITY with vlag == deadline (§7.1 K6.12)"},
    {"pick_nonempty", Kind::pass_fail, Exact::both, "a pick on a non-empty queue returns an entity"},
    {"wakeup_preempt_rule", Kind::pass_fail, Exact::both, "wakeup preemption iff the wakee would be picked",
     Profiles::both_own_6_12_form, "PREEMPT_SHORT is do_preempt_short (eligible shorter-slice wakee with an earlier deadline or an ineligible curr) and cancels protection before the pick; the pick keeps a protected curr (vlag == deadline) only with RUN_TO_PARITY (§8.2 K6.12)"},
    {"placement_eligible", Kind::pass_fail, Exact::both, "an entity placed with lag >= 0 is eligible"},
    {"placement_preserves_lag", Kind::pass_fail, Exact::both, "PLACE_LAG placement keeps the stored lag"},
    {"migration_preserves_lag", Kind::pass_fail, Exact::both, "migration keeps lag and relative deadline"},
    {"reweight_preserves_lag", Kind::pass_fail, Exact::both, "renice keeps V and the service lag",
     Profiles::both_own_6_12_form, "the relative deadline is restored unscaled: off the runqueue reweight_entity rescales vlag only (§9 K6.12)"},
    {"lone_no_resched", Kind::pass_fail, Exact::both, "a lone entity is never asked to reschedule"},
    {"slice_sane", Kind::pass_fail, Exact::both, "slices are within bounds and refreshed when default"},
    {"min_slice_exact", Kind::pass_fail, Exact::both, "protection uses the true minimum queued slice",
     Profiles::only_6_18, "not applicable to 6.12: its slice protection uses no minimum slice (curr is protected until its deadline, vlag == deadline, §7.3 K6.12)"},
    {"slice_protection", Kind::pass_fail, Exact::both, "resched iff deadline or protection is reached",
     Profiles::both_own_6_12_form, "resched iff vruntime >= deadline, or PREEMPT_SHORT and curr unprotected and ineligible (did_preempt_short, §5.1 K6.12); protection set at the pick, ended by a deadline renewal or a do_preempt_short wakeup"},
    {"deadline_rule", Kind::pass_fail, Exact::both, "a deadline set by placement or renewal is the rule's"},
    {"yield_rule", Kind::pass_fail, Exact::both, "a yield forfeits an eligible curr's request, else nothing"},
    {"charge_rule", Kind::pass_fail, Exact::both, "a charge advances vruntime by calc_delta_fair, up to now"},
    {"lag_bound_steady", Kind::both, Exact::ideal, "Theorem 1 lag bound in steady stretches"},
    {"lag_bound", Kind::both, Exact::both, "service lag within slice + tick in qualifying stretches"},
    {"lag_clamped", Kind::pass_fail, Exact::kernel, "a stored vlag is within the clamp"},
    {"delayed_entry", Kind::pass_fail, Exact::both, "delayed only on an ineligible sleep with DELAY_DEQUEUE"},
    {"delayed_never_runs", Kind::pass_fail, Exact::both, "a delayed entity never runs nor becomes a buddy"},
    {"delayed_frozen", Kind::pass_fail, Exact::both, "a delayed entity's vruntime and deadline stay put"},
    {"delayed_completion", Kind::pass_fail, Exact::both, "delayed entities leave by pick, wake or force"},
    {"iowait_accounting", Kind::pass_fail, Exact::both, "nr_iowait counts completed io sleeps per CPU"},
    {"iowait_visibility", Kind::measure, Exact::both, "time io sleepers spend uncounted (measure)"},
    {"kernel_warn", Kind::pass_fail, Exact::both, "no condition the kernel warns about or dies on (the model's own checks)"},
    {"deterministic", Kind::pass_fail, Exact::system, "same trace, same dump; same seed, same trace", Profiles::both,
     {}, "tests"},
    {"fast_matches_reference", Kind::pass_fail, Exact::system, "fast model equals the kernel reference",
     Profiles::only_6_18, "not applicable to 6.12: the fast model follows 6.18 only", "--diff"},
    {"kernel_matches_reference", Kind::pass_fail, Exact::system, "6.12 profile equals the real fair.c", Profiles::only_6_12,
     {}, "--diff=kernel-src"},
    {"ideal_tracks_kernel", Kind::pass_fail, Exact::system, "ideal and kernel decide alike within rounding",
     Profiles::both, {}, "--diff=ideal"},
}};

// Whether `p` applies to the kernel profile named `profile` ("6.18", "6.12").
constexpr bool applies_to(const PropertyInfo& p, std::string_view profile) {
  switch (p.profiles) {
    case Profiles::both:
    case Profiles::both_own_6_12_form: return true;
    case Profiles::only_6_18: return profile == "6.18";
    case Profiles::only_6_12: return profile == "6.12";
  }
  return false;
}

// For listings: the profiles, a `*` marking an own 6.12 form.
constexpr std::string_view profiles_text(Profiles p) {
  switch (p) {
    case Profiles::both: return "6.12, 6.18";
    case Profiles::both_own_6_12_form: return "6.12*, 6.18";
    case Profiles::only_6_18: return "6.18";
    case Profiles::only_6_12: return "6.12";
  }
  return "?";
}

}  // namespace eevdf::properties
