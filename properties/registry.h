// Which properties exist, in which arithmetic each runs, and how a replay or a run
// selects them (`--check a,b`, `--skip a,b`).
#pragma once

#include <string>       // names
#include <string_view>  // names
#include <vector>       // selections

#include "properties/catalogue.h"
#include "properties/checker.h"

namespace eevdf::properties {

struct Selection {
  std::vector<std::string> check;  // empty: every implemented property
  std::vector<std::string> skip;
};

// The catalogue entry of `name`, or nullptr.
const PropertyInfo* find_property(std::string_view name);

// Whether a per-event check of `name` exists in this build (system-wide ones such
// as deterministic or fast_matches_reference are checked elsewhere).
bool implemented(std::string_view name);

// How a whole-system property is checked, when it is: the replay flag of its
// differential ("--diff=ideal" for ideal_tracks_kernel); "" otherwise.
std::string_view system_check(std::string_view name);

// Whether `name` runs in the kernel (or else the ideal) arithmetic (INVARIANTS.md).
bool runs_in(const PropertyInfo& p, bool kernel_arithmetic);

// Adds the selected properties that run in A to the checker.
template <class A>
void add_properties(Checker<A>& checker, Env<A>& env, const Selection& selection);

}  // namespace eevdf::properties
