// The shrink predicate and judge: "the same property fails", decided by a replay of
// the candidate in the target's arithmetic; see shrink.h.
#include <algorithm>  // std::find
#include <memory>     // the shared target
#include <stdexcept>  // std::invalid_argument
#include <variant>    // std::get_if

#include "base/assert.h"
#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/property.h"
#include "properties/registry.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/static_rules.h"

namespace eevdf::shrinkers {
namespace {

// The name errors would carry; nobody sees them (an invalid candidate is rejected).
const char* const kCandidateFile = "<shrink candidate>";

// Records whether the target failed on its own: a consequence of an earlier overflow
// is another bug's echo, and a violation of another finding status is another bug.
class TargetRecorder final : public properties::Sink {
 public:
  explicit TargetRecorder(const Target& target) : target_(target) {}
  void violation(const properties::Violation& v) override {
    if (v.property != target_.property || v.consequence) return;
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
    if (!first) first = Target{std::string(v.property), std::string(v.finding)};
    if (std::find(all.begin(), all.end(), v.property) == all.end()) all.emplace_back(v.property);
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  std::optional<Target> first;
  std::vector<std::string> all;

 private:
  const std::string& property_;
};

// Whether `e` names only what the header declares (a shrinker-built candidate is
// not parsed, so the parser's range checks are repeated here).
bool names_declared(const trace::Header& h, const trace::Event& e) {
  if (e.task != 0 && h.find_task(e.task) == nullptr) return false;
  return !e.cpu || (*e.cpu >= 0 && *e.cpu < h.topology_or_default().ncpus());
}

bool declarations_in_range(const trace::Header& h) {
  const int ncpus = h.topology_or_default().ncpus();
  for (const trace::TaskDecl& d : h.tasks)
    if (d.cpu && (*d.cpu < 0 || *d.cpu >= ncpus)) return false;
  return true;
}

struct ReplayMode {
  bool repair = false;      // skip illegal events instead of rejecting
  bool early_stop = false;  // stop at the failure
};

// Throws trace::TraceError or InternalError for an invalid candidate.
template <class A>
Verdict replay_verdict(const trace::Trace& t, const Target& target, const properties::Selection& selection,
                       ReplayMode mode) {
  Verdict out;
  if (!declarations_in_range(t.header)) return out;
  const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
  TargetRecorder sink(target);
  replay::CheckedRun<A> run(config, replay::make_task_specs(t.header), sink, selection);
  trace::StaticRules rules(kCandidateFile);
  std::uint64_t now = 0;
  std::size_t index = 0;  // among events
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;  // Expect statements are the caller's business
    const std::size_t i = index++;
    bool legal = names_declared(t.header, *e) && e->time_ns >= now;
    if (legal) {
      try {
        rules.check(*e);  // records nothing when it throws
      } catch (const trace::TraceError&) {
        legal = false;
      }
    }
    if (legal) legal = run.apply(*e).empty();  // an illegal event leaves the model unchanged
    if (!legal) {
      if (!mode.repair) return Verdict{};
      out.dropped.push_back(i);
      continue;
    }
    now = e->time_ns;
    if (mode.early_stop && sink.violated()) {
      out.fails = true;
      out.events_used = i + 1;
      return out;
    }
  }
  run.finish();
  out.fails = sink.violated();
  out.events_used = index;
  EEVDF_ASSERT(out.dropped.size() <= index, "only events are dropped");
  return out;
}

Verdict guarded_verdict(const trace::Trace& t, const Target& target, const properties::Selection& selection,
                        ReplayMode mode) {
  try {
    return target.arith == trace::Arith::ideal ? replay_verdict<model::IdealArith>(t, target, selection, mode)
                                               : replay_verdict<model::KernelArith>(t, target, selection, mode);
  } catch (const trace::TraceError&) {
    return Verdict{};  // an exit-2 condition: a header or event the model rejects
  } catch (const InternalError&) {
    return Verdict{};  // an exit-3 condition: not this property failing
  }
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
  auto t = checked_target(target);
  return [t](const trace::Trace& candidate) {
    return guarded_verdict(candidate, *t, properties::Selection{}, ReplayMode{}).fails;
  };
}

Predicate violates(const std::string& property) { return violates(Target{property, std::nullopt}); }

Judge judge(const Target& target) {
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

// Replays all of `t` (stopping at the first recorded violation if `stop_early`);
// false when `t` is invalid.
bool record(const trace::Trace& t, FirstRecorder& sink, bool stop_early) {
  try {
    if (!declarations_in_range(t.header)) return false;
    const model::Config config = replay::make_config(t.header, replay::Options{}, kCandidateFile);
    replay::CheckedRun<model::KernelArith> run(config, replay::make_task_specs(t.header), sink,
                                               properties::Selection{});
    trace::StaticRules rules(kCandidateFile);
    for (const trace::BodyStatement& s : t.body) {
      const trace::Event* e = std::get_if<trace::Event>(&s);
      if (e == nullptr) continue;
      if (!names_declared(t.header, *e)) return false;
      rules.check(*e);
      if (!run.apply(*e).empty()) return false;
      if (stop_early && sink.first) return true;
    }
    run.finish();
  } catch (const trace::TraceError&) {
    return false;
  } catch (const InternalError&) {
    return false;
  }
  return true;
}

}  // namespace

std::optional<Target> first_failure(const trace::Trace& t, const std::string& property) {
  FirstRecorder sink(property);
  if (!record(t, sink, true)) return std::nullopt;
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
  out.header.expect_clean = false;
  out.header.expect_violations = {target.property};
  for (const std::string& p : violated_properties(shrunk))
    if (p != target.property) out.header.expect_violations.push_back(p);
  EEVDF_ASSERT(out.header.expect_violations.front() == target.property, "the target comes first");
  return out;
}

}  // namespace eevdf::shrinkers
