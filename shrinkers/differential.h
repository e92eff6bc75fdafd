// The judges of the differential properties (docs/PROPERTIES.md, whole system): a candidate
// fails when two implementations of the same trace disagree. fast_matches_reference:
// the fast model's scalar or SIMD build against the reference (replay/fast_diff.h);
// ideal_tracks_kernel: the two arithmetics, a divergence the rounding bound does not
// explain (replay/ideal_diff.h); kernel_matches_reference: the 6.12 profile against
// kernel-src (replay/kernel_src_lockstep.h). The passes use them like any judge: one
// replay per candidate, illegal events skipped on request, cut after the failure.
#pragma once

#include <optional>     // first failure
#include <string_view>  // property names

#include "shrinkers/shrink.h"

namespace eevdf::shrinkers {

// Whether `property` is judged by two implementations in lockstep.
bool is_differential(std::string_view property);
// Whether `target` is: a differential property, a kernel_warn on kernel-src
// (Target::kernel_src), judged by the lockstep with the reference, or two
// implementations that differ (Target::implementations, implementations_differ.h).
bool is_differential(const Target& target);

// The judge for `target` (is_differential(target.property)). For
// kernel_matches_reference the finding status separates the crash of the real code
// (kernel-src-null-pick-after-overflow) from a difference; a difference after the
// reference's first s64 overflow is that overflow's consequence and never counts.
// A build without kernel-src judges every kernel_matches_reference candidate invalid.
Judge differential_judge(const Target& target);

// The target `t` fails for `property` (a differential one) in a full replay, with its
// finding status; nullopt when it is invalid or the implementations agree.
std::optional<Target> differential_failure(const trace::Trace& t, std::string_view property);

// The first kernel_warn of `t` on kernel-src (the real code's warnings and crash, and
// the reference's own beside it), with its finding status and condition
// (Target::kernel_src); nullopt when there is none, `t` is invalid or not runnable
// there, or the build has no kernel-src.
std::optional<Target> kernel_src_warn_failure(const trace::Trace& t);

}  // namespace eevdf::shrinkers
