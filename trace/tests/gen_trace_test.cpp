// Tests the random-trace generator of gen_trace.h itself, so that the round-trip and
// fuzz properties built on it test what they claim: over 500 traces drawn from fixed
// seeds at RapidCheck's nominal size, every header line, both topology forms, every
// verb, both the task and the cpu= forms, every io kind, `tick all`, every query and
// every comparison appear; and every trace keeps the rules the generator promises
// (times never decrease, tasks declared, CPUs in range, the body starts with an event).
// The draws are deterministic (fixed seeds), so a gap is reproducible.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <variant>

#include "replay/vocabulary.h"
#include "trace/tests/gen_trace.h"

namespace eevdf::trace {
namespace {

constexpr int kSamples = 500;

struct Seen {
  std::set<std::string> header_lines;
  std::set<Verb> verbs;
  std::set<Query> queries;
  std::set<Io> io;
  std::set<CompareOp> ops;
  bool short_topology = false, long_topology = false, tick_all = false, task_form = false, cpu_form = false;
  bool preamble = false, initial_expects = false, large_time = false;
};

void note_header(const Header& h, Seen& seen) {
  if (!h.preamble.empty()) seen.preamble = true;
  if (h.kernel) seen.header_lines.insert("kernel");
  if (h.arith) seen.header_lines.insert("arith");
  if (h.topology) {
    seen.header_lines.insert("topology");
    (h.topology->long_form ? seen.long_topology : seen.short_topology) = true;
  }
  if (h.hz) seen.header_lines.insert("hz");
  if (h.base_slice_ns) seen.header_lines.insert("base_slice");
  if (!h.features.empty()) seen.header_lines.insert("features");
  if (!h.injections.empty()) seen.header_lines.insert("inject");
  if (!h.tasks.empty()) seen.header_lines.insert("task");
  if (!h.expect_violations.empty()) seen.header_lines.insert("expect violation");
  if (!h.expect_findings.empty()) seen.header_lines.insert("expect finding");
  if (h.expect_clean) seen.header_lines.insert("expect clean");
  if (!h.initial_expects.empty()) seen.initial_expects = true;
}

// The promises of gen_trace.h that the parser alone would not catch as a mismatch.
void check_promises(const Trace& t) {
  const int ncpus = t.header.topology_or_default().ncpus();
  auto declared = [&](int id) { return t.header.find_task(id) != nullptr; };
  auto cpu_ok = [&](int c) { return c >= 0 && c < ncpus; };
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < t.body.size(); ++i) {
    if (const Event* e = std::get_if<Event>(&t.body[i])) {
      CHECK(e->time_ns >= last);
      last = e->time_ns;
      if (e->task != 0) CHECK(declared(e->task));
      if (e->cpu) CHECK(cpu_ok(*e->cpu));
    } else {
      CHECK(i > 0);  // an expect before any event would be read as a header line
    }
  }
}

TEST_CASE("the generator reaches every line, verb and query", "[gen]") {
  const Vocabulary& vocab = replay::vocabulary();
  Seen seen;
  for (int k = 0; k < kSamples; ++k) {
    const Trace t = testgen::trace(vocab)(rc::Random(static_cast<std::uint64_t>(k)), rc::kNominalSize).value();
    check_promises(t);
    note_header(t.header, seen);
    for (const BodyStatement& s : t.body) {
      if (const Event* e = std::get_if<Event>(&s)) {
        seen.verbs.insert(e->verb);
        seen.io.insert(e->io);
        if (e->all_cpus) seen.tick_all = true;
        if (e->verb == Verb::sleep || e->verb == Verb::yield || e->verb == Verb::exit)
          (e->task != 0 ? seen.task_form : seen.cpu_form) = true;
        if (e->time_ns > (std::uint64_t{1} << 63)) seen.large_time = true;
      } else {
        const Expect& x = std::get<Expect>(s);
        seen.queries.insert(x.query);
        if (x.query == Query::measure) seen.ops.insert(x.op);
      }
    }
  }
  CHECK(seen.header_lines == std::set<std::string>{"kernel", "arith", "topology", "hz", "base_slice", "features",
                                                   "inject", "task", "expect violation", "expect finding", "expect clean"});
  CHECK(seen.short_topology);
  CHECK(seen.long_topology);
  CHECK(seen.preamble);
  CHECK(seen.initial_expects);
  CHECK(seen.verbs.size() == kVerbNames.size());
  CHECK(seen.queries.size() == kQueryNames.size());
  CHECK(seen.io.size() == 3);
  CHECK(seen.ops.size() == kOpNames.size());
  CHECK(seen.tick_all);
  CHECK(seen.task_form);
  CHECK(seen.cpu_form);
  CHECK(seen.large_time);
}

TEST_CASE("the generator is deterministic for a seed", "[gen]") {
  const Vocabulary& vocab = replay::vocabulary();
  for (std::uint64_t seed : {1u, 2u, 99u}) {
    const Trace a = testgen::trace(vocab)(rc::Random(seed), rc::kNominalSize).value();
    const Trace b = testgen::trace(vocab)(rc::Random(seed), rc::kNominalSize).value();
    CHECK(a == b);
  }
}

}  // namespace
}  // namespace eevdf::trace
