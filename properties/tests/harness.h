// Test harness for the properties: replay a trace text through one arithmetic with
// chosen properties and collect what they report; reach into a run to break its
// state on purpose (the only place that may: tests that prove a check can fail).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "properties/property.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace eevdf::properties::testing {

struct Capture final : Sink {
  std::vector<Violation> violations;
  void violation(const Violation& v) override { violations.push_back(v); }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  int count(std::string_view property, bool with_consequences = false) const {
    int n = 0;
    for (const Violation& v : violations) n += v.property == property && (with_consequences || !v.consequence);
    return n;
  }
};

// A `tick 0` to hand to hooks called directly (after a test changed the state).
// Three tasks of mixed weight on one CPU, ticked past several deadlines.
inline const char* const kThree = R"(eevdf-trace 1
topology 1x1
task 1
task 2 nice=5
task 3 nice=-3
@0 fork 1
@0 fork 2
@0 fork 3
@1ms tick 0
@2ms tick 0
@3ms tick 0
@4ms tick 0
@5ms tick 0
)";

// `text` (a trace) with a `features` line before its first task.
inline std::string with_features(const std::string& text, const std::string& features) {
  const std::size_t at = text.find("task ");
  return text.substr(0, at) + "features " + features + "\n" + text.substr(at);
}

inline trace::Event tick_event() {
  trace::Event e;
  e.verb = trace::Verb::tick;
  e.cpu = 0;
  return e;
}

// A trace's header made into a run with `only` checked (all when empty), on the
// reference under profile P (the trace's `kernel` line must name the same one).
template <class A, class P = model::profile_6_18>
struct Harness {
  trace::Trace trace;
  Capture sink;
  std::unique_ptr<replay::CheckedRun<A, P>> run;
  std::size_t next = 0;  // the next body statement to apply

  Harness(const std::string& text, std::vector<std::string> only, std::vector<std::string> injections = {})
      : trace(trace::parse_trace_text(text, "test.trace", replay::vocabulary())) {
    replay::Options options;
    options.injections = std::move(injections);
    if (trace.header.kernel.value_or("6.18") != P::name) throw std::runtime_error("the trace's profile is not P");
    run = std::make_unique<replay::CheckedRun<A, P>>(replay::make_config(trace.header, options, "test.trace"),
                                                  replay::make_task_specs(trace.header), sink,
                                                  Selection{std::move(only), {}});
  }

  // Applies the events up to and including line `line` (all when 0); each must be legal.
  void apply_until(int line = 0) {
    for (; next < trace.body.size(); ++next) {
      const auto* e = std::get_if<trace::Event>(&trace.body[next]);
      if (e == nullptr) continue;
      if (line != 0 && e->line > line) return;
      const std::string reason = run->apply(*e);
      if (!reason.empty()) throw std::runtime_error("illegal event at line " + std::to_string(e->line) + ": " + reason);
    }
  }

  // Mutable access for tests that corrupt the model on purpose. A corruption is a
  // change the model did not make, so every runqueue's generation is bumped: the
  // checks must recount (properties' Env::facts).
  model::rq<A>& rq(int cpu) {
    changed();
    return const_cast<model::rq<A>&>(run->machine().rqs().at(static_cast<std::size_t>(cpu)));
  }
  model::task_struct<A>& task(int id) {
    changed();
    const auto& m = run->machine();
    return const_cast<model::task_struct<A>&>(m.tasks().at(static_cast<std::size_t>(m.task_index(id))));
  }
  // Call again after changing what rq() or task() returned.
  void changed() {
    for (const auto& rq : run->machine().rqs()) ++const_cast<model::rq<A>&>(rq).cfs.generation;
  }
  Checker<A, P>& checker() { return const_cast<Checker<A, P>&>(run->checker()); }
  Env<A, P>& env() { return const_cast<Env<A, P>&>(run->checker().env()); }
  // Makes the next hand-called after_event look at `cpus`, as an event on them would.
  void touch(std::vector<int> cpus) { env().touched = std::move(cpus); }
};

}  // namespace eevdf::properties::testing
