// Turning a failing trace of a campaign into a saved corpus trace: shrink it to a
// small one that fails the same property, and write it self-contained (its header
// carries the features and injections it needs) with the comment and expectation
// that make it a FileCheck-style test (as LLVM lit's).
#pragma once

#include <string>  // texts and names
#include <string_view>  // property names

#include "runner/options.h"
#include "runner/tally.h"
#include "shrinkers/shrink.h"
#include "trace/trace.h"

namespace eevdf::runner {

// Named limit: a shrink that takes longer than this gives back what it has; a
// campaign should answer in about a minute, and the shrink gets a third of that.
inline constexpr double kShrinkSecondsMax = 30;

struct Shrunk {
  trace::Trace trace;
  shrinkers::Stats stats;
};

// What the shrink of `v` keeps failing: its property with its finding status, in
// the arithmetic the property is exact in (lag_bound_steady: ideal, the campaign's
// ideal-arithmetic sample found it).
shrinkers::Target shrink_target(const FirstViolation& v);

// Regenerates trace `v.index` and shrinks it with the predicate "property
// `v.property` is still violated" (never "something fails": distinct bugs stay apart).
Shrunk shrink_failure(const Options& options, const FirstViolation& v, double seconds_max = kShrinkSecondsMax);

// The `eevdf-check replay` flag that judges `property`, with a trailing space: the
// differential properties need their second implementation (`--diff=ideal`, ...),
// the rest the plain replay (""). On kernel-src (`kernel_src`), a kernel_warn is the
// real code's as well: `--model=kernel-src`.
std::string replay_flag(std::string_view property, bool kernel_src = false);

// The saved text: a header comment (property, finding, seed, trace index, where it
// failed, the command line), `expect violation <property>`, the shrunk trace.
std::string saved_trace_text(const trace::Trace& shrunk, const FirstViolation& v, std::uint64_t run_seed,
                             const std::string& command_line, bool kernel_src = false);

// The saved text of a shrink candidate on which the tool itself failed (exit 3): a
// header comment (the failure being shrunk, the error, the command line) and the
// candidate as it was, with no expectation.
std::string crash_trace_text(const trace::Trace& candidate, const FirstViolation& v, const std::string& error,
                             std::uint64_t run_seed, const std::string& command_line);

// `<property>-<8 hex of the text's hash>.trace`; attempt n > 0 appends `-n`, so
// that an existing file is never overwritten.
std::string saved_trace_name(const std::string& property, const std::string& text, int attempt);

// Writes `text` under `dir` (created if needed) as saved_trace_name(property, text, n)
// with the first n that names no existing file; the path, or "" when it cannot write.
std::string write_new_trace(const std::string& dir, const std::string& property, const std::string& text);

// Where `corpus add` files a trace: `bugs` for a trace with an injection, `findings`
// when its first failure is a known finding, else `regressions`.
std::string folder_for(const trace::Trace& t);

// The corpus name of a trace: saved_trace_name with the trace's first `expect
// violation` (`clean` for `expect clean`) as the property.
std::string corpus_name(const trace::Trace& t, const std::string& text, int attempt);

}  // namespace eevdf::runner
