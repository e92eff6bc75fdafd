// One trace of a campaign; see trace_run.h. The replay mirrors replay::CheckedRun
// (same hook order, same touched CPUs), with the coverage probe added to the
// checker, which CheckedRun does not expose.
#include "runner/trace_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "base/assert.h"
#include "generator/generator.h"
#include "generator/prng.h"
#include "model/arith_kernel.h"
#include "properties/registry.h"
#include "replay/apply_event.h"
#include "replay/model_config.h"
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
  void measure(std::string_view, const std::string&, const std::string&) override {}
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

// replay::CheckedRun<A> plus the coverage probe.
class ProbedRun {
 public:
  ProbedRun(const model::Config& config, const std::vector<model::TaskSpec>& specs, properties::Sink& sink,
            const properties::Selection& selection, ProbeCounts& coverage)
      : m_(config, specs), env_(m_, sink), checker_(env_) {
    properties::add_properties(checker_, env_, selection);
    checker_.add(std::make_unique<CoverageProbe>(env_, coverage));
    m_.set_observer(&checker_);
  }
  ProbedRun(const ProbedRun&) = delete;
  ProbedRun& operator=(const ProbedRun&) = delete;

  std::string apply(const trace::Event& e) {
    env_.line = e.line;
    env_.now = e.time_ns;
    env_.event = &e;
    env_.touched.clear();
    add_touched(e);
    checker_.before_event(e);
    const std::string reason = replay::apply_event(m_, e);
    if (reason.empty()) {
      add_touched(e);
      std::sort(env_.touched.begin(), env_.touched.end());
      env_.touched.erase(std::unique(env_.touched.begin(), env_.touched.end()), env_.touched.end());
      checker_.after_event(e);
      m_.clear_overflows(env_.touched);
    }
    env_.event = nullptr;
    return reason;
  }
  void finish() { checker_.finish(); }

 private:
  void add_touched(const trace::Event& e) {
    if (e.task != 0) env_.touched.push_back(m_.tasks().at(static_cast<std::size_t>(m_.task_index(e.task))).cpu);
    if (e.cpu) env_.touched.push_back(*e.cpu);
    if (e.all_cpus)
      for (const auto& rq : m_.rqs())
        if (rq.curr != nullptr) env_.touched.push_back(rq.cpu);
  }

  model::Machine<A> m_;
  properties::Env<A> env_;
  properties::Checker<A> checker_;
};

// Generates and replays; throws InternalError when the tool itself fails.
std::uint64_t replay_generated(const Options& o, std::uint64_t seed, Tally& t, CountingSink& sink) {
  generator::Generator gen(seed, o.generator);
  const model::Config config = replay::make_config(gen.header(), replay::Options{}, "<generated>");
  ProbedRun run(config, replay::make_task_specs(gen.header()), sink, o.selection, t.coverage);
  std::uint64_t digest = kFnvOffset;
  while (auto e = gen.next()) {  // e->line: the event's position in the body, from 1
    const std::string text = trace::format_event(*e);
    digest = fnv1a(digest, text);
    digest = fnv1a(digest, "\n");
    const std::string reason = run.apply(*e);
    EEVDF_ASSERT(reason.empty(), "the replay rejected the generated event `" + text + "`: " + reason);
    ++t.events;
  }
  run.finish();
  t.draws += gen.draws();
  if (gen.steady()) ++t.steady_traces;
  return digest;
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
    out.digest = replay_generated(o, seed, t, sink);
  } catch (const InternalError& e) {
    t.internal_error = fmt::format("trace {} (seed {}): {}", index, seed, e.what());
    t.internal_index = index;
  }
  sink.close();
  out.digest = fnv1a(out.digest, sink.outcome());
  return out;
}

}  // namespace eevdf::runner
