// Runs a RapidCheck property inside a Catch2 test case, with two things
// rc::prop (rapidcheck/catch.h) lacks:
//  - a per-property default case count, used unless RC_PARAMS sets max_success
//    (ctest's 100 is too few for a fuzzer; RC_PARAMS="max_success=100000" runs 10^5);
//  - a failure message that reproduces: the counterexample, then the exact
//    RC_PARAMS (seed, and the shrunk case's `reproduce=`) that replays it.
// RC_PARAMS is read as RapidCheck always reads it (seed=, max_size=, reproduce=, ...).
#pragma once

#include <rapidcheck.h>

#include <string>   // property names
#include <utility>  // std::forward

namespace eevdf::trace::testing {

// Checks `property` (from rc::detail::toProperty) and reports through Catch:
// SUCCEED with the case count, or FAIL with the counterexample and the command
// that reproduces it. `name` identifies the property in RC_PARAMS' reproduce map,
// so it must be unique in the executable.
// With `rapidcheck_shrinks` false, RapidCheck reports the first failing case as
// drawn: for properties whose failing case shrinks better by other means (the
// generated-trace suites rerun shrinkers/' deterministic shrinker inside the failing
// case, so the reproduce line replays the unshrunk case and then that shrinker).
// Returns the number of discarded cases (RC_PRE, RC_DISCARD), also printed with the
// passed count on stdout, so that a suite that discards most of what it draws shows.
int check_property(const std::string& name, int default_cases, const rc::detail::Property& property,
                   bool rapidcheck_shrinks = true);

template <typename Testable>
int check(const std::string& name, int default_cases, Testable&& testable, bool rapidcheck_shrinks = true) {
  return check_property(name, default_cases, rc::detail::toProperty(std::forward<Testable>(testable)),
                        rapidcheck_shrinks);
}

// `text` as a C string literal (\n, \t, \", \\, \xNN escaped), so that a failing
// input can be pasted into a test verbatim.
std::string c_literal(const std::string& text);

}  // namespace eevdf::trace::testing
