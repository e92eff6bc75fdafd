// The shrinkers' entry point: reduce a failing trace to a small one that fails the
// same property (same property or reject; coarse to fine;
// every candidate validated by replay).
//
// The passes, in the order `shrink` runs them, each in its own file with its
// contract (what it tries, in which order, why it terminates):
//   delete_events.h   delta debugging over events: blocks of half the trace, halved
//                     down to single events (with the events that depend on them);
//   delete_tasks.h    whole tasks: the declaration and every event naming the task;
//   reduce_cpus.h     fold the CPUs onto fewer and renumber them, down to 1x1;
//   drop_settings.h   injections, features, `hz` and `base_slice` back to defaults;
//   simplify_values.h nice toward 0, custom slices toward none, io sleeps toward
//                     plain ones, `cpu=` toward the default CPU;
//   shorten_gaps.h    the time between events toward the smallest (and roundest)
//                     that still fails;
//   normalize.h       tasks renumbered 1..n by first appearance, times from 0.
// A round repeats the first four (structural) passes to their own fixed point, then
// runs the value passes once; rounds repeat until one accepts nothing (a fixed
// point) or the budget runs out.
//
// A candidate is judged by one replay that skips the events illegal where they
// stand (a removed sleep takes the wake that needed it, a removed fork its task's
// events) and stops where the property fails (the events after it cannot matter):
// the accepted trace is what that replay kept, confirmed by a plain replay when
// anything was skipped. So every accepted trace is valid and fails on its last event
// (or at the end of the replay, for properties judged there).
//
// At a fixed point the result is 1-minimal: no valid trace obtained by deleting one
// event (with the events that depend on it), deleting one task, or folding the
// highest-numbered CPU into another fails the same property.
// Candidates never carry `expect` lines: the caller writes the shrunk trace's
// `expect violation`.
//
// A candidate replays in its own `kernel` profile. The differential properties
// (fast_matches_reference, ideal_tracks_kernel, kernel_matches_reference) are judged
// by their two implementations in lockstep (differential.h); every function below
// that takes a target or a property name accepts them.
#pragma once

#include <cstddef>     // indices
#include <cstdint>     // budgets, counts
#include <functional>  // the predicate
#include <memory>      // the implementations of a target
#include <optional>    // the finding a target matches
#include <string>      // property names
#include <vector>      // per-pass statistics

#include "properties/judging.h"
#include "trace/trace.h"

namespace eevdf::shrinkers {

// True when `candidate` is a valid trace that still violates the property at hand.
using Predicate = std::function<bool(const trace::Trace& candidate)>;

// What one replay of a candidate says, for the passes.
struct Verdict {
  bool fails = false;
  // Events (of the candidate's body, in order) up to and including the one where the
  // property failed; every event when it failed only at the end of the replay.
  std::size_t events_used = 0;
  // With repair: the events skipped as illegal where they stood, ascending.
  std::vector<std::size_t> dropped;
};

// Replays `candidate`; with `repair`, an event that is illegal where it stands is
// skipped and listed instead of making the candidate invalid.
using Judge = std::function<Verdict(const trace::Trace& candidate, bool repair)>;

// Two implementations of the fair class (shrinkers/implementations_differ.h).
struct Implementations;

// The failure a shrink keeps: two different targets are two bugs, never merged.
struct Target {
  std::string property;
  // nullopt: any violation of `property`; "": one that is no known finding; else a
  // violation matching that known finding (properties/findings.h).
  std::optional<std::string> finding;
  trace::Arith arith = trace::Arith::kernel;  // the replay's arithmetic: kernel or ideal
  // kernel_warn only: the condition it must meet (properties/kernel_warn.h; nullopt:
  // any), so that a shrink does not trade one kernel warning for another.
  std::optional<std::string> condition = std::nullopt;
  // kernel_warn only: judged on kernel-src beside the reference (the lockstep of
  // kernel_matches_reference; shrinkers/differential.h), where the real code's
  // warnings and crashes are met (`run --model=kernel-src`). Any property on a tree of
  // --kernel-tree judged alone (replay/kernel_tree.h tree_judged_alone): its mirror judges.
  bool kernel_src = false;
  // implementations_differ (shrinkers/implementations_differ.h): the two
  // implementations that must still differ; no property of the catalogue.
  std::shared_ptr<const Implementations> implementations = nullptr;
};

struct Budget {
  // Replays at the most: far above the few thousand a 10^4-event shrink needs, a
  // guard against a pass that never converges.
  std::uint64_t candidates_max = 200000;
  double seconds_max = 30;  // wall-clock limit (the CLI's --budget)
};

// What one pass did over the whole shrink (summed over rounds).
struct PassStats {
  std::string name;              // "delete_events", "delete_tasks", ...
  std::uint64_t candidates = 0;  // replays asked by this pass
  std::uint64_t accepted = 0;    // of which still failed
  std::uint64_t events_removed = 0;
  double seconds = 0;
};

struct Stats {
  std::uint64_t candidates = 0;  // replays (confirmations included)
  std::uint64_t accepted = 0;    // candidates that still failed
  std::uint64_t events_before = 0;
  std::uint64_t events_after = 0;
  std::uint64_t rounds = 0;      // rounds of all passes run
  double seconds = 0;
  // "fixed point", "budget: candidates", "budget: seconds", "budget: rounds",
  // "input does not fail".
  std::string stopped_because;
  std::vector<PassStats> passes;
  // The first candidate on which the tool itself failed (an InternalError: exit 3),
  // and why ("" and nullopt: none). Such a candidate counts as "does not fail" for
  // the target, so the shrink goes on; the caller reports and saves it as a crash.
  std::string internal_error;
  std::optional<trace::Trace> internal_error_trace;
};

// The standard predicate: replay `candidate` in the target's arithmetic with the
// features and injections of its own header, all events applied; true iff it is
// valid (no exit-2 condition) and the target property is violated (not as a
// consequence of an earlier overflow, with the target's finding status). Expect
// statements are ignored. Throws InternalError when the tool itself fails on the
// candidate (a shrink keeps that candidate as a crash: Stats::internal_error), and
// std::invalid_argument for a property name the catalogue does not know (or not
// checked per event).
Predicate violates(const Target& target);
// Any violation of `property` in the kernel arithmetic, finding or not.
Predicate violates(const std::string& property);

// The judge the passes use for `target`: the replay of `violates`, checking only the
// target property (and no_overflow, which decides what is a consequence), stopping
// at the failure, repairing on request.
Judge judge(const Target& target);
// A judge from any predicate: no repair, no early stop (tests, custom predicates).
Judge judge(const Predicate& predicate);

// What a shrink judges (properties/judging.h): the per-event checks in the kernel
// arithmetic under the trace's profile, and the differentials (shrinkers/differential.h).
properties::Judging judging(const trace::Header& header);

// The first property `t` violates on its own (not a consequence), in the kernel
// arithmetic, as a target with its finding status; nullopt when it replays clean or
// is invalid.
// With `property`, the first violation of that property.
std::optional<Target> first_failure(const trace::Trace& t, const std::string& property = "");

// Every property `t` violates on its own in a full kernel-arithmetic replay, in the
// order of their first violation: the `expect violation` lines a shrunk trace needs
// to replay clean (the target's failure can bring others with it).
std::vector<std::string> violated_properties(const trace::Trace& t);

// `shrunk` with the trace-wide expectations that make it a passing corpus test: the
// target first (`expect finding` of its known finding, else `expect violation` of its
// property), then every other failure of a full kernel-arithmetic replay: `expect
// finding` for a known finding while every violation of its property matches one,
// else `expect violation` of the property.
trace::Trace with_expectations(const trace::Trace& shrunk, const Target& target);

// Runs the passes to a fixed point: returns a trace that fails `judge`, without
// expectations. If the input (stripped of its expectations) does not fail, returns
// `failing` unchanged. Deterministic when the budget is not reached. `stats` may be
// null.
trace::Trace shrink(const trace::Trace& failing, const Judge& judge, const Budget& budget, Stats* stats);
trace::Trace shrink(const trace::Trace& failing, const Target& target, const Budget& budget, Stats* stats);
trace::Trace shrink(const trace::Trace& failing, const Predicate& still_fails, const Budget& budget, Stats* stats);

}  // namespace eevdf::shrinkers
