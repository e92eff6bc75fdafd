// Tests trace/writer.h: the canonical text of hand-built traces, statement by
// statement, against text written out by hand from docs/TRACE_FORMAT.md's syntax and the
// writer's rules (defaults unwritten, durations in their largest unit, `features` on
// one line, the trace-wide expects after the tasks). The round-trip property over
// random traces lives in roundtrip_test.cpp.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "trace/writer.h"

namespace eevdf::trace {
namespace {

Event make_event(std::uint64_t time_ns, Verb verb, int task) {
  Event e;
  e.time_ns = time_ns;
  e.verb = verb;
  e.task = task;
  return e;
}

Expect make_expect(Query q, int subject, std::int64_t value) {
  Expect x;
  x.query = q;
  x.subject = subject;
  x.value = value;
  return x;
}

TEST_CASE("format_event writes every verb in its canonical form", "[writer]") {
  Event fork = make_event(0, Verb::fork, 1);
  CHECK(format_event(fork) == "@0 fork 1");
  fork.cpu = 3;
  CHECK(format_event(fork) == "@0 fork 1 cpu=3");
  Event wake = make_event(1500, Verb::wake, 2);
  CHECK(format_event(wake) == "@1.5us wake 2");
  Event sleep = make_event(5'000'000, Verb::sleep, 2);
  sleep.io = Io::io;
  CHECK(format_event(sleep) == "@5ms sleep 2 io");
  Event sleep_cpu = make_event(5'000'000, Verb::sleep, 0);
  sleep_cpu.cpu = 1;
  sleep_cpu.io = Io::noacct;
  CHECK(format_event(sleep_cpu) == "@5ms sleep cpu=1 io=noacct");
  Event tick = make_event(4'000'000'000, Verb::tick, 0);
  tick.cpu = 0;
  CHECK(format_event(tick) == "@4s tick 0");
  Event tick_all = make_event(4'000'000'001, Verb::tick, 0);
  tick_all.all_cpus = true;
  CHECK(format_event(tick_all) == "@4.000000001s tick all");
  Event migrate = make_event(999, Verb::migrate, 9);
  migrate.cpu = 0;
  CHECK(format_event(migrate) == "@999ns migrate 9 cpu=0");
  Event renice = make_event(0, Verb::renice, 4);
  renice.nice = -20;
  CHECK(format_event(renice) == "@0 renice 4 -20");
  Event setslice = make_event(0, Verb::setslice, 4);
  CHECK(format_event(setslice) == "@0 setslice 4 0");
  setslice.slice_ns = 700'000;
  CHECK(format_event(setslice) == "@0 setslice 4 700us");
  Event yield_cpu = make_event(0, Verb::yield, 0);
  yield_cpu.cpu = 2;
  CHECK(format_event(yield_cpu) == "@0 yield cpu=2");
  CHECK(format_event(make_event(0, Verb::exit, 5)) == "@0 exit 5");
}

TEST_CASE("format_expect writes every query in its canonical form", "[writer]") {
  CHECK(format_expect(make_expect(Query::curr, 0, 0)) == "expect curr 0 idle");
  CHECK(format_expect(make_expect(Query::curr, 1, 7)) == "expect curr 1 7");
  CHECK(format_expect(make_expect(Query::state, 7, static_cast<int>(TaskState::exited))) == "expect state 7 exited");
  CHECK(format_expect(make_expect(Query::cpu, 7, 3)) == "expect cpu 7 3");
  CHECK(format_expect(make_expect(Query::eligible, 7, 1)) == "expect eligible 7 yes");
  CHECK(format_expect(make_expect(Query::protected_, 7, 0)) == "expect protected 7 no");
  CHECK(format_expect(make_expect(Query::lag, 7, -120)) == "expect lag 7 -120");
  Expect ideal = make_expect(Query::ideal_lag, 7, 0);
  ideal.rational = {"-3", "4"};
  CHECK(format_expect(ideal) == "expect ideal.lag 7 -3/4");
  Expect deadline = make_expect(Query::deadline_rel, 7, 0);
  deadline.rational = {"350000", "1"};  // an integer is written without /1
  CHECK(format_expect(deadline) == "expect deadline_rel 7 350000");
  CHECK(format_expect(make_expect(Query::slice, 7, 2'800'000)) == "expect slice 7 2.8ms");
  CHECK(format_expect(make_expect(Query::weight, 7, 1024)) == "expect weight 7 1024");
  CHECK(format_expect(make_expect(Query::nr_running, 1, 2)) == "expect nr_running 1 2");
  CHECK(format_expect(make_expect(Query::nr_runnable, 1, 1)) == "expect nr_runnable 1 1");
  CHECK(format_expect(make_expect(Query::nr_iowait, 0, 1)) == "expect nr_iowait 0 1");
  CHECK(format_expect(make_expect(Query::nr_iowait_acct, 0, 0)) == "expect nr_iowait_acct 0 0");
  CHECK(format_expect(make_expect(Query::sum_exec, 7, 0)) == "expect sum_exec 7 0");
  Expect measure;
  measure.query = Query::measure;
  measure.measure = "iowait_visibility";
  measure.op = CompareOp::ge;
  measure.rational = {"25", "10"};
  CHECK(format_expect(measure) == "expect measure iowait_visibility >= 25/10");
}

TEST_CASE("to_text writes the header in the format's order, defaults left out", "[writer]") {
  Trace t;
  t.header.preamble = {" why this trace exists"};
  t.header.kernel = "6.18";
  t.header.arith = Arith::ideal;
  TopologySpec topology;
  topology.long_form = true;
  topology.sockets = 1;
  topology.llcs = 2;
  topology.cores = 3;
  topology.smt = 2;
  t.header.topology = topology;
  t.header.hz = 250;
  t.header.base_slice_ns = 3'000'000;
  t.header.features = {{"NEXT_BUDDY", true}, {"DELAY_DEQUEUE", false}};
  t.header.injections = {"stale_min_slice"};
  TaskDecl task;
  task.id = 1;
  task.nice = 19;
  task.slice_ns = 100'000;
  task.name = "hog";
  task.cpu = 11;
  t.header.tasks = {task};
  t.header.expect_violations = {"lag_bound"};
  t.header.initial_expects = {make_expect(Query::state, 1, 0)};
  t.body = {make_event(0, Verb::fork, 1), make_expect(Query::curr, 0, 1)};
  CHECK(to_text(t) ==
        "# why this trace exists\n"
        "eevdf-trace 1\n"
        "kernel 6.18\n"
        "arith ideal\n"
        "topology sockets=1 llcs=2 cores=3 smt=2\n"
        "hz 250\n"
        "base_slice 3ms\n"
        "features NEXT_BUDDY NO_DELAY_DEQUEUE\n"
        "inject stale_min_slice\n"
        "task 1 nice=19 slice=100us name=hog cpu=11\n"
        "expect violation lag_bound\n"
        "expect state 1 new\n"
        "@0 fork 1\n"
        "expect curr 0 1\n");
  // A header with nothing but defaults is the version line alone.
  CHECK(to_text(Trace{}) == "eevdf-trace 1\n");
  Trace clean;
  clean.header.expect_clean = true;
  CHECK(to_text(clean) == "eevdf-trace 1\nexpect clean\n");
}

}  // namespace
}  // namespace eevdf::trace
