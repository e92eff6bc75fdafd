// See differential.h.
#include "shrinkers/differential.h"

#include <memory>   // the shared target
#include <string>   // findings

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "properties/findings.h"
#include "properties/kernel_src_judged.h"
#include "properties/kernel_warn.h"
#include "replay/fast_diff.h"
#include "replay/ideal_diff.h"
#include "replay/model_config.h"
#include "shrinkers/candidate_replay.h"
#include "shrinkers/implementations_differ.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_lockstep.h"
#include "replay/kernel_src_tree_run.h"
#include "replay/kernel_tree.h"
#endif

namespace eevdf::shrinkers {
namespace {

// What one replay found: whether it failed, and how (a finding name or "").
struct Found {
  bool failed = false;
  std::string finding;
  std::string condition;  // kernel_warn: the condition met
};

bool wanted(const Target& target, const Found& f) {
  return f.failed && (!target.finding || *target.finding == f.finding);
}

// Both fast builds beside their own reference; the comparison stops where both
// report an overflow (afterwards the fast model wraps and the reference does not)
// or meet the same condition the kernel dies on.
Verdict fast_verdict(const trace::Trace& t, const Target& target, ReplayMode mode, Found& found) {
  if (t.header.kernel.value_or(std::string(model::kDefaultProfile)) != model::profile_6_18::name) return {};
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  const auto specs = replay::make_task_specs(t.header);
  replay::FastDiff<false> scalar(config, specs);
  replay::FastDiff<true> simd(config, specs);
  const bool simd_runs = model::fast::simd_runs_here();
  const auto apply = [&](const trace::Event& e) {
    using S = replay::FastDiff<false>::Step;
    using V = replay::FastDiff<true>::Step;
    const S a = scalar.apply(e);
    const V b = simd_runs ? simd.apply(e) : V::same;
    if (a == S::mismatch || b == V::mismatch) {
      found.failed = true;
      return Applied::stop;
    }
    if (a == S::overflow || b == V::overflow || a == S::kernel_warn || b == V::kernel_warn) return Applied::stop;
    return a == S::illegal ? Applied::illegal : Applied::ok;
  };
  return replay_candidate(t, mode, apply, [&] { return wanted(target, found); }, [] {});
}

// The kernel and the ideal arithmetic in lockstep under the trace's profile.
template <class P>
Verdict ideal_verdict(const trace::Trace& t, const Target& target, ReplayMode mode, Found& found) {
  replay::IdealDiff<P> diff(replay::make_config(t.header, replay::Options{}, kCandidateFile),
                            replay::make_task_specs(t.header));
  const auto apply = [&](const trace::Event& e) {
    if (!diff.apply(e).empty()) return Applied::illegal;
    found.failed = diff.stats().unexplained != 0;
    return Applied::ok;
  };
  return replay_candidate(t, mode, apply, [&] { return wanted(target, found); }, [] {});
}

#ifdef EEVDF_HAVE_KERNEL_SRC
// A tree judged alone (replay/kernel_src_tree_run.h): the target's property on its
// mirror, or (kernel_warn) the tree's warnings and crash.
Verdict tree_verdict(const trace::Trace& t, const Target& target, ReplayMode mode, Found& found) {
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  if (!replay::why_tree_not_runnable(t.header, config).empty()) return {};
  struct Sink final : properties::Sink {
    const Target* target = nullptr;
    Found* found = nullptr;
    void violation(const properties::Violation& v) override {
      if (found->failed || v.property != target->property || v.consequence) return;
      if (target->condition && *target->condition != v.values) return;
      *found = {true, std::string(v.finding), v.values};
    }
    void measure(std::string_view, const std::string&, const std::string&) override {}
  } sink;
  sink.target = &target;
  sink.found = &found;
  replay::KernelSrcTreeRun run(config, replay::make_task_specs(t.header), &sink,
                               properties::Selection{{target.property}, {}});
  const auto apply = [&](const trace::Event& e) {
    if (!run.apply(e).empty()) return Applied::illegal;
    for (const properties::Violation& v : run.take_kernel_warns()) sink.violation(v);
    return run.oops().empty() ? Applied::ok : Applied::stop;
  };
  return replay_candidate(t, mode, apply, [&] { return wanted(target, found); }, [&] {
    if (!wanted(target, found)) run.finish();
  });
}
#endif

Verdict kernel_src_verdict(const trace::Trace& t, const Target& target, ReplayMode mode, Found& found) {
#ifdef EEVDF_HAVE_KERNEL_SRC
  if (replay::tree_judged_alone()) return tree_verdict(t, target, mode, found);
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  if (replay::KernelSrcLockstep::why_not_runnable(t.header, config)) return {};
  // kernel_warn: the real code's warnings and crash, and the reference's own kernel_warn
  // (reported whatever the selection), with the target's condition. A property judged
  // on the real code (properties/kernel_src_judged.h): its violations on the mirror.
  const bool kernel_warn = target.property == properties::kKernelWarn;
  const bool on_mirror = !kernel_warn && properties::judged_on_kernel_src(target.property);
  struct WarnSink final : properties::Sink {
    std::string_view property;
    std::vector<properties::Violation> warns;
    void violation(const properties::Violation& v) override {
      if (v.property == property) warns.push_back(v);
    }
    void measure(std::string_view, const std::string&, const std::string&) override {}
  } sink;
  sink.property = target.property;
  replay::KernelSrcLockstep lock(config, replay::make_task_specs(t.header),
                                 kernel_warn || on_mirror ? &sink : nullptr,
                                 on_mirror ? properties::Selection{{target.property}, {}}
                                           : properties::Selection{{"kernel_matches_reference"}, {}});
  const auto judge_now = [&] {
    if (on_mirror) {
      for (const properties::Violation& v : sink.warns)
        if (!found.failed && !v.consequence) found = {true, std::string(v.finding), ""};
      sink.warns.clear();
      return;
    }
    if (kernel_warn) {
      for (const properties::Violation& v : lock.take_kernel_warns()) sink.warns.push_back(v);
      for (const properties::Violation& v : sink.warns)
        if (!found.failed && (!target.condition || *target.condition == v.values)) found = {true, std::string(v.finding), v.values};
      sink.warns.clear();
      return;
    }
    if (!lock.oops().empty()) return;  // a crash of the real code is kernel_warn, not a difference
    if (!lock.difference().empty() && lock.overflow_line() == 0) found = {true, "", ""};
  };
  judge_now();
  if (!lock.agree()) return wanted(target, found) ? Verdict{true, 0, {}} : Verdict{};
  const auto apply = [&](const trace::Event& e) {
    if (!lock.apply(e).empty()) return Applied::illegal;
    judge_now();
    return lock.agree() ? Applied::ok : Applied::stop;
  };
  return replay_candidate(t, mode, apply, [&] { return wanted(target, found); }, [] {});
#else
  (void)t, (void)target, (void)mode, (void)found;
  return {};
#endif
}

// One replay; an invalid candidate (exit 2 in a replay) does not fail.
Verdict verdict(const trace::Trace& t, const Target& target, ReplayMode mode, Found& found) {
  try {
    if (!declarations_in_range(t.header)) return {};
    if (target.property == "fast_matches_reference") return fast_verdict(t, target, mode, found);
    if (target.property == "ideal_tracks_kernel" && !target.kernel_src)
      return with_profile(t.header, [&]<class P>() { return ideal_verdict<P>(t, target, mode, found); });
    return kernel_src_verdict(t, target, mode, found);
  } catch (const trace::TraceError&) {
    return {};
  } catch (const KernelWarn&) {
    return {};  // another failure (kernel_warn, judged by the reference replay), not this target
  }  // an InternalError (exit 3) goes to Search, which keeps the candidate as a crash
}

}  // namespace

bool is_differential(std::string_view property) {
  return property == "fast_matches_reference" || property == "ideal_tracks_kernel" ||
         property == "kernel_matches_reference";
}

bool is_differential(const Target& target) {
  if (target.implementations != nullptr) return true;
  if (target.kernel_src && replay::tree_judged_alone()) return true;  // every property on the tree's mirror
  return target.kernel_src
             ? target.property == properties::kKernelWarn || properties::judged_on_kernel_src(target.property)
             : is_differential(target.property);
}

Judge differential_judge(const Target& target) {
  EEVDF_ASSERT(is_differential(target), "not a differential property: " + target.property);
#ifdef EEVDF_HAVE_KERNEL_SRC
  if (target.implementations != nullptr) return implementations_differ_judge(target);
#endif
  auto shared = std::make_shared<const Target>(target);
  return [shared](const trace::Trace& candidate, bool repair) {
    Found found;
    return verdict(candidate, *shared, ReplayMode{repair, true}, found);
  };
}

std::optional<Target> differential_failure(const trace::Trace& t, std::string_view property) {
  EEVDF_ASSERT(is_differential(property), "not a differential property: " + std::string(property));
  const Target any{std::string(property), std::nullopt};
  Found found;
  if (!verdict(t, any, ReplayMode{false, true}, found).fails) return std::nullopt;
  return Target{std::string(property), found.finding};
}

std::optional<Target> kernel_src_warn_failure(const trace::Trace& t) {
  Target any{std::string(properties::kKernelWarn), std::nullopt};
  any.kernel_src = true;
  Found found;
  if (!verdict(t, any, ReplayMode{false, true}, found).fails) return std::nullopt;
  any.finding = found.finding;
  any.condition = found.condition;
  return any;
}

}  // namespace eevdf::shrinkers
