// The shrink predicate and judge: "the same property fails", decided by a replay of
// the candidate in the target's arithmetic; see shrink.h.
#include <algorithm>  // std::find
#include <memory>     // the shared target
#include <set>        // properties
#include <stdexcept>  // std::invalid_argument
#include <variant>    // std::get_if

#include "base/assert.h"
#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/profile.h"
#include "properties/findings.h"
#include "properties/kernel_warn.h"
#include "properties/property.h"
#include "properties/registry.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "shrinkers/candidate_replay.h"
#include "shrinkers/differential.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/static_rules.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_tree_run.h"
#include "replay/kernel_tree.h"
#endif

namespace eevdf::shrinkers {
namespace {

// Records whether the target failed on its own: a consequence of an earlier overflow
// is another bug's echo, and a violation of another finding status is another bug.
class TargetRecorder final : public properties::Sink {
 public:
  explicit TargetRecorder(const Target& target) : target_(target) {}
  void violation(const properties::Violation& v) override {
    if (v.property != target_.property || v.consequence) return;
    if (target_.condition && *target_.condition != v.values) return;
    if (!target_.finding || *target_.finding == v.finding) violated_ = true;
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  bool violated() const { return violated_; }

 private:
  const Target& target_;
  bool violated_ = false;
};

// Keeps the violations that are not consequences (of `property` if not empty).
class FirstRecorder final : public properties::Sink {
 public:
  explicit FirstRecorder(const std::string& property) : property_(property) {}
  void violation(const properties::Violation& v) override {
    if (v.consequence || (!property_.empty() && v.property != property_)) return;
    if (!first) {
      first = Target{std::string(v.property), std::string(v.finding)};
      if (v.property == properties::kKernelWarn) first->condition = v.values;
    }
    if (std::find(all.begin(), all.end(), v.property) == all.end()) all.emplace_back(v.property);
    if (v.finding.empty()) untagged.emplace(v.property);
    else if (std::find(tags.begin(), tags.end(), v.finding) == tags.end()) tags.emplace_back(v.finding);
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  std::optional<Target> first;
  std::vector<std::string> all;
  std::set<std::string> untagged;  // properties with a violation that matches no known finding
  std::vector<std::string> tags;   // the known findings seen, in order

 private:
  const std::string& property_;
};

// Throws trace::TraceError or InternalError for an invalid candidate.
template <class A, class P>
Verdict replay_verdict(const trace::Trace& t, const Target& target, const properties::Selection& selection,
                       ReplayMode mode) {
  if (!declarations_in_range(t.header)) return Verdict{};
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  TargetRecorder sink(target);
  replay::CheckedRun<A, P> run(config, replay::make_task_specs(t.header), sink, selection);
  // After a kernel_warn the model has stopped (CheckedRun::halted): nothing later counts.
  const auto apply = [&](const trace::Event& e) {
    if (!run.apply(e).empty()) return Applied::illegal;
    return run.halted() ? Applied::stop : Applied::ok;
  };
  return replay_candidate(
      t, mode, apply,
      [&] { return sink.violated(); }, [&] { run.finish(); });
}

Verdict guarded_verdict(const trace::Trace& t, const Target& target, const properties::Selection& selection,
                        ReplayMode mode) {
  try {
    return with_profile(t.header, [&]<class P>() {
      return target.arith == trace::Arith::ideal ? replay_verdict<model::IdealArith, P>(t, target, selection, mode)
                                                 : replay_verdict<model::KernelArith, P>(t, target, selection, mode);
    });
  } catch (const trace::TraceError&) {
    return Verdict{};  // an exit-2 condition: a header or event the model rejects
  }  // an InternalError (exit 3) goes to Search, which keeps the candidate as a crash
}

std::shared_ptr<const Target> checked_target(const Target& target) {
  const properties::PropertyInfo* info = properties::find_property(target.property);
  if (info == nullptr || !properties::implemented(target.property))
    throw std::invalid_argument("violates: unknown property `" + target.property + "`");
  EEVDF_ASSERT(target.arith != trace::Arith::both, "a target names one arithmetic");
  return std::make_shared<const Target>(target);
}

// Only what decides the verdict: the target, and no_overflow, whose reports decide
// what is a consequence and which overflow is the known finding.
properties::Selection narrow_selection(const Target& target) {
  properties::Selection s;
  s.check = {target.property};
  if (target.property != "no_overflow") s.check.push_back("no_overflow");
  return s;
}

}  // namespace

Predicate violates(const Target& target) {
  if (is_differential(target)) {
    Judge j = differential_judge(target);
    return [j](const trace::Trace& candidate) { return j(candidate, false).fails; };
  }
  auto t = checked_target(target);
  return [t](const trace::Trace& candidate) {
    return guarded_verdict(candidate, *t, properties::Selection{}, ReplayMode{}).fails;
  };
}

Predicate violates(const std::string& property) { return violates(Target{property, std::nullopt}); }

Judge judge(const Target& target) {
  if (is_differential(target)) return differential_judge(target);
  auto t = checked_target(target);
  auto selection = std::make_shared<const properties::Selection>(narrow_selection(target));
  return [t, selection](const trace::Trace& candidate, bool repair) {
    return guarded_verdict(candidate, *t, *selection, ReplayMode{repair, true});
  };
}

Judge judge(const Predicate& predicate) {
  EEVDF_ASSERT(static_cast<bool>(predicate), "a judge needs a predicate");
  return [predicate](const trace::Trace& candidate, bool) {
    Verdict v;
    v.fails = predicate(candidate);
    for (const trace::BodyStatement& s : candidate.body)
      if (std::holds_alternative<trace::Event>(s)) ++v.events_used;
    return v;
  };
}

namespace {

// Replays all of `t` through the run `make_run(config)` makes (stopping at the first
// recorded violation if `stop_early`); false when `t` is invalid. `after(run)` runs
// after each event and says whether nothing can follow (a crash of the real code).
template <class MakeRun, class After>
bool record_with(const trace::Trace& t, FirstRecorder& sink, bool stop_early, MakeRun&& make_run, After&& after) {
  try {
    if (!declarations_in_range(t.header)) return false;
    const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
    auto run = make_run(config);
    if (!run) return false;
    trace::StaticRules rules(kCandidateFile);
    for (const trace::BodyStatement& s : t.body) {
      const trace::Event* e = std::get_if<trace::Event>(&s);
      if (e == nullptr) continue;
      if (!names_declared(t.header, *e)) return false;
      rules.check(*e);
      if (!run->apply(*e).empty()) return false;
      const bool ended = after(*run);
      if ((stop_early && sink.first) || ended) return true;
    }
    run->finish();
  } catch (const trace::TraceError&) {
    return false;
  } catch (const InternalError&) {
    return false;
  }
  return true;
}

template <class P>
bool record(const trace::Trace& t, FirstRecorder& sink, bool stop_early) {
  return record_with(
      t, sink, stop_early,
      [&](const model::Config& config) {
        return std::make_unique<replay::CheckedRun<model::KernelArith, P>>(config, replay::make_task_specs(t.header),
                                                                           sink, properties::Selection{});
      },
      [](const auto&) { return false; });
}

#ifdef EEVDF_HAVE_KERNEL_SRC
// As record, on the tree selected by --kernel-tree (judged by its mirror alone): its
// failures are the tree's, whatever the reference would say of the same trace.
bool record_on_tree(const trace::Trace& t, FirstRecorder& sink, bool stop_early) {
  return record_with(
      t, sink, stop_early,
      [&](const model::Config& config) {
        return replay::why_tree_not_runnable(t.header, config).empty()
                   ? std::make_unique<replay::KernelSrcTreeRun>(config, replay::make_task_specs(t.header), &sink,
                                                                properties::Selection{})
                   : nullptr;
      },
      [&](replay::KernelSrcTreeRun& run) {
        for (const properties::Violation& v : run.take_kernel_warns()) sink.violation(v);
        return !run.oops().empty();  // the real code crashed: nothing runs after it
      });
}
#endif

bool record(const trace::Trace& t, FirstRecorder& sink, bool stop_early) {
#ifdef EEVDF_HAVE_KERNEL_SRC
  if (replay::tree_judged_alone()) return record_on_tree(t, sink, stop_early);
#endif
  return with_profile(t.header, [&]<class P>() { return record<P>(t, sink, stop_early); });
}

}  // namespace

properties::Judging judging(const trace::Header& header) {
  properties::Judging j;
  j.profile = header.kernel && *header.kernel == model::profile_6_12::name ? model::profile_6_12::name
                                                                           : model::profile_6_18::name;
  j.system = {"fast_matches_reference", "ideal_tracks_kernel", "kernel_matches_reference"};
  return j;
}

std::optional<Target> first_failure(const trace::Trace& t, const std::string& property) {
  if (is_differential(property)) return differential_failure(t, property);
  FirstRecorder sink(property);
  if (!record(t, sink, true)) return std::nullopt;
#ifdef EEVDF_HAVE_KERNEL_SRC
  if (sink.first && replay::tree_judged_alone()) sink.first->kernel_src = true;  // judged on the tree's mirror
#endif
  // A kernel_warn the reference does not meet may be the real code's (kernel-src).
  if (!sink.first && property == properties::kKernelWarn) return kernel_src_warn_failure(t);
  return sink.first;
}

std::vector<std::string> violated_properties(const trace::Trace& t) {
  const std::string any;
  FirstRecorder sink(any);
  if (!record(t, sink, false)) return {};
  return sink.all;
}

trace::Trace with_expectations(const trace::Trace& shrunk, const Target& target) {
  trace::Trace out = shrunk;
  auto& h = out.header;
  h.expect_clean = false;
  h.expect_violations.clear();
  h.expect_findings.clear();
  const auto add = [](std::vector<std::string>& v, const std::string& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  const bool pinned = target.finding && !target.finding->empty();
  if (pinned) add(h.expect_findings, *target.finding);
  else add(h.expect_violations, target.property);
  // Every other failure: pinned by its finding while each of its violations matches
  // one, else by its property.
  const std::string any;
  FirstRecorder sink(any);
  if (record(shrunk, sink, false)) {
    for (const std::string& p : sink.all)
      if (sink.untagged.count(p) != 0) add(h.expect_violations, p);
    for (const std::string& f : sink.tags)
      if (const properties::FindingInfo* info = properties::find_finding(f);
          info != nullptr && sink.untagged.count(std::string(info->property)) == 0)
        add(h.expect_findings, f);
  }
  EEVDF_ASSERT(pinned ? h.expect_findings.front() == *target.finding : h.expect_violations.front() == target.property,
               "the target comes first");
  return out;
}

}  // namespace eevdf::shrinkers
