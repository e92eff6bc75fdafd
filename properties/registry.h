// Which properties exist, in which arithmetic each runs, and how a replay or a run
// selects them (`--check a,b`, `--skip a,b`).
#pragma once

#include <string>       // names, reasons
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

// Whether a per-event check of `name` exists for profile `profile` in this build
// (system-wide ones such as deterministic or fast_matches_reference are checked
// elsewhere).
bool implemented(std::string_view name, std::string_view profile = model::profile_6_18::name);

// Why `name` cannot be checked under `profile` ("min_slice_exact: not applicable to
// 6.12: ..."), or "" when it applies (or is unknown).
std::string not_applicable(std::string_view name, std::string_view profile);

// How a whole-system property is checked, when it is (the catalogue's judged_by):
// the replay flag of its differential ("--diff=ideal" for ideal_tracks_kernel),
// "tests" for deterministic; "" otherwise.
std::string_view system_check(std::string_view name);

// Whether `name` runs in the kernel (or else the ideal) arithmetic (docs/PROPERTIES.md).
bool runs_in(const PropertyInfo& p, bool kernel_arithmetic);

// Adds the selected properties that run in A, in their profile-P forms, to the
// checker (instantiated for both arithmetics and both profiles).
template <class A, class P>
void add_properties(Checker<A, P>& checker, Env<A, P>& env, const Selection& selection);

}  // namespace eevdf::properties
