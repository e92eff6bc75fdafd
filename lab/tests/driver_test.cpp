// The driver's tables on small workloads whose schedule is forced (one runnable task
// per CPU at any time), worked by hand from the programs; accounting identities on a
// contended CPU; determinism. Workloads are built as data, not parsed, so that these
// tests judge the driver alone.
#include <catch2/catch.hpp>

#include <sstream>

#include "lab/driver.h"
#include "lab/report.h"
#include "lab/timeline.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace eevdf::lab {
namespace {

constexpr std::uint64_t kUs = 1000, kMs = 1000 * kUs;

Op op(Op::Kind kind) {
  Op o;
  o.kind = kind;
  return o;
}
Op run_op(std::uint64_t lo, std::uint64_t hi) {
  Op o = op(Op::run);
  o.dist = {lo, hi};
  return o;
}
Op sleep_op(std::uint64_t ns, trace::Io io = trace::Io::none) {
  Op o = op(Op::sleep);
  o.dist = {ns, ns};
  o.io = io;
  return o;
}
Op wait_op() { return op(Op::wait); }
Op wake_op(int group, WakeWhom whom = WakeWhom::partner) {
  Op o = op(Op::wake);
  o.group = group;
  o.whom = whom;
  return o;
}
Group group(std::string name, std::vector<Op> program, int count = 1, std::vector<int> cpus = {}) {
  Group g;
  g.name = std::move(name);
  g.program = std::move(program);
  g.count = count;
  g.cpus = std::move(cpus);
  return g;
}

Workload one_cpu(std::uint64_t duration) {
  Workload w;
  w.name = "test";
  w.topology.sockets = 1;
  w.topology.cores_per_socket = 1;
  w.duration_ns = duration;
  return w;
}

RunResult run(const Workload& w, std::uint64_t seed = 1, std::ostream* save = nullptr) {
  RunOptions o;
  o.seed = seed;
  o.save = save;
  return run_workload(w, TargetSpec{}, o);
}

// One task alone: 300us on the CPU, 700us asleep, for 10ms. Forked at 0, then woken
// at 1, 2, ..., 9 ms (the wakeup at 10 ms is the end): 10 switches, 3 ms of runtime,
// no delay. Events: 1 fork, 10 sleeps, 9 wakes, 9 ticks (1..9 ms).
TEST_CASE("lab.driver: a task alone, run 300us sleep 700us, worked by hand") {
  for (const trace::Io io : {trace::Io::io, trace::Io::noacct}) {
    Workload w = one_cpu(10 * kMs);
    w.groups.push_back(group("solo", {run_op(300 * kUs, 300 * kUs), sleep_op(700 * kUs, io)}));
    const RunResult r = run(w);
    REQUIRE(r.tasks.size() == 1);
    const TaskStats& s = r.tasks[0];
    CHECK(r.events == 29);
    CHECK(s.runtime_ns == 3 * kMs);
    CHECK(s.switches == 10);
    CHECK(s.delay_sum_ns == 0);
    CHECK(s.wakeup_latencies_ns == std::vector<std::uint64_t>(9, 0));
    CHECK(s.preempt_wakeup + s.preempt_tick + s.preempt_other == 0);
    // In an io sleep 10 times for 700us (the last one until the end): 7 ms, counted in
    // nr_iowait_acct only when the sleep is accounted.
    CHECK(r.iowait_ns == 7 * kMs);
    CHECK(r.iowait_acct_ns == (io == trace::Io::io ? 7 * kMs : 0));
    CHECK(r.violation_counts.empty());
    // The properties ran: no_overflow is judged on the one CPU after every event.
    CHECK(r.evaluated.at("no_overflow") == r.events);
  }
}

// A client on CPU 0 and a server on CPU 1 exchange messages: a cycle of 30us, the
// client's 10us then the server's 20us, each alone on its CPU (every wakeup runs at
// once). In 3 ms, 100 cycles: the client is switched in 100 times (fork, 99 wakes),
// the server 101 times (fork, 100 wakes); 1 ms and 2 ms of runtime. Events: 2 forks,
// 100 client sleeps, 100 server wakes, 100 server sleeps (at 0, then after each of its
// 99 answers), 99 client wakes, 2 ticks: 403.
TEST_CASE("lab.driver: a pair on two CPUs, exact switch counts worked by hand") {
  Workload w = one_cpu(3 * kMs);
  w.topology.cores_per_socket = 2;
  w.groups.push_back(group("client", {run_op(10 * kUs, 10 * kUs), wake_op(1), wait_op()}, 1, {0}));
  w.groups.push_back(group("server", {wait_op(), run_op(20 * kUs, 20 * kUs), wake_op(0)}, 1, {1}));
  const RunResult r = run(w);
  REQUIRE(r.tasks.size() == 2);
  CHECK(r.tasks[0].switches == 100);
  CHECK(r.tasks[1].switches == 101);
  CHECK(r.tasks[0].runtime_ns == 1 * kMs);
  CHECK(r.tasks[1].runtime_ns == 2 * kMs);
  CHECK(r.tasks[0].wakeup_latencies_ns.size() == 99);
  CHECK(r.tasks[1].wakeup_latencies_ns.size() == 100);
  CHECK(r.tasks[0].delay_max_ns == 0);
  CHECK(r.tasks[1].delay_max_ns == 0);
  CHECK(r.events == 403);
}

// Two tasks on one CPU that never want it at once: a runs [0, 0.3) of every ms, b
// (forked at 0.4 ms, while a sleeps) runs [0.4, 0.6) of every ms. Each is switched in
// 10 times in 10 ms (a: fork and 9 wakes; b: fork and 9 wakes), with 3 ms and 2 ms of
// runtime and no delay. Events: per task a fork, 10 sleeps and 9 wakes, and 9 ticks: 49.
TEST_CASE("lab.driver: two tasks on one CPU taking turns, exact switch counts worked by hand") {
  Workload w = one_cpu(10 * kMs);
  w.groups.push_back(group("a", {run_op(300 * kUs, 300 * kUs), sleep_op(700 * kUs)}));
  Group b = group("b", {run_op(200 * kUs, 200 * kUs), sleep_op(800 * kUs)});
  b.start_ns = 400 * kUs;
  w.groups.push_back(b);
  const RunResult r = run(w);
  REQUIRE(r.tasks.size() == 2);
  CHECK(r.tasks[0].switches == 10);
  CHECK(r.tasks[1].switches == 10);
  CHECK(r.tasks[0].runtime_ns == 3 * kMs);
  CHECK(r.tasks[1].runtime_ns == 2 * kMs);
  CHECK(r.tasks[0].delay_sum_ns + r.tasks[1].delay_sum_ns == 0);
  CHECK(r.events == 49);
}

// Two hogs share one CPU: whatever the scheduler decides, the CPU is never idle (the
// runtimes add up to the duration), and every switch-in but the first follows a
// preemption of the other hog (hogs never sleep).
TEST_CASE("lab.driver: two hogs on one CPU, accounting identities") {
  Workload w = one_cpu(50 * kMs);
  w.groups.push_back(group("hog", {run_op(1 * kMs, 3 * kMs)}, 2));
  const RunResult r = run(w);
  REQUIRE(r.tasks.size() == 2);
  const TaskStats &a = r.tasks[0], &b = r.tasks[1];
  CHECK(a.runtime_ns + b.runtime_ns == 50 * kMs);
  const std::uint64_t preemptions =
      a.preempt_wakeup + a.preempt_tick + a.preempt_other + b.preempt_wakeup + b.preempt_tick + b.preempt_other;
  CHECK(a.switches + b.switches == 1 + preemptions);
  CHECK(a.switches > 5);  // they share: the tick preempts a hog past its slice
  CHECK(b.switches > 5);
  CHECK(a.delays == a.switches);
  CHECK(r.violation_counts.empty());
}

TEST_CASE("lab.driver: the same seed gives the same trace, another seed another") {
  Workload w = one_cpu(20 * kMs);
  w.groups.push_back(group("a", {run_op(10 * kUs, 900 * kUs), sleep_op(50 * kUs)}, 2));
  w.groups.push_back(group("b", {run_op(100 * kUs, 2 * kMs), wake_op(0, WakeWhom::one), wait_op()}));
  std::ostringstream t1, t2, t3;
  run(w, 7, &t1);
  run(w, 7, &t2);
  run(w, 8, &t3);
  CHECK(t1.str() == t2.str());
  CHECK(t1.str() != t3.str());
}

// Same seed, same bytes: the tables and the SVG too, not only the trace.
TEST_CASE("lab.driver: the same seed gives the same tables and SVG") {
  Workload w = one_cpu(20 * kMs);
  w.groups.push_back(group("a", {run_op(10 * kUs, 900 * kUs), sleep_op(50 * kUs)}, 2));
  RunOptions o;
  o.seed = 3;
  o.window = {{0, 20 * kMs}};
  o.lag_of = {"a.1"};
  const auto report = [&] {
    Side side{"test", {run_workload(w, TargetSpec{}, o)}};
    return format_report({side}) + render_svg(*side.runs[0].timeline);
  };
  const std::string first = report();
  CHECK(first == report());
  CHECK(first.find("<svg") != std::string::npos);
}

// The saved trace is a trace: it parses, and its events are the run's.
TEST_CASE("lab.driver: the saved trace reads back with one event per run event") {
  Workload w = one_cpu(5 * kMs);
  w.groups.push_back(group("solo", {run_op(300 * kUs, 300 * kUs), sleep_op(700 * kUs)}));
  std::ostringstream saved;
  const RunResult r = run(w, 1, &saved);
  const trace::Trace t = trace::parse_trace_text(saved.str(), "saved", replay::vocabulary());
  CHECK(t.body.size() == r.events);
}

TEST_CASE("lab.report: nearest-rank percentiles") {
  const std::vector<std::uint64_t> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(percentile(v, 500) == 5);   // ceil(0.5 * 10) = 5th
  CHECK(percentile(v, 900) == 9);
  CHECK(percentile(v, 990) == 10);  // ceil(9.9) = 10th
  CHECK(percentile(v, 999) == 10);
  CHECK(percentile({}, 500) == 0);
  CHECK(percentile({42}, 999) == 42);
}

}  // namespace
}  // namespace eevdf::lab
