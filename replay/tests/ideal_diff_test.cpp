// ideal_tracks_kernel (replay/ideal_diff.h, docs/IDEAL_TRACKS_KERNEL.md): the
// rounding bound of one __calc_delta against the kernel's own function; a rounding
// tie worked by hand (the two arithmetics decide update_deadline differently within
// the bound: explained); a kernel state corrupted beyond the bound, once so that a
// decision differs and once so that only the lag drifts (both unexplained: the
// check fails); and generated traces, where nothing may be unexplained and the
// ideal side stays the plain ideal arithmetic's replay.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <string>
#include <vector>

#include "generator/generator.h"
#include "model/calc_delta.h"
#include "model/weights.h"
#include "replay/apply_event.h"
#include "replay/ideal_diff.h"
#include "replay/model_config.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

namespace {

using eevdf::model::IdealArith;
using eevdf::model::KernelArith;
using eevdf::model::profile_6_12;
using eevdf::model::profile_6_18;
using eevdf::replay::IdealDiff;
using eevdf::replay::Q;

struct Parsed {
  eevdf::trace::Trace trace;
  std::vector<eevdf::trace::Event> events;
};

Parsed parse(const std::string& text) {
  Parsed p{eevdf::trace::parse_trace_text(text, "<test>", eevdf::replay::vocabulary()), {}};
  for (const auto& s : p.trace.body)
    if (const auto* e = std::get_if<eevdf::trace::Event>(&s)) p.events.push_back(*e);
  return p;
}

template <class P>
struct Run {
  explicit Run(const Parsed& p)
      : diff(eevdf::replay::make_config(p.trace.header, {}, "<test>"), eevdf::replay::make_task_specs(p.trace.header)),
        events(p.events) {}
  // Applies events [next, end) and returns how many divergences they added.
  std::size_t until(std::size_t end) {
    const std::size_t before = diff.found().size();
    for (; next < end; ++next) REQUIRE(diff.apply(events[next]).empty());
    return diff.found().size() - before;
  }
  // The kernel model's task `index`, writable: the corruption of the tests below.
  eevdf::model::sched_entity<KernelArith>& kernel_se(int index) {
    const auto& task = diff.kernel().tasks().at(static_cast<std::size_t>(index));
    return const_cast<eevdf::model::task_struct<KernelArith>&>(task).se;
  }
  IdealDiff<P> diff;
  std::vector<eevdf::trace::Event> events;
  std::size_t next = 0;
};

}  // namespace

TEST_CASE("the bound on one __calc_delta covers the kernel's rounding", "[ideal]") {
  eevdf::model::Config config;
  eevdf::replay::RoundingBound bound(config, 1, 1, true);
  // Nice 1 by hand (§1.3): floor(175000 * 2681735680 / 2^31) = 218536 against
  // 175000 * 1024 / 820 = 218536.585..., off by 0.585; the bound is 1 + 175000 rho.
  const auto nice1 = eevdf::model::load_weight_for_nice(1);
  REQUIRE(eevdf::model::calc_delta_fair(175000, nice1) == 218536);
  const Q rho = Q(2681735680) / Q(2147483648ull) - Q(1024) / Q(820);  // 1.163e-9
  const Q e = eevdf::replay::bound_ns(bound.calc_error(175000, nice1));  // rounded up to 2^-10
  CHECK(e >= 1 + 175000 * rho);
  CHECK(e < 1 + 175000 * rho + Q(1, 1024));
  CHECK(bound.calc_error(175000, eevdf::model::load_weight_for_nice(0)) == 0);  // delta itself
  constexpr std::uint64_t deltas[] = {1, 7, 999, 100'000, 700'000, 2'800'000, 123'456'789, 10'000'000'000'000};
  for (int nice = -20; nice <= 19; ++nice) {
    const auto lw = eevdf::model::load_weight_for_nice(nice);
    for (std::uint64_t delta : deltas) {
      const Q kernel(eevdf::model::calc_delta_fair(delta, lw));
      const Q exact = Q(delta) * 1024 / Q(eevdf::model::sched_prio_to_weight[static_cast<std::size_t>(nice + 20)]);
      const Q off = kernel > exact ? Q(kernel - exact) : Q(exact - kernel);
      INFO("nice " << nice << ", delta " << delta);
      CHECK(off <= eevdf::replay::bound_ns(bound.calc_error(delta, lw)));
    }
  }
}

// The corpus scenario ideal-deadline-tie.trace, worked by hand there.
TEST_CASE("a rounding tie in update_deadline is an explained divergence", "[ideal]") {
  Run<profile_6_18> run(parse("eevdf-trace 1\ntopology 1x1\nhz 1000\ntask 1 nice=1\n"
                              "@0 fork 1\n@175us tick 0\n@350us tick 0\n"));
  CHECK(run.until(2) == 0);
  REQUIRE(run.until(3) == 1);
  const auto& d = run.diff.found().back();
  CHECK(d.explained);
  CHECK(d.line == 7);
  CHECK(d.decision.find("update_deadline") != std::string::npos);
  CHECK(d.values == "kernel no, ideal yes, ideal margin 0, bound 3075/1024");
  CHECK(run.diff.stats().unexplained == 0);
  CHECK(run.diff.tainted_cpu(0));  // the states now differ by a request there
  // Kernel: vruntime 437072 past the start, deadline 437073; ideal: renewed.
  const auto& k = run.diff.kernel().tasks()[0].se;
  CHECK(k.deadline - k.vruntime == 1);
}

TEST_CASE("a kernel vruntime corrupted beyond the bound makes a decision an unexplained divergence", "[ideal]") {
  Run<profile_6_18> run(parse("eevdf-trace 1\ntopology 1x1\nhz 1000\ntask 1\ntask 2\n"
                              "@0 fork 1\n@0 fork 2\n@100us tick 0\n@200us tick 0\n"));
  CHECK(run.until(3) == 0);
  run.kernel_se(0).vruntime += 1'000'000;  // as if update_curr had rounded by 1 ms
  REQUIRE(run.until(4) == 1);
  const auto& d = run.diff.found().back();
  CHECK_FALSE(d.explained);
  CHECK(d.decision.find("update_deadline") != std::string::npos);
  // Ideal: vruntime v0 + 200000 against the half-slice deadline v0 + 350000.
  CHECK(d.values.find("kernel yes, ideal no, ideal margin -150000") == 0);
  CHECK(run.diff.stats().unexplained == 1);
}

TEST_CASE("a stored lag corrupted beyond the bound is an unexplained drift", "[ideal]") {
  Run<profile_6_18> run(parse("eevdf-trace 1\ntopology 1x1\nhz 1000\nfeatures NO_DELAY_DEQUEUE\ntask 1\ntask 2\n"
                              "@0 fork 1\n@0 fork 2\n@100us tick 0\n@200us sleep 1\n@300us wake 1\n"));
  CHECK(run.until(4) == 0);
  // Task 1 slept with vlag = V - v = -100000 (nice 0: no rounding but the floors);
  // 50 ns more in the kernel only, far beyond the few ns the bound allows.
  CHECK(run.diff.ideal().tasks()[0].se.vlag == -100000);
  run.kernel_se(0).vlag += 50;
  REQUIRE(run.until(5) == 1);
  const auto& d = run.diff.found().back();
  CHECK_FALSE(d.explained);
  CHECK(d.decision == "drift of lag");
  CHECK(d.values.find("|difference| 50 > bound") != std::string::npos);
}

namespace {

eevdf::generator::Options small_traces() {
  eevdf::generator::Options o;
  o.topology.sockets = 1;
  o.topology.cores_per_socket = *rc::gen::element(1, 2, 4);
  o.busy_cpus_max = o.topology.cores_per_socket;
  o.tasks_min = 2;
  o.tasks_max = *rc::gen::inRange(2, 9);
  o.events_min = 20;
  o.events_max = 150;
  o.random_features = true;
  return o;
}

// Nothing unexplained; and where the ideal model took every event, its state is the
// plain ideal arithmetic's (the observer changes nothing).
template <class P>
void generated_trace_tracks(const char* profile) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  eevdf::generator::Options o = small_traces();
  o.profile = profile;
  const eevdf::trace::Trace t = eevdf::generator::generate_trace(seed, o);
  const auto config = eevdf::replay::make_config(t.header, {}, "<generated>");
  const auto specs = eevdf::replay::make_task_specs(t.header);
  IdealDiff<P> diff(config, specs);
  eevdf::model::Machine<IdealArith, P> ideal(config, specs);
  for (const auto& s : t.body)
    if (const auto* e = std::get_if<eevdf::trace::Event>(&s)) {
      RC_ASSERT(diff.apply(*e).empty());
      (void)eevdf::replay::apply_event(ideal, *e);
    }
  for (const auto& d : diff.found())
    if (!d.explained) {
      RC_LOG() << d.message() << "\n" << eevdf::trace::to_text(t);
      RC_FAIL("an unexplained divergence on a generated trace");
    }
  if (diff.stats().skipped_events != 0) return;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    RC_ASSERT(diff.ideal().tasks()[i].se.vruntime == ideal.tasks()[i].se.vruntime);
    RC_ASSERT(diff.ideal().tasks()[i].se.deadline == ideal.tasks()[i].se.deadline);
  }
}

}  // namespace

TEST_CASE("generated traces: every divergence of the two arithmetics is explained (6.18)", "[ideal][generated]") {
  eevdf::trace::testing::check("ideal-tracks-kernel-6.18", 40, [] { generated_trace_tracks<profile_6_18>("6.18"); });
}

TEST_CASE("generated traces: every divergence of the two arithmetics is explained (6.12)", "[ideal][generated]") {
  eevdf::trace::testing::check("ideal-tracks-kernel-6.12", 20, [] { generated_trace_tracks<profile_6_12>("6.12"); });
}
