// Tests trace::StaticRules, the model-independent rows of docs/TRACE_FORMAT.md's
// verb-by-state table: a task is forked once, is `new` until then (wake, sleep,
// migrate, yield, exit are errors; renice and setslice are fine), and is never named
// after its `exit`. Each case parses a small trace (which must parse), runs
// StaticRules::check over its events in order as replay does, and expects the
// located error worked out by hand (the column is the task's token), or none.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <variant>

#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/static_rules.h"

namespace eevdf::trace {
namespace {

// Runs the static rules over every event of `text`; the error they raise, if any.
std::optional<TraceError> rules_error(const std::string& text) {
  const Trace t = parse_trace_text(text, "s.trace", replay::vocabulary());
  StaticRules rules("s.trace");
  try {
    for (const BodyStatement& s : t.body)
      if (const Event* e = std::get_if<Event>(&s)) rules.check(*e);
  } catch (const TraceError& e) {
    return e;
  }
  return std::nullopt;
}

void check_rejected(const std::string& text, const std::string& message, int line, int column) {
  INFO("trace:\n" << text);
  const auto e = rules_error(text);
  REQUIRE(e.has_value());
  INFO("error: " << e->what());
  CHECK_THAT(e->message(), Catch::Matchers::Contains(message));
  CHECK(e->loc().file == "s.trace");
  CHECK(e->loc().line == line);
  CHECK(e->loc().column == column);
}

void check_accepted(const std::string& text) {
  INFO("trace:\n" << text);
  const auto e = rules_error(text);
  if (e) FAIL_CHECK("unexpected error: " << e->what());
}

const std::string H = "eevdf-trace 1\ntopology 1x2\ntask 1\ntask 2\n";  // events start at line 5

TEST_CASE("fork twice is an error at the second fork", "[static]") {
  // "@1 fork " is 8 bytes: the task at column 9.
  check_rejected(H + "@0 fork 1\n@1 fork 1\n", "task 1 is forked twice (first at line 5)", 6, 9);
}

TEST_CASE("a task is new until forked", "[static]") {
  // "@0 wake " is 8 bytes.
  check_rejected(H + "@0 wake 1\n", "task 1 is new (not forked yet); `wake` is illegal for a new task", 5, 9);
  const auto e = rules_error(H + "@0 wake 1\n");
  REQUIRE(e);
  CHECK(e->hint() == "fork it first");
  // "@0 sleep " is 9 bytes, "@0 migrate " 11, "@0 yield " 9, "@0 exit " 8.
  check_rejected(H + "@0 sleep 1\n", "`sleep` is illegal for a new task", 5, 10);
  check_rejected(H + "@0 migrate 1 cpu=1\n", "`migrate` is illegal for a new task", 5, 12);
  check_rejected(H + "@0 yield 1\n", "`yield` is illegal for a new task", 5, 10);
  check_rejected(H + "@0 exit 1\n", "`exit` is illegal for a new task", 5, 9);
  // The other task being forked does not make task 2 forked.
  check_rejected(H + "@0 fork 1\n@1 wake 2\n", "task 2 is new", 6, 9);
}

TEST_CASE("an exited task may not be named again", "[static]") {
  // "@2 renice " is 10 bytes: the task at 11.
  check_rejected(H + "@0 fork 1\n@1 exit 1\n@2 renice 1 5\n",
                 "task 1 exited at line 6; `renice` is illegal for an exited task", 7, 11);
  check_rejected(H + "@0 fork 1\n@1 exit 1\n@2 fork 1\n", "task 1 exited at line 6; `fork` is illegal", 7, 9);
  check_rejected(H + "@0 fork 1\n@1 exit 1\n@2 wake 1\n", "`wake` is illegal for an exited task", 7, 9);
  check_rejected(H + "@0 fork 1\n@1 exit 1\n@2 setslice 1 0\n", "`setslice` is illegal for an exited task", 7, 13);
  check_rejected(H + "@0 fork 1\n@1 exit 1\n@2 exit 1\n", "`exit` is illegal for an exited task", 7, 9);
}

TEST_CASE("the column names the task even when an option comes first", "[static]") {
  // "@1 sleep io=noacct " is 19 bytes: the task is at column 20, not at io=noacct (10).
  check_rejected(H + "@1 sleep io=noacct 1\n", "`sleep` is illegal for a new task", 5, 20);
}

TEST_CASE("legal sequences pass the static rules", "[static]") {
  // renice and setslice are legal for a new task (weight or slice only).
  check_accepted(H + "@0 renice 1 5\n@0 setslice 1 3ms\n@0 fork 1\n");
  // After a fork every verb but fork is statically fine (the model judges the rest).
  check_accepted(H + "@0 fork 1\n@1 sleep 1 io\n@2 wake 1 cpu=1\n@3 migrate 1 cpu=0\n@4 yield 1\n@5 exit 1\n");
  // Ticks and the cpu= forms name no task; `exit cpu=0` does not mark any task exited.
  check_accepted(H + "@0 tick all\n@0 tick 1\n@1 sleep cpu=0\n@2 yield cpu=1\n@3 exit cpu=0\n@4 fork 1\n@5 wake 1\n");
  // Two tasks are independent.
  check_accepted(H + "@0 fork 1\n@0 fork 2\n@1 exit 1\n@2 sleep 2\n");
}

}  // namespace
}  // namespace eevdf::trace
