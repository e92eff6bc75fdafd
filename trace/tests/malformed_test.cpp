// Tests that the trace parser rejects malformed traces with the right located error.
// Each case is a small inline trace, the message substring docs/TRACE_FORMAT.md's rule
// calls for, and the line and column worked out by hand from the text (columns are
// 1-based byte offsets of the offending token; column 0 means the whole line).
// The hand count is written beside each case. Hints ("did you mean") are checked
// where the case is about a typo.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"

namespace eevdf::trace {
namespace {

struct Malformed {
  const char* what;
  std::string text;
  std::string message;  // a substring of TraceError::message()
  int line;
  int column;
  std::string hint = {};  // a substring of TraceError::hint(), when the case is a typo
};

// The trace error `text` raises; FAILs the test if it parses.
TraceError parse_error(const std::string& text) {
  try {
    parse_trace_text(text, "m.trace", replay::vocabulary());
  } catch (const TraceError& e) {
    return e;
  }
  FAIL("parsed without error:\n" << text);
  throw;  // unreachable: FAIL throws
}

void check_case(const Malformed& m) {
  INFO("case: " << m.what << "\ntrace:\n" << m.text);
  const TraceError e = parse_error(m.text);
  INFO("error: " << e.what());
  CHECK_THAT(e.message(), Catch::Matchers::Contains(m.message));
  CHECK(e.loc().file == "m.trace");
  CHECK(e.loc().line == m.line);
  CHECK(e.loc().column == m.column);
  if (!m.hint.empty()) CHECK_THAT(e.hint(), Catch::Matchers::Contains(m.hint));
  // what() is `file:line[:col]: message`, the form the CLI prints.
  const std::string where = "m.trace:" + std::to_string(m.line) +
                            (m.column > 0 ? ":" + std::to_string(m.column) : std::string{}) + ": ";
  CHECK_THAT(std::string(e.what()), Catch::Matchers::StartsWith(where));
}

const std::string V = "eevdf-trace 1\n";  // line 1 of most cases

TEST_CASE("the version line: missing, wrong, incomplete, repeated", "[malformed][header]") {
  const Malformed cases[] = {
      // "kernel" is at 1:1 where `eevdf-trace 1` must be.
      {"missing version", "kernel 6.18\n", "expected `eevdf-trace 1` as the first statement, found `kernel`", 1, 1},
      // A comment on line 1; the event on line 2 comes before any version line.
      {"event before version", "# no header\n@0 tick 0\n", "expected `eevdf-trace 1` as the first statement, found `@0`", 2, 1},
      // "eevdf-trace " is 12 bytes, so the version is at column 13.
      {"wrong version", "eevdf-trace 2\n", "unsupported trace format version `2`", 1, 13, "this tool reads version 1"},
      // Nothing after "eevdf-trace" (11 bytes): expected at 11 + 2 = 13.
      {"version missing", "eevdf-trace\n", "expected the format version `1`", 1, 13},
      // "eevdf-trace 1 " is 14 bytes: the extra token at 15.
      {"junk after version", "eevdf-trace 1 x\n", "unexpected `x`", 1, 15},
      {"version twice", V + "eevdf-trace 1\n", "`eevdf-trace` given twice (first at line 1)", 2, 1},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("an empty trace is an error at the line after the last", "[malformed][header]") {
  check_case({"empty file", "", "empty trace: expected `eevdf-trace 1`", 1, 0});
  // Two lines of comment and blank: the error is at line 3.
  check_case({"only comments", "# nothing\n\n", "empty trace: expected `eevdf-trace 1`", 3, 0});
}

TEST_CASE("header lines keep their order and appear at most once", "[malformed][header]") {
  const Malformed cases[] = {
      {"hz before kernel", V + "hz 100\nkernel 6.18\n", "`kernel` must come before `hz`", 3, 1, "header order: eevdf-trace, kernel"},
      {"task before features", V + "task 1\nfeatures NEXT_BUDDY\n", "`features` must come before `task`", 3, 1},
      {"topology before arith", V + "topology 1x2\narith ideal\n", "`arith` must come before `topology`", 3, 1},
      {"topology twice", V + "topology 1x2\ntopology 1x2\n", "`topology` given twice (first at line 2)", 3, 1},
      {"hz twice", V + "hz 100\n# a comment between\nhz 250\n", "`hz` given twice (first at line 2)", 4, 1},
      {"kernel twice", V + "kernel 6.18\nkernel 6.18\n", "`kernel` given twice (first at line 2)", 3, 1},
      {"unknown header statement", V + "feature NEXT_BUDDY\n", "unknown header statement `feature`", 2, 1, "did you mean `features`?"},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("unknown names in the header, with a hint when close", "[malformed][header]") {
  const Malformed cases[] = {
      // "features " is 9 bytes, the word at 10, its name after "NO_" at 13.
      {"unknown feature", V + "features NO_DELAY_DEQEUE\n", "unknown feature `DELAY_DEQEUE`", 2, 13, "did you mean `DELAY_DEQUEUE`?"},
      // The second word: "features NEXT_BUDDY " is 20 bytes, so column 21.
      {"unknown second feature", V + "features NEXT_BUDDY PIKC_BUDDY\n", "unknown feature `PIKC_BUDDY`", 2, 21, "did you mean `PICK_BUDDY`?"},
      {"empty features", V + "features\n", "expected feature names", 2, 10},
      // "inject " is 7 bytes: the name at 8.
      {"unknown injection", V + "inject stale_min_slce\n", "unknown injection `stale_min_slce`", 2, 8, "did you mean `stale_min_slice`?"},
      {"injection twice", V + "inject stale_min_slice\ninject stale_min_slice\n", "injection `stale_min_slice` given twice", 3, 8},
      // "kernel " is 7 bytes.
      {"unknown profile", V + "kernel 6.19\n", "unknown kernel profile `6.19`", 2, 8, "did you mean `6.18`?"},
      {"unknown arith", V + "arith exact\n", "expected `kernel`, `ideal` or `both`, found `exact`", 2, 7},
      // "expect violation " is 17 bytes: the property at 18.
      {"unknown property", V + "expect violation lag_bonud\n", "unknown property `lag_bonud`", 2, 18, "did you mean `lag_bound`?"},
      {"clean after violation", V + "expect violation lag_bound\nexpect clean\n", "`expect clean` contradicts `expect violation` above", 3, 8},
      // "expect finding " is 15 bytes: the name at 16.
      {"unknown finding", V + "expect finding lag-bound-yeild\n", "unknown finding `lag-bound-yeild`", 2, 16, "did you mean `lag-bound-yield`?"},
      {"clean after finding", V + "expect finding lag-bound-yield\nexpect clean\n", "`expect clean` contradicts `expect finding` above", 3, 8},
      {"finding after clean", V + "expect clean\nexpect finding lag-bound-yield\n", "`expect finding` contradicts `expect clean` above", 3, 8},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("header values out of range or of the wrong form", "[malformed][header]") {
  const Malformed cases[] = {
      // 64 x 65 = 4160 CPUs > 4096; the topology token is at column 10 ("topology " is 9).
      {"too-big topology", V + "topology 64x65\n", "topology has 4160 CPUs; at most 4096 are supported", 2, 10},
      // 16 * 16 * 16 * 2 = 8192 CPUs.
      {"too-big long topology", V + "topology sockets=16 llcs=16 cores=16 smt=2\n", "topology has 8192 CPUs", 2, 10},
      {"sockets out of range", V + "topology 4097x1\n", "sockets 4097 is out of range 1..4096", 2, 10},
      // "topology 2x" : cores part empty, at 10 + 2 = 12.
      {"short topology missing cores", V + "topology 2x\n", "expected cores per socket", 2, 12},
      {"short topology without x", V + "topology 64\n", "expected `<sockets>x<cores per socket>`", 2, 10},
      // "topology sockets=1 llcs=1 " is 26 bytes: "core=1" at 27.
      {"long topology bad key", V + "topology sockets=1 llcs=1 core=1\n", "expected sockets=, llcs=, cores= or smt=, found `core=1`", 2, 27, "did you mean `cores`?"},
      // The line "topology sockets=1 llcs=2" ends at 25: expected at 27.
      {"long topology missing cores", V + "topology sockets=1 llcs=2\n", "needs sockets=, llcs= and cores=", 2, 27},
      {"hz zero", V + "hz 0\n", "hz 0 is out of range 1..100000", 2, 4},
      // "base_slice " is 11 bytes: the value at 12.
      {"decimal without unit", V + "base_slice 0.7\n", "a decimal duration needs a unit (ns, us, ms, s), found `0.7`", 2, 12},
      // The upper bound is the implementation's (not docs/MODEL.md's), so only its form is checked.
      {"base_slice zero", V + "base_slice 0\n", "base_slice must be within 1ns..", 2, 12},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("task declarations", "[malformed][header]") {
  const Malformed cases[] = {
      // "task " is 5 bytes: the id at 6.
      {"task declared twice", V + "task 1\ntask 1\n", "task 1 declared twice (first at line 2)", 3, 6},
      {"task id zero", V + "task 0\n", "task id 0 is out of range 1..1000000000", 2, 6},
      // "task 1 " is 7 bytes, "nice=" 5 more: the value at 13.
      {"bad nice 20", V + "task 1 nice=20\n", "nice 20 is out of range -20..19", 2, 13},
      // "task 1 slice=" is 13 bytes: the value at 14.
      {"slice with fraction of ns", V + "task 1 slice=1.5ns\n", "a duration must be a whole number of nanoseconds, found `1.5ns`", 2, 14},
      // "topology 1x2" then "task 1 cpu=" (11 bytes): the CPU at 12.
      {"task cpu out of range", V + "topology 1x2\ntask 1 cpu=2\n", "CPU 2 is out of range", 3, 12, "this topology has CPUs 0..1"},
      {"unknown task option", V + "task 1 nicety=3\n", "expected nice=, slice=, name= or cpu=, found `nicety=3`", 2, 8},
      {"task option twice", V + "task 1 nice=1 nice=2\n", "`nice=` given twice", 2, 15},
      // "task 1 name=" is 12 bytes: the value at 13.
      {"task name not a word", V + "task 1 name=a/b\n", "a task name is a word", 2, 13},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("a header statement after the first event", "[malformed][body]") {
  const Malformed cases[] = {
      {"task after an event", V + "task 1\n@0 fork 1\ntask 2\n", "header statement `task` after the first event", 4, 1},
      {"hz after an event", V + "@0 tick 0\nhz 100\n", "header statement `hz` after the first event", 3, 1},
      // "expect " is 7 bytes: "violation" at 8.
      {"expect violation after an event", V + "@0 tick 0\nexpect violation lag_bound\n", "trace-wide `expect violation` belongs in the header", 3, 8},
      {"expect finding after an event", V + "@0 tick 0\nexpect finding lag-bound-yield\n", "trace-wide `expect finding` belongs in the header", 3, 8},
      {"expect clean after an event", V + "@0 tick 0\nexpect clean\n", "trace-wide `expect clean` belongs in the header", 3, 8},
      {"unknown statement", V + "@0 tick 0\nfork 1\n", "unknown statement `fork`", 3, 1, "events start with `@<time>`"},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("event times", "[malformed][body]") {
  const Malformed cases[] = {
      // The time follows '@', at column 2.
      {"time going backwards", V + "@5 tick 0\n@4 tick 0\n", "time goes backwards (the event at line 2 is later)", 3, 2},
      {"time going backwards across units", V + "@1.5ms tick 0\n@1499999 tick 0\n", "time goes backwards", 3, 2},
      {"time with fraction of ns", V + "@1.5ns tick 0\n", "bad event time: a duration must be a whole number of nanoseconds", 2, 2},
      {"decimal time without unit", V + "@1.5 tick 0\n", "bad event time: a decimal duration needs a unit", 2, 2},
      {"time past 2^64-1", V + "@18446744073709551616 tick 0\n", "bad event time: duration does not fit in 64 bits", 2, 2},
      {"negative time", V + "@-1 tick 0\n", "bad event time: expected a duration", 2, 2},
      // "@0" is 2 bytes: the missing verb is expected at 4.
      {"no verb", V + "@0\n", "expected a verb", 2, 4},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("event verbs and arguments", "[malformed][body]") {
  const std::string T = V + "topology 1x2\ntask 1\n";  // events start at line 4
  const Malformed cases[] = {
      // "@0 " is 3 bytes: the verb at 4.
      {"unknown verb", T + "@0 slep 1\n", "unknown verb `slep`", 4, 4, "did you mean `sleep`?"},
      // "@0 fork 1 " is 10 bytes: "cpu=2" at 11, its value at 15.
      {"fork cpu out of range", T + "@0 fork 1 cpu=2\n", "CPU 2 is out of range", 4, 15, "this topology has CPUs 0..1"},
      // "@0 tick " is 8 bytes.
      {"tick cpu out of range", T + "@0 tick 2\n", "CPU 2 is out of range", 4, 9},
      {"tick of nothing", T + "@0 tick\n", "expected a CPU number or `all`", 4, 9},
      // "@0 fork " is 8 bytes: the task at 9.
      {"undeclared task", T + "@0 fork 2\n", "task 2 is not declared", 4, 9, "declare it in the header: `task 2`"},
      {"task id not a number", T + "@0 wake x\n", "expected a task id (a positive integer), found `x`", 4, 9},
      // "@0 migrate 1" ends at column 12: the missing cpu= is expected at 14.
      {"migrate without cpu=", T + "@0 migrate 1\n", "expected `cpu=<c>`: the CPU to migrate to", 4, 14},
      // "@0 renice 1 " is 12 bytes: the nice at 13.
      {"bad nice 20", T + "@0 renice 1 20\n", "nice 20 is out of range -20..19", 4, 13},
      {"renice without nice", T + "@0 renice 1\n", "expected a nice value (-20..19)", 4, 13},
      // "@0 setslice 1 " is 14 bytes.
      {"setslice fraction of ns", T + "@0 setslice 1 0.5ns\n", "a duration must be a whole number of nanoseconds", 4, 15},
      {"unknown option key", T + "@0 fork 1 cpus=0\n", "unknown option `cpus=` for `fork`", 4, 11, "did you mean `cpu`?"},
      {"option twice", T + "@0 wake 1 cpu=0 cpu=1\n", "option `cpu=` given twice", 4, 17},
      // "@0 sleep 1 " is 11 bytes: "cpu=0" at 12.
      {"sleep names task and cpu", T + "@0 sleep 1 cpu=0\n", "name the task or `cpu=<c>`, not both", 4, 12},
      // "@0 sleep" ends at 8: expected at 10.
      {"sleep names nothing", T + "@0 sleep\n", "expected a task id or `cpu=<c>`", 4, 10},
      // "@0 sleep 1 io=" is 14 bytes: the value at 15.
      {"sleep bad io", T + "@0 sleep 1 io=acct\n", "expected `io` or `io=noacct`", 4, 15},
      {"sleep io twice", T + "@0 sleep 1 io=noacct io\n", "`io` given twice", 4, 22},
      // "@0 tick 0 " is 10 bytes.
      {"trailing token", T + "@0 tick 0 1\n", "unexpected `1`", 4, 11},
      {"fork two tasks", T + "@0 fork 1 1\n", "unexpected `1`", 4, 11},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("state queries", "[malformed][body]") {
  const std::string T = V + "topology 1x2\ntask 1\n@0 fork 1\n";  // the query is line 5
  const Malformed cases[] = {
      // "expect " is 7 bytes: the query at 8.
      {"unknown query", T + "expect lagg 1 5\n", "unknown query `lagg`", 5, 8, "did you mean `lag`?"},
      {"query of nothing", T + "expect\n", "expected a query", 5, 8},
      // "expect state 1 " is 15 bytes.
      {"unknown state", T + "expect state 1 runing\n", "unknown task state `runing`", 5, 16, "did you mean `running`?"},
      // "expect curr " is 12 bytes.
      {"curr cpu out of range", T + "expect curr 2 idle\n", "CPU 2 is out of range", 5, 13},
      // "expect curr 0 " is 14 bytes.
      {"curr of undeclared task", T + "expect curr 0 7\n", "task 7 is not declared", 5, 15},
      // "expect ideal.lag 1 " is 19 bytes.
      {"ideal.lag zero denominator", T + "expect ideal.lag 1 1/0\n", "expected an exact lag p/q, found `1/0`", 5, 20},
      {"ideal.lag decimal", T + "expect ideal.lag 1 0.5\n", "expected an exact lag p/q, found `0.5`", 5, 20},
      // "expect eligible 1 " is 18 bytes.
      {"eligible not yes/no", T + "expect eligible 1 true\n", "expected `yes` or `no`, found `true`", 5, 19},
      // "expect lag 1 " is 13 bytes.
      {"lag past s64", T + "expect lag 1 9223372036854775808\n", "expected a lag (an integer)", 5, 14},
      // "expect measure " is 15 bytes.
      {"measure of a pass/fail property", T + "expect measure pick_eligible == 0\n", "`pick_eligible` is not a measure", 5, 16},
      // "expect measure iowait_visibility " is 33 bytes.
      {"measure bad comparison", T + "expect measure iowait_visibility = 0\n", "expected a comparison (< <= == >= >)", 5, 34},
      // "expect sum_exec 1 " is 18 bytes.
      {"sum_exec fraction of ns", T + "expect sum_exec 1 1.5ns\n", "a duration must be a whole number of nanoseconds", 5, 19},
      // "expect nr_running 0 5 " is 22 bytes.
      {"query trailing token", T + "expect nr_running 0 5 6\n", "unexpected `6`", 5, 23},
      // "expect weight 1 " is 16 bytes.
      {"weight zero", T + "expect weight 1 0\n", "a weight 0 is out of range 1..1000000000", 5, 17},
  };
  for (const Malformed& m : cases) check_case(m);
}

TEST_CASE("queries in the header are checked against the header", "[malformed][header]") {
  // "expect state " is 13 bytes: the task at 14; task 2 is not declared.
  check_case({"initial query of undeclared task", V + "task 1\nexpect state 2 new\n", "task 2 is not declared", 3, 14});
}

TEST_CASE("bytes that are not text are reported, escaped", "[malformed]") {
  // A control byte in a header word: the message shows it as \x01.
  check_case({"control byte", V + "\x01x\n", "unknown header statement `\\x01x`", 2, 1});
  // A tab separates tokens like a blank: "@0\ttick\t9" puts 9 at column 9.
  check_case({"tab separated", V + "topology 1x2\n@0\ttick\t9\n", "CPU 9 is out of range", 3, 9});
  // A line longer than 64 KiB is refused whole (column 0).
  check_case({"overlong line", V + "# " + std::string(70000, 'x') + "\n", "line longer than 65536 bytes", 2, 0});
}

TEST_CASE("did_you_mean suggests a name within two edits, else nothing", "[malformed][hint]") {
  CHECK(edit_distance("kitten", "sitting") == 3);  // k->s, e->i, +g
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("wkae", "wake") == 2);  // a swap is two substitutions
  CHECK(edit_distance("tick", "tick") == 0);
  const std::vector<std::string> verbs{"fork", "wake", "sleep", "tick"};
  CHECK(did_you_mean("tikc", verbs) == "did you mean `tick`?");
  CHECK(did_you_mean("sleeep", verbs) == "did you mean `sleep`?");
  CHECK(did_you_mean("xyzzy", verbs).empty());   // 3+ edits from everything
  CHECK(did_you_mean("cat", std::vector<std::string>{"bat", "cot"}) == "did you mean `bat`?");  // a tie: first wins
}

}  // namespace
}  // namespace eevdf::trace
