// The shrinker benchmark; see shrink_bench.h.
#include "bench/shrink_bench.h"

#include <algorithm>  // std::min
#include <map>        // the caught-by table
#include <variant>    // std::holds_alternative

#include "base/assert.h"
#include "bench/rc_list_shrink.h"
#include "generator/generator.h"
#include "generator/prng.h"
#include "model/arith_kernel.h"
#include "model/injections.h"
#include "properties/property.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::bench {
namespace {

// A benchmark trace fails in its last quarter: a generated trace that fails at
// event 80 of 10^4 is an 80-event shrink for any shrinker that stops at the
// failure, and would measure nothing about long traces.
constexpr std::uint64_t kFailureShareNum = 3;
constexpr std::uint64_t kFailureShareDen = 4;

std::uint64_t events_in(const trace::Trace& t) {
  std::uint64_t n = 0;
  for (const trace::BodyStatement& s : t.body) n += std::holds_alternative<trace::Event>(s) ? 1u : 0u;
  return n;
}

generator::Options trace_options(const std::string& injection, std::uint64_t size) {
  generator::Options o;  // runner::default_generator_options(): 2x64, 2..16 tasks, 8 busy CPUs
  o.random_features = true;
  o.steady = {1, 8};
  o.injections = {injection};
  o.events_min = size;
  o.events_max = size;
  return o;
}

// docs/INJECTIONS.md's "caught by" column: the properties the search replays with (and
// no_overflow, which tells consequences apart), so a seed costs a fraction of a
// replay with every property.
const std::map<std::string, std::vector<std::string>> kCaughtBy{
    {"reweight_unscaled_lag", {"reweight_preserves_lag"}},
    {"reweight_unclamped_lag", {"no_overflow", "lag_clamped", "pick_nonempty"}},
    {"parity_ignores_min_slice", {"slice_protection"}},
    {"buddy_accepts_delayed", {"delayed_never_runs"}},
    {"iowait_dec_new_rq", {"iowait_accounting"}},
};

properties::Selection caught_by(const std::string& injection) {
  properties::Selection s;
  s.check = kCaughtBy.at(injection);
  s.check.push_back("no_overflow");
  return s;
}

// The first failure a replay reports (not a consequence).
class FirstFailure final : public properties::Sink {
 public:
  void violation(const properties::Violation& v) override {
    if (!v.consequence && !target) target = shrinkers::Target{std::string(v.property), std::string(v.finding)};
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  std::optional<shrinkers::Target> target;
};

struct Failing {
  std::uint64_t index = 0;
  std::uint64_t failure_at = 0;  // events up to the first failure
  trace::Trace trace;
  shrinkers::Target target;
};

// Trace `index`, if it fails: generated and replayed in lockstep; a failure before
// `failure_at_min` events ends the work early (and the trace is not kept).
std::optional<Failing> failing_trace(const ShrinkBenchOptions& b, std::uint64_t index, const std::string& injection,
                                     std::uint64_t size, std::uint64_t failure_at_min) {
  const generator::Options o = trace_options(injection, size);
  generator::Generator gen(generator::Prng::split(b.seed, index), o);
  FirstFailure sink;
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<bench>");
  replay::CheckedRun<model::KernelArith> run(config, replay::make_task_specs(gen.header()), sink, caught_by(injection));
  Failing f;
  f.index = index;
  f.trace.header = gen.header();
  while (const std::optional<trace::Event> e = gen.next()) {
    f.trace.body.emplace_back(*e);
    if (sink.target) continue;  // the rest of the trace after its failure
    EEVDF_ASSERT(run.apply(*e).empty(), "the generator's events are valid");
    if (!sink.target) continue;
    f.failure_at = f.trace.body.size();
    f.target = *sink.target;
    if (f.failure_at < failure_at_min) return f;  // too early: the caller only needs where
  }
  if (!sink.target) return std::nullopt;
  return f;
}

// The traces of one (injection, size): the first `seeds` that fail in their last
// quarter; if the search bound comes first, the latest-failing ones complete them.
std::vector<Failing> failing_traces(const ShrinkBenchOptions& b, const std::string& injection, std::uint64_t size) {
  const std::uint64_t late = (size * kFailureShareNum + kFailureShareDen - 1) / kFailureShareDen;
  std::vector<Failing> out;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> early;  // (failure_at, index) of the others
  for (std::uint64_t k = 0; k < b.traces_max && out.size() < static_cast<std::size_t>(b.seeds); ++k) {
    std::optional<Failing> f = failing_trace(b, k, injection, size, late);
    if (!f) continue;
    if (f->failure_at >= late)
      out.push_back(std::move(*f));
    else
      early.emplace_back(f->failure_at, k);
  }
  std::sort(early.begin(), early.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  for (std::size_t i = 0; i < early.size() && out.size() < static_cast<std::size_t>(b.seeds); ++i)
    out.push_back(*failing_trace(b, early[i].second, injection, size, 0));
  return out;
}

// Shrinks one failing trace both ways.
ShrinkCase measure(const trace::Trace& failing, const shrinkers::Target& target, const ShrinkBenchOptions& o) {
  ShrinkCase c;
  c.size = events_in(failing);
  c.property = target.property;
  shrinkers::Budget budget;
  budget.seconds_max = o.budget_seconds;
  shrinkers::Stats stats;
  const trace::Trace ours = shrinkers::shrink(failing, target, budget, &stats);
  c.ours_events = stats.events_after;
  c.ours_tasks = ours.header.tasks.size();
  c.ours_cpus = static_cast<std::uint64_t>(ours.header.topology_or_default().ncpus());
  c.ours_candidates = stats.candidates;
  c.ours_seconds = stats.seconds;
  c.ours_stopped = stats.stopped_because;
  c.ours_text = trace::to_text(ours);
  const RcShrinkResult rc = rc_list_shrink(failing, target, o.rc_budget_factor * stats.seconds);
  c.rc_events = events_in(rc.trace);
  c.rc_candidates = rc.candidates;
  c.rc_seconds = rc.seconds;
  c.rc_finished = rc.finished;
  c.rc_text = trace::to_text(rc.trace);
  return c;
}

}  // namespace

std::vector<std::string> implemented_injections() {
  std::vector<std::string> out;
  for (const model::InjectionInfo& i : model::kInjections) {
    trace::Header h;
    h.injections = {std::string(i.name)};
    try {
      (void)replay::make_config(h, replay::Options{}, "<bench>");
      out.emplace_back(i.name);
    } catch (const trace::TraceError&) {
      // not implemented (stale_min_slice): exit 2 everywhere, skipped here
    }
  }
  return out;
}

std::vector<ShrinkCase> run_shrink_bench(const ShrinkBenchOptions& o,
                                         const std::function<void(const ShrinkCase&)>& progress) {
  const std::vector<std::string> injections = o.injections.empty() ? implemented_injections() : o.injections;
  std::vector<ShrinkCase> out;
  for (const std::string& injection : injections)
    for (const std::uint64_t size : o.sizes) {
      for (const Failing& f : failing_traces(o, injection, size)) {
        ShrinkCase c = measure(f.trace, f.target, o);
        c.injection = injection;
        c.trace_index = f.index;
        c.failure_at = f.failure_at;
        if (progress) progress(c);
        out.push_back(std::move(c));
      }
    }
  return out;
}

}  // namespace eevdf::bench
