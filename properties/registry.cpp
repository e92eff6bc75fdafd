// The property registry: one factory per implemented property; see registry.h.
// The templates are instantiated here for both arithmetics.
#include "properties/registry.h"

#include <algorithm>
#include <functional>
#include <memory>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/bookkeeping.h"
#include "properties/delayed.h"
#include "properties/iowait.h"
#include "properties/lag.h"
#include "properties/pick.h"
#include "properties/protection.h"
#include "properties/registry_table.h"

namespace eevdf::properties {
namespace {

template <class A>
Factory<A> pick_rule(std::string_view which) {
  return [which](Env<A>& env) { return std::make_unique<PickRules<A>>(env, which); };
}

template <class A>
Table<A> factories() {
  Table<A> table{
      {"sums_consistent", plain<A, SumsConsistent<A>>()},
      {"counters_consistent", plain<A, CountersConsistent<A>>()},
      {"task_conservation", plain<A, TaskConservation<A>>()},
      {"no_overflow", plain<A, NoOverflow<A>>()},
      {"lag_zero_sum", plain<A, LagZeroSum<A>>()},
      {"pick_eligible", pick_rule<A>("pick_eligible")},
      {"pick_earliest_deadline", pick_rule<A>("pick_earliest_deadline")},
      {"pick_nonempty", pick_rule<A>("pick_nonempty")},
      {"delayed_never_runs", plain<A, DelayedNeverRuns<A>>()},
      {"iowait_accounting", plain<A, IowaitAccounting<A>>()},
      {"iowait_visibility", plain<A, IowaitVisibility<A>>()},
  };
  register_lag(table);
  register_protection(table);
  register_delayed(table);
  return table;
}

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

bool implemented(std::string_view name) {
  for (const auto& [n, f] : factories<model::KernelArith>())
    if (n == name) return true;
  return false;
}

std::string_view system_check(std::string_view name) {
  if (name == "ideal_tracks_kernel") return "--diff=ideal";  // replay/ideal_diff.h; run --ideal-every
  return "";
}

bool runs_in(const PropertyInfo& p, bool kernel_arithmetic) {
  switch (p.exact_in) {
    case Exact::kernel: return kernel_arithmetic;
    case Exact::ideal: return !kernel_arithmetic;
    case Exact::both: return true;
    case Exact::system: return false;
  }
  return false;
}

template <class A>
void add_properties(Checker<A>& checker, Env<A>& env, const Selection& selection) {
  const bool kernel = brute::kernel_arith<A>;
  for (auto& [name, make] : factories<A>()) {
    const PropertyInfo* info = find_property(name);
    if (info != nullptr && runs_in(*info, kernel) && selected(name, selection)) checker.add(make(env));
  }
}

template void add_properties<model::KernelArith>(Checker<model::KernelArith>&, Env<model::KernelArith>&,
                                                 const Selection&);
template void add_properties<model::IdealArith>(Checker<model::IdealArith>&, Env<model::IdealArith>&,
                                                const Selection&);

}  // namespace eevdf::properties
