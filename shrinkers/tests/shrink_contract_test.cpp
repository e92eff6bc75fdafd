// The shrink contract's edge cases: a predicate that fails on nothing returns the
// input unchanged; violates() rejects invalid candidates (illegal events, a header
// the model rejects, the wrong property, consequence-only violations); the budget
// stops a shrink and says so; the task pass deletes tasks named only while new.
#include <catch2/catch.hpp>

#include <stdexcept>  // std::invalid_argument
#include <variant>    // std::get_if

#include "base/assert.h"
#include "replay/vocabulary.h"
#include "shrinkers/shrink.h"
#include "shrinkers/tests/padding.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace sh = eevdf::shrinkers;
namespace st = eevdf::shrinkers::testing;
using eevdf::trace::Trace;

namespace {

Trace parse(const char* text) { return eevdf::trace::parse_trace_text(text, "test", eevdf::replay::vocabulary()); }

}  // namespace

TEST_CASE("a predicate failing on nothing returns the input unchanged", "[shrinkers]") {
  const Trace input = st::pad_appended(st::load_corpus_trace("bugs/iowait_dec_new_rq.trace"), 110);
  sh::Stats stats;
  const Trace result = sh::shrink(input, [](const Trace&) { return false; }, sh::Budget{}, &stats);
  CHECK(result == input);
  CHECK(eevdf::trace::to_text(result) == eevdf::trace::to_text(input));
  CHECK(stats.candidates == 1);
  CHECK(stats.accepted == 0);
  CHECK(stats.events_after == stats.events_before);
  CHECK(stats.stopped_because == "input does not fail");
}

TEST_CASE("violates: the expected property of a bug trace, and no other", "[shrinkers]") {
  const Trace bug = st::load_corpus_trace("bugs/iowait_dec_new_rq.trace");
  CHECK(sh::violates("iowait_accounting")(bug));
  CHECK_FALSE(sh::violates("slice_protection")(bug));
  CHECK_FALSE(sh::violates("iowait_accounting")(st::load_corpus_trace("bugs/iowait_dec_new_rq-clean.trace")));
  CHECK_THROWS_AS(sh::violates("no_such_property"), std::invalid_argument);
}

TEST_CASE("violates: invalid candidates are rejected", "[shrinkers]") {
  const sh::Predicate fails = sh::violates("iowait_accounting");
  // The fork of task 2 deleted alone: its sleep is illegal (StaticRules).
  const Trace bug = st::load_corpus_trace("bugs/iowait_dec_new_rq.trace");
  Trace no_fork = bug;
  no_fork.body.erase(no_fork.body.begin() + 1);
  CHECK_FALSE(fails(no_fork));
  // Task 1 never forked: task 2 runs and its sleep is fine, but `sleep cpu=1` on an
  // idle CPU is illegal in the model.
  CHECK_FALSE(fails(parse("eevdf-trace 1\ntopology 1x2\nhz 250\ninject iowait_dec_new_rq\ntask 2\n"
                          "@0 fork 2 cpu=0\n@1ms sleep 2 io\n@2ms wake 2 cpu=1\n@3ms sleep cpu=0\n")));
  // A header the model rejects (an unimplemented injection) is invalid, not a crash.
  Trace bad_header = bug;
  bad_header.header.injections.push_back("stale_min_slice");
  CHECK_FALSE(fails(bad_header));
}

TEST_CASE("violates: consequence-tagged violations do not count", "[shrinkers]") {
  // reweight_unclamped_lag: pick_nonempty fails only as a consequence of the overflow.
  const Trace bug = st::load_corpus_trace("bugs/reweight_unclamped_lag.trace");
  CHECK(sh::violates("no_overflow")(bug));
  CHECK_FALSE(sh::violates("pick_nonempty")(bug));
}

TEST_CASE("the budget stops a shrink and says why", "[shrinkers]") {
  const Trace bug = st::load_corpus_trace("bugs/buddy_accepts_delayed.trace");
  const Trace input = st::pad_appended(bug, 110);
  sh::Budget budget;
  budget.candidates_max = 5;
  sh::Stats stats;
  const Trace result = sh::shrink(input, sh::violates("delayed_never_runs"), budget, &stats);
  CHECK(stats.candidates == 5);
  CHECK(stats.stopped_because == "budget: candidates");
  CHECK(sh::violates("delayed_never_runs")(result));
  CHECK(stats.events_after <= stats.events_before);

  budget = sh::Budget{};
  budget.seconds_max = 0;
  const Trace untouched = sh::shrink(input, sh::violates("delayed_never_runs"), budget, &stats);
  CHECK(stats.stopped_because == "budget: seconds");
  CHECK(untouched == input);  // not even the input was replayed
}

TEST_CASE("a task named only by renice while new is deleted with its declaration", "[shrinkers]") {
  // Task 9 is never forked; its renice is no event's dependent. Whichever pass takes
  // it, its declaration goes with its last event.
  const Trace input = parse(
      "eevdf-trace 1\ntopology 1x2\nhz 250\ninject iowait_dec_new_rq\ntask 1\ntask 2 nice=5\ntask 9\n"
      "expect violation iowait_accounting\n"
      "@0 fork 1 cpu=0\n@0 fork 2 cpu=0\n@0 renice 9 3\n@4ms tick 0\n@5ms sleep 2 io\n@8ms wake 2 cpu=1\n");
  sh::Stats stats;
  const Trace result = sh::shrink(input, sh::violates("iowait_accounting"), sh::Budget{}, &stats);
  CHECK(stats.stopped_because == "fixed point");
  CHECK(result.header.find_task(9) == nullptr);
  CHECK(stats.passes.size() == 7);
  CHECK(sh::violates("iowait_accounting")(result));
}

// A candidate on which the tool itself fails (InternalError, exit 3) is never
// taken for "does not fail" in silence: the shrink goes on toward the target and
// keeps the first such candidate with its error for the caller to save.
TEST_CASE("a candidate that hits an internal error is kept as a crash", "[shrinkers][crash]") {
  const Trace input = st::pad_appended(st::load_corpus_trace("bugs/iowait_dec_new_rq.trace"), 20);
  const auto events = [](const Trace& t) {
    std::size_t n = 0;
    for (const auto& s : t.body) if (std::holds_alternative<eevdf::trace::Event>(s)) ++n;
    return n;
  };
  const std::size_t before = events(input);
  // Fails while more than half the events are left; crashes on fewer than half.
  const sh::Predicate judge = [&](const Trace& t) {
    EEVDF_ASSERT(2 * events(t) >= before, "a test crash");
    return 2 * events(t) > before;
  };
  sh::Stats stats;
  Trace result;
  REQUIRE_NOTHROW(result = sh::shrink(input, judge, sh::Budget{}, &stats));
  CHECK(2 * events(result) > before);
  REQUIRE(stats.internal_error_trace.has_value());
  CHECK(2 * events(*stats.internal_error_trace) < before);
  CHECK(stats.internal_error.find("a test crash") != std::string::npos);
}
