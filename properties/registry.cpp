// The property registry: one factory per implemented property; see registry.h.
// The templates are instantiated here for both arithmetics.
#include "properties/registry.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include "base/assert.h"

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/augmented.h"
#include "properties/bookkeeping.h"
#include "properties/charge.h"
#include "properties/deadline.h"
#include "properties/delayed.h"
#include "properties/kernel_warn.h"
#include "properties/iowait.h"
#include "properties/lag.h"
#include "properties/pick.h"
#include "properties/protection.h"
#include "properties/property_set.h"
#include "properties/protection_6_12.h"
#include "properties/registry_table.h"

namespace eevdf::properties {
namespace {

// The checks of profile P: each class instantiated for it (its 6.12 form through
// Forms<P>), and the profile's own slice protection (register_protection).
template <class A, class P>
Table<A, P> factories() {
  Table<A, P> table{
      {"sums_consistent", plain<A, P, SumsConsistent<A, P>>()},
      {"counters_consistent", plain<A, P, CountersConsistent<A, P>>()},
      {"augmented_consistent", plain<A, P, AugmentedConsistent<A, P>>()},
      {"task_conservation", plain<A, P, TaskConservation<A, P>>()},
      {"no_overflow", plain<A, P, NoOverflow<A, P>>()},
      {"lag_zero_sum", plain<A, P, LagZeroSum<A, P>>()},
      {"pick_eligible", plain<A, P, PickRules<A, P, PickRule::eligible>>()},
      {"pick_earliest_deadline", plain<A, P, PickRules<A, P, PickRule::earliest>>()},
      {"pick_nonempty", plain<A, P, PickRules<A, P, PickRule::nonempty>>()},
      {"delayed_never_runs", plain<A, P, DelayedNeverRuns<A, P>>()},
      {"iowait_accounting", plain<A, P, IowaitAccounting<A, P>>()},
      {"iowait_visibility", plain<A, P, IowaitVisibility<A, P>>()},
  };
  register_lag(table);
  register_protection<A>(table);
  register_delayed(table);
  register_deadline(table);
  register_charge(table);
  return table;
}

// Every registered class in the order factories() registers it, the profile's own
// slice protection in its place: the PropertySet that calls the selected checks.
// A class registered without a place here fails add_properties' assertion.
template <class A, class P, class... Protection>
using SetWith = PropertySet<A, P, SumsConsistent<A, P>, CountersConsistent<A, P>, AugmentedConsistent<A, P>,
                            TaskConservation<A, P>,
                            NoOverflow<A, P>, LagZeroSum<A, P>, PickRules<A, P, PickRule::eligible>,
                            PickRules<A, P, PickRule::earliest>, PickRules<A, P, PickRule::nonempty>,
                            DelayedNeverRuns<A, P>, IowaitAccounting<A, P>, IowaitVisibility<A, P>,
                            PlacementEligible<A, P>, PlacementPreservesLag<A, P>, MigrationPreservesLag<A, P>,
                            ReweightPreservesLag<A, P>, LagClamped<A, P>, ServiceConservation<A, P>,
                            WakeupPreemptRule<A, P>, LoneNoResched<A, P>, SliceSane<A, P>, Protection...,
                            DelayedEntry<A, P>, DelayedFrozen<A, P>, DelayedCompletion<A, P>, LagBound<A, P, true>,
                            LagBound<A, P, false>, DeadlineRule<A, P>, YieldRule<A, P>, ChargeRule<A, P>>;
template <class A, class P>
struct RegisteredSet;
template <class A>
struct RegisteredSet<A, model::profile_6_18> {
  using type = SetWith<A, model::profile_6_18, MinSliceExact<A, model::profile_6_18>,
                       SliceProtection<A, model::profile_6_18>>;
};
template <class A>
struct RegisteredSet<A, model::profile_6_12> {
  using type = SetWith<A, model::profile_6_12, SliceProtection612<A, model::profile_6_12>>;
};

bool selected(std::string_view name, const Selection& s) {
  const auto has = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
  return (s.check.empty() || has(s.check)) && !has(s.skip);
}

}  // namespace

const PropertyInfo* find_property(std::string_view name) {
  for (const PropertyInfo& p : kCatalogue)
    if (p.name == name) return &p;
  return nullptr;
}

bool implemented(std::string_view name, std::string_view profile) {
  if (name == kKernelWarn) return true;  // the model's own checks (base/kernel_warn.h), reported by CheckedRun
  const auto in = [&](const auto& table) {
    for (const auto& [n, f] : table)
      if (n == name) return true;
    return false;
  };
  if (profile == model::profile_6_12::name) return in(factories<model::KernelArith, model::profile_6_12>());
  return in(factories<model::KernelArith, model::profile_6_18>());
}

std::string_view system_check(std::string_view name) {
  const PropertyInfo* info = find_property(name);
  return info == nullptr ? std::string_view{} : info->judged_by;
}

bool runs_in(const PropertyInfo& p, bool kernel_arithmetic) {
  switch (p.exact_in) {
    case Exact::kernel: return kernel_arithmetic;
    case Exact::ideal: return !kernel_arithmetic;
    case Exact::both: return true;
    case Exact::system: return false;
  }
  EEVDF_UNREACHABLE("an Exact value outside the enum");
}

template <class A, class P>
void add_properties(Checker<A, P>& checker, Env<A, P>& env, const Selection& selection) {
  const bool kernel = brute::kernel_arith<A>;
  auto set = std::make_unique<typename RegisteredSet<A, P>::type>(env);
  for (auto& [name, make] : factories<A, P>()) {
    const PropertyInfo* info = find_property(name);
    EEVDF_ASSERT(info != nullptr && applies_to(*info, P::name), "a registered check is catalogued for its profile");
    if (!runs_in(*info, kernel) || !selected(name, selection)) continue;
    auto p = make(env);
    const bool adopted = set->adopt(p.get());
    EEVDF_ASSERT(adopted, "a registered property class has no place in RegisteredSet (registry.cpp)");
    checker.own(std::move(p));
  }
  if (!set->empty()) checker.add(std::move(set));
}

std::string not_applicable(std::string_view name, std::string_view profile) {
  const PropertyInfo* info = find_property(name);
  if (info == nullptr || applies_to(*info, profile)) return "";
  if (!info->on_6_12.empty() && profile == model::profile_6_12::name) return std::string(name) + ": " + std::string(info->on_6_12);
  return std::string(name) + ": not applicable to " + std::string(profile) + " (applies to " +
         std::string(profiles_text(info->profiles)) + ")";
}

template void add_properties(Checker<model::KernelArith, model::profile_6_18>&,
                             Env<model::KernelArith, model::profile_6_18>&, const Selection&);
template void add_properties(Checker<model::IdealArith, model::profile_6_18>&,
                             Env<model::IdealArith, model::profile_6_18>&, const Selection&);
template void add_properties(Checker<model::KernelArith, model::profile_6_12>&,
                             Env<model::KernelArith, model::profile_6_12>&, const Selection&);
template void add_properties(Checker<model::IdealArith, model::profile_6_12>&,
                             Env<model::IdealArith, model::profile_6_12>&, const Selection&);

}  // namespace eevdf::properties
