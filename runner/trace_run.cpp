// One trace of a campaign; see trace_run.h: generated, replayed through
// replay::CheckedRun with the coverage probe added, tallied.
#include "runner/trace_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "generator/generator.h"
#include "generator/prng.h"
#include "model/arith_kernel.h"
#include "properties/findings.h"
#include "properties/kernel_warn.h"
#include "properties/registry.h"
#include "replay/checked_run.h"
#include "replay/fast_diff.h"
#include "replay/ideal_diff.h"
#include "replay/model_config.h"
#include "runner/ideal_only.h"
#include "runner/kernel_src_diff.h"
#include "runner/measures.h"
#include "trace/writer.h"

namespace eevdf::runner {
namespace {

using A = model::KernelArith;

// Counts what the properties report, known findings and consequences apart.
class CountingSink final : public properties::Sink {
 public:
  CountingSink(Tally& tally, std::uint64_t index, std::uint64_t seed) : t_(tally), index_(index), seed_(seed) {}
  void violation(const properties::Violation& v) override {
    const std::string property(v.property);
    outcome_ += fmt::format("{}@{};", property, v.line);
    if (v.consequence) {
      ++t_.consequences;
      return;
    }
    const bool finding = !v.finding.empty();
    auto& count = finding ? t_.findings[std::string(v.finding)] : t_.violations[property];
    ++count;
    auto& first = finding ? t_.first_finding : t_.first_failure;
    const std::string key = finding ? std::string(v.finding) : property;
    if (first.count(key) == 0)
      first[key] = {property, std::string(v.finding), index_, seed_, v.line, v.time_ns, v.cpu, v.task, v.values,
                    v.explanation};
    if (!finding) violating_.insert(property);
  }
  // A measure's final value in this trace (Checker::finish).
  void measure(std::string_view name, const std::string& numerator, const std::string& denominator) override {
    add_sample(t_.measures[std::string(name)], make_sample(numerator, denominator, index_, seed_));
  }
  void close() {
    for (const std::string& p : violating_) ++t_.violating_traces[p];
  }
  const std::string& outcome() const { return outcome_; }

 private:
  Tally& t_;
  std::uint64_t index_;
  std::uint64_t seed_;
  std::set<std::string> violating_;
  std::string outcome_;  // violations in order, for the digest
};

// Generates and replays; throws InternalError when the tool itself fails.
std::uint64_t replay_generated(const Options& o, std::uint64_t seed, Tally& t, CountingSink& sink) {
  generator::Generator gen(seed, o.generator);
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<generated>");
  replay::CheckedRun<A> run(config, replay::make_task_specs(gen.header()), sink, o.selection);
  run.add_probe<CoverageProbe>(t.coverage);
  std::uint64_t digest = kFnvOffset;
  std::uint64_t applied = 0;
  while (auto e = gen.next()) {  // e->line: the event's position in the body, from 1
    const std::string text = trace::format_event(*e);
    digest = fnv1a(digest, text);
    digest = fnv1a(digest, "\n");
    const std::string reason = run.apply(*e);
    EEVDF_ASSERT(reason.empty(), "the replay rejected the generated event `" + text + "`: " + reason);
    ++t.events;
    ++applied;
  }
  run.finish();
  tally_evaluated(run.checker(), t.evaluated);
  // The model's own kernel checks (kernel_warn, replay::CheckedRun) run at every event
  // it applied; none after a halt, where the generator ends the trace.
  t.evaluated[std::string(properties::kKernelWarn)] += applied;
  t.draws += gen.draws();
  if (gen.steady()) ++t.steady_traces;
  return digest;
}

// fast_matches_reference on the same trace (--diff-every): the first difference is its
// violation (saved and shrunk like any other, with both models as the judge). The
// SIMD build where this CPU runs it, else the scalar one (replay::with_fast_build).
template <bool Simd>
void cross_check_fast(const Options& o, std::uint64_t seed, Tally& t, properties::Sink& sink) {
  generator::Generator gen(seed, o.generator);
  replay::FastDiff<Simd> diff(replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                              replay::make_task_specs(gen.header()));
  using Step = typename replay::FastDiff<Simd>::Step;
  while (auto e = gen.next()) {
    const Step step = diff.apply(*e);
    // Both reported the overflow (or the same kernel_warn) in this event: they part by
    // design from here. One reporting it alone is a mismatch.
    if (step == Step::overflow || step == Step::kernel_warn) break;
    EEVDF_ASSERT(step != Step::illegal, "the fast model rejected a generated event: " + diff.illegal_reason());
    if (step == Step::same) continue;
    properties::Violation v;
    v.property = "fast_matches_reference";
    v.line = diff.mismatch().line;
    v.time_ns = e->time_ns;
    v.values = diff.mismatch().message();
    v.explanation = fmt::format("the fast model ({} build) and the kernel reference differ after this event",
                                Simd ? "SIMD" : "scalar");
    sink.violation(v);
    break;
  }
  ++t.fast_checked;
}

// ideal_tracks_kernel on the same trace (--ideal-every): both arithmetics in lockstep;
// each unexplained divergence is a violation, explained ones are tallied.
template <class P>
void check_ideal(const Options& o, std::uint64_t seed, Tally& t, properties::Sink& sink) {
  generator::Generator gen(seed, o.generator);
  replay::IdealDiff<P> diff(replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                            replay::make_task_specs(gen.header()));
  while (auto e = gen.next()) {
    const std::string reason = diff.apply(*e);
    EEVDF_ASSERT(reason.empty(), "ideal_tracks_kernel: the kernel model rejected a generated event: " + reason);
  }
  for (const replay::IdealDivergence& d : diff.found()) {
    if (d.explained) ++t.ideal_explained_by[d.decision];
    if (d.explained) continue;
    properties::Violation v;
    v.property = "ideal_tracks_kernel";
    v.line = d.line;
    v.time_ns = d.time_ns;
    v.cpu = d.cpu;
    v.task = d.task;
    v.values = d.decision + ": " + d.values;
    v.explanation = d.explanation;
    sink.violation(v);
  }
  ++t.ideal_checked;
  t.ideal_events += diff.stats().events;
  t.ideal_explained += diff.stats().explained;
  if (diff.stats().explained != 0) ++t.ideal_diverged_traces;
}

// kernel_matches_reference on the trace: the first difference is its violation.
std::uint64_t diff_kernel_src(const Options& o, std::uint64_t seed, Tally& t, CountingSink& sink) {
  const DiffOutcome d = diff_generated(o.generator, seed, &sink, o.selection);
  t.events += d.events;
  t.draws += d.draws;
  for (const auto& [property, n] : d.evaluated) t.evaluated[property] += n;
  const auto report = [&](const std::string& values, const char* why) {
    properties::Violation v;
    v.property = "kernel_matches_reference";
    v.line = d.line;
    v.time_ns = d.time_ns;
    v.values = values;
    v.explanation = why;
    return v;
  };
  if (!d.difference.empty()) {
    properties::Violation v = report(
        d.difference, "the reference's 6.12 profile and kernel-src (the real 6.12 fair.c) disagree after this event");
    v.consequence = d.after_overflow;  // past an s64 overflow the tree order is the kernel's alone
    sink.violation(v);
  }
  return fnv1a(fnv1a(kFnvOffset, std::to_string(d.events)), d.difference);
}

}  // namespace

std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

TraceOutcome run_trace(const Options& o, std::uint64_t index) {
  TraceOutcome out;
  Tally& t = out.tally;
  t.traces = 1;
  const std::uint64_t seed = trace_seed(o.seed, index);
  CountingSink sink(t, index, seed);
  try {
    out.digest = o.kernel_src ? diff_kernel_src(o, seed, t, sink) : replay_generated(o, seed, t, sink);
    if (ideal_only_sampled(o, index, t.steady_traces != 0)) replay_ideal_only(o, seed, t, sink);
    if (!o.kernel_src && o.diff_every != 0 && index % o.diff_every == 0)
      replay::with_fast_build([&]<bool Simd>() { cross_check_fast<Simd>(o, seed, t, sink); });
    if (o.ideal_every != 0 && index % o.ideal_every == 0) {
      if (o.generator.profile == "6.12") check_ideal<model::profile_6_12>(o, seed, t, sink);
      else check_ideal<model::profile_6_18>(o, seed, t, sink);
    }
  } catch (const InternalError& e) {
    t.internal_error = fmt::format("trace {} (seed {}): {}", index, seed, e.what());
    t.internal_index = index;
  } catch (const KernelWarn& e) {
    // A second implementation (--ideal-every's) met a kernel condition; the reference
    // replay ends at the same event and has reported it, unless only this one met it.
    if (sink.outcome().find("kernel_warn@") == std::string::npos)
      sink.violation(properties::kernel_warn_violation(e.check(), 0, 0, -1));
  }
  sink.close();
  out.digest = fnv1a(out.digest, sink.outcome());
  return out;
}

}  // namespace eevdf::runner
