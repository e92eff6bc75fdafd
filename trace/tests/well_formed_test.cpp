// Tests that well-formed traces parse to the values docs/TRACE_FORMAT.md gives them:
// docs/MODEL.md's worked example (inline, and the copy in corpus/scenarios/), both
// topology forms and their CPU counts, duration units, header defaults, `features`
// where a later word wins, header `expect` lines as initial expectations, comments,
// CRLF line ends, and the streaming TraceReader agreeing with the whole-trace helper.
// Expected values are written out by hand from the text of each trace.
#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>

#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/static_rules.h"

namespace eevdf::trace {
namespace {

Trace parse(const std::string& text) { return parse_trace_text(text, "w.trace", replay::vocabulary()); }

const Event& event_at(const Trace& t, std::size_t i) {
  REQUIRE(i < t.body.size());
  REQUIRE(std::holds_alternative<Event>(t.body[i]));
  return std::get<Event>(t.body[i]);
}

const Expect& expect_at(const Trace& t, std::size_t i) {
  REQUIRE(i < t.body.size());
  REQUIRE(std::holds_alternative<Expect>(t.body[i]));
  return std::get<Expect>(t.body[i]);
}

// docs/TRACE_FORMAT.md, "Example", verbatim.
const std::string kExample =
    "eevdf-trace 1\n"
    "topology 1x2\n"
    "hz 250\n"
    "task 1 name=hog\n"
    "task 2 nice=5 name=io\n"
    "@0 fork 1 cpu=0\n"
    "@0 fork 2 cpu=0\n"
    "@4ms tick 0                # 1 is past its deadline and ineligible: 2 runs\n"
    "@5ms sleep 2 io            # 2 is eligible, so it blocks at once (not delayed)\n"
    "expect nr_iowait 0 1\n"
    "@8ms wake 2 cpu=1          # wakeup migration: the iowait count drops on CPU 0\n"
    "expect nr_iowait 0 0\n";

// The example's meaning, built by hand from docs/MODEL.md text.
Trace example_by_hand() {
  Trace t;
  t.header.topology = TopologySpec{};
  t.header.topology->sockets = 1;
  t.header.topology->cores_per_socket = 2;
  t.header.hz = 250;
  TaskDecl hog;
  hog.id = 1;
  hog.name = "hog";
  TaskDecl io;
  io.id = 2;
  io.nice = 5;
  io.name = "io";
  t.header.tasks = {hog, io};
  auto event = [](std::uint64_t time_ns, Verb verb, int task, std::optional<int> cpu, Io io_kind) {
    Event e;
    e.time_ns = time_ns;
    e.verb = verb;
    e.task = task;
    e.cpu = cpu;
    e.io = io_kind;
    return e;
  };
  auto nr_iowait = [](int cpu, std::int64_t n) {
    Expect x;
    x.query = Query::nr_iowait;
    x.subject = cpu;
    x.value = n;
    return x;
  };
  t.body = {event(0, Verb::fork, 1, 0, Io::none),       event(0, Verb::fork, 2, 0, Io::none),
            event(4'000'000, Verb::tick, 0, 0, Io::none), event(5'000'000, Verb::sleep, 2, std::nullopt, Io::io),
            nr_iowait(0, 1),                            event(8'000'000, Verb::wake, 2, 1, Io::none),
            nr_iowait(0, 0)};
  return t;
}

TEST_CASE("the docs/TRACE_FORMAT.md example parses to its meaning", "[well-formed]") {
  const Trace t = parse(kExample);
  CHECK(t == example_by_hand());
  CHECK_FALSE(t.header.kernel);
  CHECK_FALSE(t.header.arith);
  CHECK_FALSE(t.header.base_slice_ns);
  CHECK(t.header.topology->ncpus() == 2);
  // Lines and columns are kept for messages (Event::operator== ignores them).
  CHECK(t.header.tasks[1].line == 5);
  CHECK(event_at(t, 0).line == 6);
  CHECK(event_at(t, 0).column == 9);  // "@0 fork " is 8 bytes: the task at 9
  CHECK(event_at(t, 2).line == 8);
  CHECK(event_at(t, 2).column == 6);  // a tick names no task: the verb's column ("@4ms " is 5 bytes)
  CHECK(expect_at(t, 4).line == 10);
  CHECK(event_at(t, 5).line == 11);
  CHECK(expect_at(t, 6).line == 12);
  // The example obeys the static rules.
  StaticRules rules("w.trace");
  for (const BodyStatement& s : t.body)
    if (const Event* e = std::get_if<Event>(&s)) CHECK_NOTHROW(rules.check(*e));
}

TEST_CASE("the corpus copy of the example is the example", "[well-formed][corpus]") {
  const std::string path = std::string(EEVDF_SOURCE_DIR) + "/corpus/scenarios/trace_format_example.trace";
  std::ifstream in(path);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  CHECK(text.str() == kExample);
  CHECK(parse_trace_text(text.str(), path, replay::vocabulary()) == example_by_hand());
}

TEST_CASE("the streaming reader yields what the whole-trace parse holds", "[well-formed]") {
  std::istringstream in(kExample);
  TraceReader reader(in, "w.trace", replay::vocabulary());
  CHECK(reader.file() == "w.trace");
  CHECK(reader.header() == example_by_hand().header);
  std::vector<BodyStatement> body;
  while (auto s = reader.next()) body.push_back(*s);
  CHECK(body == example_by_hand().body);
  CHECK_FALSE(reader.next());  // stays at the end
}

TEST_CASE("a header alone takes the format's defaults", "[well-formed]") {
  const Trace t = parse("eevdf-trace 1\n");
  CHECK(t.body.empty());
  CHECK(t.header == Header{});
  CHECK(t.header.arith_or_default() == Arith::kernel);
  CHECK(t.header.hz_or_default() == 1000);
  CHECK(t.header.topology_or_default().ncpus() == 128);  // default 2x64
  CHECK_FALSE(t.header.has_trace_expectations());
  // The default topology has CPUs 0..127.
  CHECK_NOTHROW(parse("eevdf-trace 1\n@0 tick 127\n"));
  CHECK_THROWS_AS(parse("eevdf-trace 1\n@0 tick 128\n"), TraceError);
}

TEST_CASE("every header line in order", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\n"
      "kernel 6.18\n"
      "arith both\n"
      "topology 2x3\n"
      "hz 100\n"
      "base_slice 3ms\n"
      "features NO_DELAY_DEQUEUE\n"
      "inject stale_min_slice\n"
      "inject iowait_dec_new_rq\n"
      "task 7 nice=-20 slice=0.1ms name=a.b-c_9 cpu=5\n"
      "expect violation lag_bound\n"
      "expect violation iowait_visibility\n"
      "expect finding lag-bound-yield\n");
  const Header& h = t.header;
  CHECK(h.kernel == "6.18");
  CHECK(h.arith == Arith::both);
  CHECK(h.topology_or_default().ncpus() == 6);
  CHECK(h.hz == 100);
  CHECK(h.base_slice_ns == 3'000'000);
  CHECK(h.features == std::vector<std::pair<std::string, bool>>{{"DELAY_DEQUEUE", false}});
  CHECK(h.injections == std::vector<std::string>{"stale_min_slice", "iowait_dec_new_rq"});
  REQUIRE(h.tasks.size() == 1);
  CHECK(h.tasks[0].id == 7);
  CHECK(h.tasks[0].nice == -20);
  CHECK(h.tasks[0].slice_ns == 100'000);
  CHECK(h.tasks[0].name == "a.b-c_9");
  CHECK(h.tasks[0].cpu == 5);
  CHECK(h.find_task(7) == &h.tasks[0]);
  CHECK(h.find_task(1) == nullptr);
  CHECK(h.expect_findings == std::vector<std::string>{"lag-bound-yield"});
  CHECK(h.expectation_lines.at("violation lag_bound") == 11);
  CHECK(h.expectation_lines.at("finding lag-bound-yield") == 13);
  CHECK(h.expect_violations == std::vector<std::string>{"lag_bound", "iowait_visibility"});
  CHECK_FALSE(h.expect_clean);
  CHECK(h.has_trace_expectations());
}

TEST_CASE("the long topology form", "[well-formed]") {
  const Trace a = parse("eevdf-trace 1\ntopology sockets=2 llcs=8 cores=8 smt=1\n");
  REQUIRE(a.header.topology);
  CHECK(a.header.topology->long_form);
  CHECK(a.header.topology->sockets == 2);
  CHECK(a.header.topology->llcs == 8);
  CHECK(a.header.topology->cores == 8);
  CHECK(a.header.topology->smt == 1);
  CHECK(a.header.topology->ncpus() == 128);  // 2 * 8 * 8 * 1
  // Keys in any order; smt= defaults to 1: 2 sockets * 3 LLCs * 4 cores = 24 CPUs.
  const Trace b = parse("eevdf-trace 1\ntopology cores=4 llcs=3 sockets=2\n@0 tick 23\n");
  CHECK(b.header.topology->smt == 1);
  CHECK(b.header.topology->ncpus() == 24);
  CHECK_THROWS_AS(parse("eevdf-trace 1\ntopology cores=4 llcs=3 sockets=2\n@0 tick 24\n"), TraceError);
  // With SMT: 1 * 1 * 2 * 2 = 4 CPUs, 0..3.
  CHECK(parse("eevdf-trace 1\ntopology sockets=1 llcs=1 cores=2 smt=2\n@0 tick 3\n").header.topology->ncpus() == 4);
  // The largest accepted: 4096 CPUs.
  CHECK(parse("eevdf-trace 1\ntopology 64x64\n").header.topology->ncpus() == 4096);
  CHECK(parse("eevdf-trace 1\ntopology sockets=4 llcs=4 cores=128 smt=2\n").header.topology->ncpus() == 4096);
}

TEST_CASE("durations in every unit", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\n"
      "base_slice 1.5ms\n"
      "task 1 slice=250us\n"
      "task 2 slice=700000\n"
      "@250us fork 1\n"
      "@1.5ms fork 2\n"
      "@4s setslice 1 2.5ms\n"
      "@4000000001 setslice 2 0\n"
      "expect slice 1 0.1ms\n"
      "expect sum_exec 2 9223372036.854775807s\n");
  CHECK(t.header.base_slice_ns == 1'500'000);
  CHECK(t.header.tasks[0].slice_ns == 250'000);
  CHECK(t.header.tasks[1].slice_ns == 700'000);
  CHECK(event_at(t, 0).time_ns == 250'000);
  CHECK(event_at(t, 1).time_ns == 1'500'000);
  CHECK(event_at(t, 2).time_ns == 4'000'000'000);
  CHECK(event_at(t, 2).slice_ns == 2'500'000);
  CHECK(event_at(t, 3).time_ns == 4'000'000'001);
  CHECK(event_at(t, 3).slice_ns == 0);
  CHECK(expect_at(t, 4).value == 100'000);
  CHECK(expect_at(t, 5).value == std::numeric_limits<std::int64_t>::max());  // 2^63-1 ns
  // A sum_exec beyond s64 cannot be a query value (ns past 2^63-1).
  CHECK_THROWS_WITH(parse("eevdf-trace 1\ntask 2\n@0 fork 2\nexpect sum_exec 2 18446744073.709551615s\n"),
                    Catch::Matchers::Contains("duration too large for a query"));
}

TEST_CASE("features: a later word wins, first mention keeps its place", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\n"
      "features NO_DELAY_DEQUEUE NEXT_BUDDY\n"
      "features DELAY_DEQUEUE NO_NEXT_BUDDY PICK_BUDDY\n"
      "features NO_PICK_BUDDY RUN_TO_PARITY_WAKEUP NO_PICK_BUDDY\n");
  const std::vector<std::pair<std::string, bool>> expected{
      {"DELAY_DEQUEUE", true}, {"NEXT_BUDDY", false}, {"PICK_BUDDY", false}, {"RUN_TO_PARITY_WAKEUP", true}};
  CHECK(t.header.features == expected);
}

TEST_CASE("expect lines in the header are initial expectations", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\n"
      "topology 1x2\n"
      "task 1\n"
      "expect clean\n"
      "expect state 1 new\n"
      "expect curr 1 idle\n"
      "expect nr_running 0 0\n"
      "@0 fork 1\n"
      "expect curr 0 1\n");
  CHECK(t.header.expect_clean);
  REQUIRE(t.header.initial_expects.size() == 3);
  CHECK(t.header.initial_expects[0].query == Query::state);
  CHECK(t.header.initial_expects[0].subject == 1);
  CHECK(t.header.initial_expects[0].value == static_cast<int>(TaskState::new_));
  CHECK(t.header.initial_expects[0].line == 5);
  CHECK(t.header.initial_expects[1].query == Query::curr);
  CHECK(t.header.initial_expects[1].subject == 1);
  CHECK(t.header.initial_expects[1].value == 0);  // idle
  CHECK(t.header.initial_expects[2].query == Query::nr_running);
  REQUIRE(t.body.size() == 2);
  CHECK(expect_at(t, 1).query == Query::curr);
  CHECK(expect_at(t, 1).value == 1);
}

TEST_CASE("queries read their values", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\ntask 3\n@0 fork 3\n"
      "expect state 3 delayed\n"          // 1
      "expect cpu 3 127\n"                // 2
      "expect eligible 3 no\n"            // 3
      "expect protected 3 yes\n"          // 4
      "expect lag 3 -9223372036854775808\n"  // 5
      "expect ideal.lag 3 -3/4\n"         // 6
      "expect deadline_rel 3 123456789012345678901234567890\n"  // 7
      "expect weight 3 1024\n"            // 8
      "expect nr_iowait_acct 5 2\n"       // 9
      "expect measure iowait_visibility <= 1.5ms\n"  // 10
      "expect measure lag_bound > -3/4\n"            // 11
      "expect measure lag_bound_steady == 2.5\n");   // 12
  CHECK(expect_at(t, 1).value == static_cast<int>(TaskState::delayed));
  CHECK(expect_at(t, 2).value == 127);
  CHECK(expect_at(t, 3).value == 0);
  CHECK(expect_at(t, 4).value == 1);
  CHECK(expect_at(t, 5).value == std::numeric_limits<std::int64_t>::min());
  CHECK(expect_at(t, 6).rational == RationalText{"-3", "4"});
  CHECK(expect_at(t, 7).rational == RationalText{"123456789012345678901234567890", "1"});
  CHECK(expect_at(t, 8).value == 1024);
  CHECK(expect_at(t, 9).subject == 5);
  CHECK(expect_at(t, 9).value == 2);
  CHECK(expect_at(t, 10).measure == "iowait_visibility");
  CHECK(expect_at(t, 10).op == CompareOp::le);
  CHECK(expect_at(t, 10).rational == RationalText{"1500000", "1"});  // a duration, in ns
  CHECK(expect_at(t, 11).op == CompareOp::gt);
  CHECK(expect_at(t, 11).rational == RationalText{"-3", "4"});
  CHECK(expect_at(t, 12).op == CompareOp::eq);
  CHECK(expect_at(t, 12).rational == RationalText{"25", "10"});  // 2.5 = 25/10, not reduced
}

TEST_CASE("event forms: task or cpu=, io kinds, tick all", "[well-formed]") {
  const Trace t = parse(
      "eevdf-trace 1\ntopology 1x2\ntask 1 cpu=1\n"
      "@0 fork 1\n"               // 0: no cpu= (the task's declared cpu= applies later)
      "@1 sleep 1 io=noacct\n"    // 1
      "@2 wake 1\n"               // 2
      "@3 sleep cpu=1\n"          // 3
      "@3 tick all\n"             // 4
      "@4 yield cpu=0\n"          // 5
      "@5 renice 1 -20\n"         // 6
      "@6 exit cpu=1\n");         // 7
  CHECK_FALSE(event_at(t, 0).cpu);
  CHECK(event_at(t, 1).io == Io::noacct);
  CHECK(event_at(t, 1).task == 1);
  CHECK(event_at(t, 3).task == 0);
  CHECK(event_at(t, 3).cpu == 1);
  CHECK(event_at(t, 3).io == Io::none);
  CHECK(event_at(t, 4).all_cpus);
  CHECK_FALSE(event_at(t, 4).cpu);
  CHECK(event_at(t, 5).verb == Verb::yield);
  CHECK(event_at(t, 5).cpu == 0);
  CHECK(event_at(t, 6).nice == -20);
  CHECK(event_at(t, 7).verb == Verb::exit);
  CHECK(event_at(t, 7).cpu == 1);
}

TEST_CASE("comments, blank lines and CRLF line ends", "[well-formed]") {
  const Trace lf = parse("# first\n#second\n\neevdf-trace 1\n# inside\ntask 1\n\n@0 fork 1 # trailing\n");
  CHECK(lf.header.preamble == std::vector<std::string>{" first", "second"});
  const Trace crlf = parse("# first\r\n#second\r\n\r\neevdf-trace 1\r\n# inside\r\ntask 1\r\n\r\n@0 fork 1\r\n");
  CHECK(crlf == lf);
  REQUIRE(crlf.body.size() == 1);
  CHECK(event_at(crlf, 0).line == 8);
  // Same time in file order is fine; blanks and tabs separate tokens alike.
  CHECK(parse("eevdf-trace 1\n@5 tick 0\n\t@5\ttick   1   \n").body.size() == 2);
}

}  // namespace
}  // namespace eevdf::trace
