// Tests of the `eevdf-lab 1` reader: whole workloads compared with hand-built ones,
// and malformed ones with their message and the line and column counted by hand
// (columns are 1-based byte offsets of the offending word; 0 means the whole line).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "lab/workload.h"
#include "trace/error.h"

namespace eevdf::lab {
namespace {

constexpr std::uint64_t us = 1'000;
constexpr std::uint64_t ms = 1'000'000;

// Builders of the expected data, field by field (designated initializers would have
// to name every field under -Wmissing-field-initializers).
Op op(Op::Kind kind, int line) {
  Op o;
  o.kind = kind;
  o.line = line;
  return o;
}
Op run(int line, std::uint64_t lo, std::uint64_t hi) {
  Op o = op(Op::run, line);
  o.dist = {lo, hi};
  return o;
}
Op sleep(int line, std::uint64_t lo, std::uint64_t hi, trace::Io io) {
  Op o = op(Op::sleep, line);
  o.dist = {lo, hi};
  o.io = io;
  return o;
}
Op wait(int line, trace::Io io = trace::Io::none) {
  Op o = op(Op::wait, line);
  o.io = io;
  return o;
}
Op wake(int line, int group, WakeWhom whom = WakeWhom::partner) {
  Op o = op(Op::wake, line);
  o.group = group;
  o.whom = whom;
  return o;
}
Op renice(int line, int nice) {
  Op o = op(Op::renice, line);
  o.nice = nice;
  return o;
}
Group group(const std::string& name, int line, std::vector<int> cpus, std::vector<Op> program) {
  Group g;
  g.name = name;
  g.line = line;
  g.cpus = std::move(cpus);
  g.program = std::move(program);
  return g;
}

TEST_CASE("lab.workload: the tbench-like example reads as built by hand", "[lab][workload]") {
  const std::string text =
      "# tbench-like: a client and a server pinned to CPU 0, exchanging messages.\n"  // 1
      "# (comment lines before `eevdf-lab 1` are the workload's description)\n"       // 2
      "eevdf-lab 1\n"                                                                  // 3
      "topology 1x1          # as in traces\n"                                         // 4
      "hz 1000\n"                                                                      // 5
      "base_slice 3ms\n"                                                               // 6
      "features NO_DELAY_DEQUEUE RUN_TO_PARITY\n"                                      // 7
      "kernel 6.18\n"                                                                  // 8
      "duration 10s\n"                                                                 // 9
      "\n"                                                                             // 10
      "group client count=1 nice=0 cpus=0 start=0\n"                                   // 11
      "  run 10us..30us      # burn CPU\n"                                             // 12
      "  wake server\n"                                                                // 13
      "  wait\n"                                                                       // 14
      "group server cpus=0\n"                                                          // 15
      "  wait\n"                                                                       // 16
      "  run 20us\n"                                                                   // 17
      "  wake client\n";                                                               // 18
  Workload expected;
  expected.name = "tbench";
  expected.description = {"tbench-like: a client and a server pinned to CPU 0, exchanging messages.",
                          "(comment lines before `eevdf-lab 1` are the workload's description)"};
  expected.kernel = "6.18";
  expected.topology = {.sockets = 1, .cores_per_socket = 1};
  expected.hz = 1000;
  expected.base_slice_ns = 3 * ms;
  expected.features = {{"DELAY_DEQUEUE", false}, {"RUN_TO_PARITY", true}};
  expected.duration_ns = 10'000 * ms;
  expected.groups = {
      group("client", 11, {0}, {run(12, 10 * us, 30 * us), wake(13, 1), wait(14)}),
      group("server", 15, {0}, {wait(16), run(17, 20 * us, 20 * us), wake(18, 0)}),
  };
  CHECK(read_workload(text, "/x/tbench.lab") == expected);
}

TEST_CASE("lab.workload: defaults of the header and of a group", "[lab][workload]") {
  const Workload w = read_workload("eevdf-lab 1\ngroup g\n  run 1ms\n", "min.lab");
  Workload expected;
  expected.name = "min";
  expected.groups = {group("g", 2, {}, {run(3, 1 * ms, 1 * ms)})};
  CHECK(w == expected);
  // The defaults the format promises, spelled out rather than taken from the struct.
  CHECK_FALSE(w.kernel.has_value());
  CHECK(w.topology.ncpus() == 1);
  CHECK(w.hz == 1000);
  CHECK_FALSE(w.base_slice_ns.has_value());
  CHECK(w.features.empty());
  CHECK(w.duration_ns == 10'000 * ms);
  CHECK(w.description.empty());
  const Group& g = w.groups.at(0);
  CHECK(g.count == 1);
  CHECK(g.nice == 0);
  CHECK(g.slice_ns == 0);
  CHECK(g.cpus.empty());
  CHECK(g.start_ns == 0);
}

TEST_CASE("lab.workload: group options and every program statement", "[lab][workload]") {
  const Workload w = read_workload(
      "eevdf-lab 1\n"
      "topology sockets=1 llcs=2 cores=2 smt=2\n"
      "features NO_DELAY_DEQUEUE\n"
      "features DELAY_DEQUEUE RUN_TO_PARITY\n"
      "group batch count=16 nice=-5 slice=0.5ms cpus=7 start=2ms\n"  // 5
      "sleep 1ms..2ms io\n"                                           // 6
      "sleep 3ms io=noacct\n"                                         // 7
      "wait io\n"                                                     // 8
      "wait io=noacct\n"                                              // 9
      "yield\n"                                                       // 10
      "renice -20\n"                                                  // 11
      "wake batch all\n"                                              // 12
      "wake batch one\n",                                             // 13
      "w.lab");
  CHECK(w.topology.long_form);
  CHECK(w.topology.ncpus() == 8);
  CHECK(w.features == std::vector<std::pair<std::string, bool>>{{"DELAY_DEQUEUE", true}, {"RUN_TO_PARITY", true}});
  Group expected = group("batch", 5, {7},
                         {
                             sleep(6, 1 * ms, 2 * ms, trace::Io::io),
                             sleep(7, 3 * ms, 3 * ms, trace::Io::noacct),
                             wait(8, trace::Io::io),
                             wait(9, trace::Io::noacct),
                             op(Op::yield, 10),
                             renice(11, -20),
                             wake(12, 0, WakeWhom::all),
                             wake(13, 0, WakeWhom::one),
                         });
  expected.count = 16;
  expected.nice = -5;
  expected.slice_ns = 500 * us;
  expected.start_ns = 2 * ms;
  REQUIRE(w.groups.size() == 1);
  CHECK(w.groups[0] == expected);
}

std::vector<int> cpus_of(const std::string& list) {
  const std::string text = "eevdf-lab 1\ntopology 2x4\ngroup g cpus=" + list + "\n  run 1ms\n";
  return read_workload(text, "c.lab").groups.at(0).cpus;
}

TEST_CASE("lab.workload: cpus lists are sorted, without duplicates", "[lab][workload]") {
  CHECK(cpus_of("3") == std::vector<int>{3});
  CHECK(cpus_of("0-3") == std::vector<int>{0, 1, 2, 3});
  CHECK(cpus_of("0,2,4-7") == std::vector<int>{0, 2, 4, 5, 6, 7});
  CHECK(cpus_of("6-7,1,6,1-2,5-5") == std::vector<int>{1, 2, 5, 6, 7});
}

TEST_CASE("lab.workload: wake names a group defined anywhere in the file", "[lab][workload]") {
  const Workload w = read_workload(
      "eevdf-lab 1\n"
      "group a\n  run 1ms\n  wake c\n"    // 2-4: forward, two groups ahead
      "group b\n  run 1ms\n  wake a all\n"  // 5-7: backward
      "group c\n  run 1ms\n  wake c one\n",  // 8-10: itself
      "f.lab");
  REQUIRE(w.groups.size() == 3);
  CHECK(w.groups[0].program.at(1) == wake(4, 2));
  CHECK(w.groups[1].program.at(1) == wake(7, 0, WakeWhom::all));
  CHECK(w.groups[2].program.at(1) == wake(10, 2, WakeWhom::one));
}

TEST_CASE("lab.workload: the description and the name", "[lab][workload]") {
  const Workload w = read_workload(
      "# first\n#\n#   indented\n\n  # after a blank line\neevdf-lab 1 # not this\n# nor this\ngroup g\n  run 1\n",
      "/some/dir/buddy_pair.lab");
  CHECK(w.name == "buddy_pair");
  CHECK(w.description == std::vector<std::string>{"first", "", "  indented", "after a blank line"});
  CHECK(read_workload("eevdf-lab 1\ngroup g\n  run 1\n", "plain").name == "plain");
}

// The error `text` raises; FAILs the test if it parses.
trace::TraceError error_of(const std::string& text) {
  try {
    read_workload(text, "m.lab");
  } catch (const trace::TraceError& e) {
    return e;
  }
  FAIL("parsed without error:\n" << text);
  throw;  // unreachable: FAIL throws
}

struct Malformed {
  const char* what;
  std::string text;
  std::string message;  // a substring of TraceError::message()
  int line;
  int column;
  std::string hint = {};  // a substring of TraceError::hint()
};

void check(const Malformed& m) {
  INFO("case: " << m.what << "\nworkload:\n" << m.text);
  const trace::TraceError e = error_of(m.text);
  INFO("error: " << e.what());
  CHECK_THAT(e.message(), Catch::Matchers::Contains(m.message));
  CHECK(e.loc().file == "m.lab");
  CHECK(e.loc().line == m.line);
  CHECK(e.loc().column == m.column);
  if (!m.hint.empty()) CHECK_THAT(e.hint(), Catch::Matchers::Contains(m.hint));
}

const std::string V = "eevdf-lab 1\n";  // line 1
const std::string G = "group g\n  run 1ms\n";

TEST_CASE("lab.workload: malformed headers", "[lab][workload]") {
  const Malformed cases[] = {
      {"no version line", "hz 1000\n", "expected `eevdf-lab 1` as the first statement, found `hz`", 1, 1},
      {"wrong version", "eevdf-lab 2\n", "unsupported workload format version `2`", 1, 11},
      {"version twice", V + "eevdf-lab 1\n", "`eevdf-lab` given twice (first at line 1)", 2, 1},
      {"only comments", "# nothing\n", "empty workload: expected `eevdf-lab 1`", 2, 0},
      {"no group", V + "hz 100\n", "the workload has no `group`", 3, 0},
      {"typo of group", V + "grup a\n", "unknown statement `grup`", 2, 1, "did you mean `group`?"},
      {"typo of a setting", V + "duratoin 1s\n", "unknown statement `duratoin`", 2, 1, "did you mean `duration`?"},
      {"setting twice", V + "hz 100\nhz 200\n", "`hz` given twice (first at line 2)", 3, 1},
      {"duration twice", V + "duration 1s\nduration 2s\n", "`duration` given twice (first at line 2)", 3, 1},
      {"setting after a group", V + G + "hz 100\n", "header statement `hz` after the first `group`", 4, 1},
      {"unknown kernel", V + "kernel 6.1\n", "unknown kernel profile `6.1`", 2, 8, "did you mean `6.18`?"},
      {"unknown feature", V + "features NO_DELAY_DEQUEU\n", "unknown feature `DELAY_DEQUEU`", 2, 13,
       "did you mean `DELAY_DEQUEUE`?"},
      {"features without names", V + "features\n", "expected feature names", 2, 10},
      {"hz out of range", V + "hz 0\n", "hz 0 is out of range 1..100000", 2, 4},
      {"hz trailing word", V + "hz 100 200\n", "unexpected `200`", 2, 8},
      {"bad topology", V + "topology 2y4\n", "expected `<sockets>x<cores per socket>`", 2, 10},
      {"base_slice 0", V + "base_slice 0\n", "base_slice must be within 1ns..", 2, 12},
      {"duration 0", V + "duration 0\n", "duration must be more than 0", 2, 10},
      {"duration without unit", V + "duration 1.5\n", "a decimal duration needs a unit", 2, 10},
      {"duration missing", V + "duration\n", "expected a duration", 2, 10},
  };
  for (const Malformed& m : cases) check(m);
}

TEST_CASE("lab.workload: malformed groups", "[lab][workload]") {
  const Malformed cases[] = {
      {"missing name", V + "group\n", "expected a group name", 2, 7},
      {"name with a dot", V + "group a.b\n  run 1ms\n", "a group name is a word of letters, digits, _ and -", 2, 7},
      {"name twice", V + G + "group g\n  run 1ms\n", "group `g` defined twice (first at line 2)", 4, 7},
      {"unknown option", V + "group a cont=2\n  run 1ms\n",
       "expected count=, nice=, slice=, cpus= or start=, found `cont=2`", 2, 9, "did you mean `count`?"},
      {"positional word", V + "group a b\n  run 1ms\n", "found `b`", 2, 9},
      {"option twice", V + "group a nice=1 nice=2\n  run 1ms\n", "`nice=` given twice", 2, 16},
      {"count 0", V + "group a count=0\n  run 1ms\n", "count 0 is out of range 1..4096", 2, 15},
      {"count too large", V + "group a count=4097\n  run 1ms\n", "count 4097 is out of range 1..4096", 2, 15},
      {"nice too low", V + "group a nice=-21\n  run 1ms\n", "nice -21 is out of range -20..19", 2, 14},
      {"slice below 0.1ms", V + "group a slice=50us\n  run 1ms\n", "slice 50us is out of range 0.1ms..100ms", 2, 15},
      {"slice above 100ms", V + "group a slice=101ms\n  run 1ms\n", "is out of range 0.1ms..100ms", 2, 15},
      {"start not a duration", V + "group a start=soon\n  run 1ms\n", "found `soon`", 2, 15},
      {"cpus empty", V + "group a cpus=\n  run 1ms\n", "expected a CPU list", 2, 14},
      {"cpu out of range", V + "topology 1x2\ngroup a cpus=0-2\n  run 1ms\n", "CPU 2 is out of range", 3, 16,
       "this topology has CPUs 0..1"},
      {"cpu out of the default 1x1", V + "group a cpus=1\n  run 1ms\n", "CPU 1 is out of range", 2, 14},
      {"cpu range reversed", V + "topology 1x4\ngroup a cpus=0,3-1\n  run 1ms\n", "CPU range `3-1` is empty", 3, 16},
      {"cpu list hole", V + "topology 1x4\ngroup a cpus=0,,1\n  run 1ms\n", "expected a CPU number", 3, 16},
      {"negative cpu", V + "topology 1x4\ngroup a cpus=-1\n  run 1ms\n", "CPU -1 is out of range", 3, 14},
      {"empty program", V + "group a\ngroup b\n  run 1ms\n", "group `a` has an empty program", 2, 7},
      {"empty program at the end", V + G + "group last\n", "group `last` has an empty program", 4, 7},
      {"no time spent", V + "group a\n  wait\n  run 0\n  sleep 0..5us\n  yield\n",
       "group `a` never spends time: give it a `run` or `sleep` of at least 1ns", 2, 7},
  };
  for (const Malformed& m : cases) check(m);
}

TEST_CASE("lab.workload: malformed program statements", "[lab][workload]") {
  const std::string A = V + "group a\n";  // statements below start at line 3
  const Malformed cases[] = {
      {"statement before any group", V + "run 1ms\n", "`run` before any `group`", 2, 1},
      {"typo of a statement", A + "  rnu 1ms\n", "unknown statement `rnu`", 3, 3, "did you mean `run`?"},
      {"run without a duration", A + "  run\n", "expected a duration", 3, 7},
      {"run trailing word", A + "  run 1ms now\n", "unexpected `now`", 3, 11},
      {"run reversed range", A + "  run 30us..10us\n", "range `30us..10us` is empty", 3, 7},
      {"run bad high end", A + "  run 10us..x\n", "expected a duration such as 700000, 1.5ms or 4s, found `x`", 3, 13},
      {"run empty low end", A + "  run ..1ms\n", "found ``", 3, 7},
      {"sleep bad io", A + "  sleep 1ms io=acct\n", "expected `io` or `io=noacct`, found `io=acct`", 3, 13},
      {"sleep io twice", A + "  sleep 1ms io io\n", "unexpected `io`", 3, 16},
      {"wait with a duration", A + "  wait 1ms\n", "expected `io` or `io=noacct`, found `1ms`", 3, 8},
      {"wake without a group", A + "  run 1ms\n  wake\n", "expected a group name", 4, 8},
      {"wake unknown group", A + "  run 1ms\n  wake serer\ngroup server\n  run 1ms\n", "unknown group `serer`", 4, 8,
       "did you mean `server`?"},
      {"wake bad whom", A + "  run 1ms\n  wake a some\n", "expected `all` or `one`, found `some`", 4, 10},
      {"wake trailing word", A + "  run 1ms\n  wake a all now\n", "unexpected `now`", 4, 14},
      {"yield trailing word", A + "  run 1ms\n  yield now\n", "unexpected `now`", 4, 9},
      {"renice out of range", A + "  run 1ms\n  renice 20\n", "nice 20 is out of range -20..19", 4, 10},
      {"renice missing", A + "  run 1ms\n  renice\n", "expected a nice value", 4, 10},
  };
  for (const Malformed& m : cases) check(m);
}

TEST_CASE("lab.workload: the rendered error names file, line and column", "[lab][workload]") {
  const trace::TraceError e = error_of(V + "grup a\n");
  CHECK(std::string(e.what()) == "m.lab:2:1: unknown statement `grup` (did you mean `group`?)");
}

}  // namespace
}  // namespace eevdf::lab
