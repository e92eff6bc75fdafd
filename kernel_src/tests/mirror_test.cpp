// The properties judged on the real code (replay/kernel_src_mirror.h): the mirror holds
// kernel-src's state as worked by hand, a property holds on a clean run and fails on a
// run whose real state was corrupted, its verdicts on generated traces are the
// reference's, and what it registers is what judging.h says kernel-src judges.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "generator/generator.h"
#include "model/mirror.h"
#include "model/profiles.h"
#include "properties/judging.h"
#include "properties/kernel_src_judged.h"
#include "properties/profile_forms.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/checked_run.h"
#include "replay/kernel_src_mirror.h"
#include "replay/model_config.h"
#include "runner/kernel_src_diff.h"

namespace {

using eevdf::model::KernelArith;
using eevdf::replay::KernelSrcMirror;

struct Recorder final : eevdf::properties::Sink {
  std::vector<eevdf::properties::Violation> violations;
  void violation(const eevdf::properties::Violation& v) override { violations.push_back(v); }
  void measure(std::string_view, const std::string&, const std::string&) override {}
};

eevdf::model::Config config() {
  eevdf::model::Config c;
  c.topology = *eevdf::model::Topology::short_form(1, 1).topology;
  c.sysctl_base_slice = 700'000;
  return c;
}
std::vector<eevdf::model::TaskSpec> specs() { return {{1, 0, 0, -1}, {2, 0, 0, -1}, {3, 0, 0, -1}}; }

eevdf::trace::Event event(int line, std::uint64_t t, eevdf::trace::Verb verb, int task) {
  eevdf::trace::Event e;
  e.line = line;
  e.time_ns = t;
  e.verb = verb;
  e.task = task;
  if (verb == eevdf::trace::Verb::tick) e.cpu = 0;
  return e;
}

// Three nice-0 tasks forked at t=0 on one CPU (base slice 0.7 ms): task 1 runs, 2 and
// 3 are placed at V = v0 with deadline v0 + 350 us (half a slice, PLACE_DEADLINE_INITIAL),
// 2 left of 3. A tick at 400 us charges task 1 400 us (its vruntime passes its
// deadline: renewed to v + 700 us, resched) and the pick takes the leftmost eligible
// entity: task 2.
struct Scenario {
  Scenario(const eevdf::properties::Selection& selection)
      : k(config(), specs()), mirror(config(), specs(), k, sink, selection) {}
  void apply(const eevdf::trace::Event& e) {
    mirror.before(e);
    REQUIRE(eevdf::replay::apply_event(k, e).empty());
    mirror.after(e);
  }
  void forks() {
    for (int id : {1, 2, 3}) apply(event(id, 0, eevdf::trace::Verb::fork, id));
  }
  const eevdf::model::sched_entity<KernelArith>& se(int id) const {
    return mirror.machine().tasks().at(static_cast<std::size_t>(id - 1)).se;
  }
  Recorder sink;
  eevdf::kernel_src::Machine k;
  KernelSrcMirror mirror;
};

std::uint64_t evaluated(const KernelSrcMirror& m, std::string_view name) {
  std::uint64_t n = 0;
  m.checker().for_each([&](const auto& p) {
    if (p.name() == name) n = p.evaluated();
  });
  return n;
}

}  // namespace

TEST_CASE("the mirror holds kernel-src's state, and the properties hold on a clean run", "[kernel_src][mirror]") {
  Scenario s({});
  s.forks();
  s.apply(event(4, 400'000, eevdf::trace::Verb::tick, 0));
  const auto& rq = s.mirror.machine().rqs().at(0);
  REQUIRE(rq.curr != nullptr);
  CHECK(rq.curr->id == 2);
  CHECK(rq.cfs.nr_queued == 3);
  CHECK(rq.cfs.timeline.size() == 2);  // tasks 1 and 3; curr is out of the tree
  CHECK(s.se(1).vruntime - s.se(2).vruntime == 400'000);
  CHECK(s.se(1).deadline - s.se(1).vruntime == 700'000);
  CHECK(s.se(2).deadline - s.se(2).vruntime == 350'000);
  CHECK(s.se(3).deadline == s.se(2).deadline);
  // 6.12 protection: the picked curr's deadline stashed in vlag (read as a time).
  CHECK(eevdf::properties::Forms<eevdf::model::profile_6_12>::is_protected(s.se(2)));
  CHECK_FALSE(eevdf::properties::Forms<eevdf::model::profile_6_12>::is_protected(s.se(1)));
  s.mirror.finish();
  CHECK(s.sink.violations.empty());
  // Judged at the forks' placements and picks and at the tick's pick.
  CHECK(evaluated(s.mirror, "pick_earliest_deadline") >= 1);
  CHECK(evaluated(s.mirror, "pick_eligible") >= 1);
  CHECK(evaluated(s.mirror, "placement_eligible") == 3);
  CHECK(evaluated(s.mirror, "delayed_never_runs") >= 2);
  CHECK(evaluated(s.mirror, "counters_consistent") == 4);
}

TEST_CASE("a property on the mirror reports what the real code's state does wrong", "[kernel_src][mirror]") {
  Scenario s({{"pick_earliest_deadline", "pick_eligible"}, {}});
  s.forks();
  // Task 2's deadline moved 1 ms later behind the tree's back: the rbtree keeps it
  // leftmost, so pick_eevdf() takes it though task 3 (eligible, deadline 1 ms
  // earlier) comes first by deadline.
  auto& task2 = const_cast<eevdf::kernel_src::c::task_struct&>(s.k.task(1));
  task2.se.deadline += 1'000'000;
  s.apply(event(4, 400'000, eevdf::trace::Verb::tick, 0));
  REQUIRE(s.mirror.machine().rqs().at(0).curr->id == 2);
  REQUIRE(s.sink.violations.size() == 1);
  const auto& v = s.sink.violations.front();
  CHECK(v.property == "pick_earliest_deadline");
  CHECK(v.line == 4);
  CHECK(v.task == 2);
  CHECK(v.values.find("task 3 has") != std::string::npos);
}

TEST_CASE("the mirror registers exactly the properties judging.h judges on kernel-src", "[kernel_src][mirror]") {
  Scenario s({});
  std::set<std::string> registered;
  s.mirror.checker().for_each([&](const auto& p) {
    if (eevdf::properties::find_property(p.name()) != nullptr) registered.emplace(p.name());
  });
  eevdf::properties::Judging alone;  // a tree without the reference in lockstep
  alone.profile = eevdf::model::profile_6_12::name;
  alone.kernel_src = true;
  for (const auto& info : eevdf::properties::kCatalogue) {
    if (info.exact_in == eevdf::properties::Exact::system) continue;
    const std::string name(info.name);
    const bool judged = eevdf::properties::unjudged(name, alone, eevdf::properties::Asker::replay).empty();
    // kernel_warn is the real code's own warnings (KernelSrcLockstep), not a mirror check.
    const bool on_mirror = registered.count(name) != 0 || name == "kernel_warn";
    INFO(name);
    if (eevdf::properties::runs_in(info, true) && eevdf::properties::applies_to(info, "6.12")) CHECK(judged == on_mirror);
  }
}

TEST_CASE("on generated 6.12 traces the mirror's verdicts are the reference's", "[kernel_src][mirror]") {
  // Random feature sets (buddies, delayed dequeue, ...) as `run` draws them; half the
  // traces unphysical (long tick-less stretches: overflows and their consequences).
  eevdf::generator::Options o;
  o.profile = "6.12";
  o.random_features = true;
  o = eevdf::runner::kernel_src_generator_options(o);
  // The properties both judge: not those of the real code's own state (kKernelSrcOnly).
  eevdf::properties::Selection on_mirror = eevdf::replay::kernel_src_selection({});
  for (const auto& only : eevdf::properties::kKernelSrcOnly)
    on_mirror.check.erase(std::find(on_mirror.check.begin(), on_mirror.check.end(), only.name));
  std::uint64_t judged = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    o.unphysical = seed > 20;
    eevdf::generator::Generator gen(seed, o);
    const auto cfg = eevdf::replay::make_config(gen.header(), eevdf::replay::Options{}, "<generated>");
    const auto tasks = eevdf::replay::make_task_specs(gen.header());
    Recorder ref_sink, mirror_sink;
    eevdf::replay::CheckedRun<KernelArith, eevdf::model::profile_6_12> ref(cfg, tasks, ref_sink, on_mirror);
    eevdf::kernel_src::Machine k(cfg, tasks);
    KernelSrcMirror mirror(cfg, tasks, k, mirror_sink, on_mirror);
    bool overflowed = false;
    while (const auto e = gen.next()) {
      REQUIRE(ref.apply(*e).empty());
      overflowed = overflowed || ref.overflowed();
      mirror.before(*e);
      REQUIRE(eevdf::replay::apply_event(k, *e).empty());
      if (!k.oops().empty()) break;  // the real code crashed (after an overflow): it stops
      mirror.after(*e);
    }
    // Past an s64 overflow the two need not agree (kernel_matches_reference's
    // consequence): only traces without one are compared.
    if (overflowed) continue;
    ref.finish();
    mirror.finish();
    INFO("seed " << seed);
    REQUIRE(ref_sink.violations.size() == mirror_sink.violations.size());
    for (std::size_t i = 0; i < ref_sink.violations.size(); ++i) {
      CHECK(ref_sink.violations[i].property == mirror_sink.violations[i].property);
      CHECK(ref_sink.violations[i].line == mirror_sink.violations[i].line);
      CHECK(ref_sink.violations[i].values == mirror_sink.violations[i].values);
    }
    // Judged at the same events.
    ref.checker().for_each([&](const auto& p) {
      if (eevdf::properties::find_property(p.name()) == nullptr) return;
      INFO(p.name());
      CHECK(p.evaluated() == evaluated(mirror, p.name()));
    });
    judged += evaluated(mirror, "placement_preserves_lag") + evaluated(mirror, "pick_earliest_deadline") +
              evaluated(mirror, "lone_no_resched");
  }
  CHECK(judged > 100);  // the comparison compared judgements, not silence
}

TEST_CASE("a sum_shift tree's sums are loaded in the model's scaled-down weights", "[kernel_src][mirror]") {
  // Keys 3 and -5 at nice 0 and -5: the model's weights 1024 and 3121, a tree's full
  // weights 1024 << 10 and 3121 << 10. The model's sums: 3 * 1024 - 5 * 3121 = -12533
  // and 4145. Shifted by 0 a tree holds them times 2^10, by 2 times 2^8.
  using eevdf::model::sum_scaled_down;
  CHECK(sum_scaled_down(3 * 1048576 - 5 * 3195904, 0) == -12533);
  CHECK(sum_scaled_down(1048576 + 3195904, 0) == 4145);
  CHECK(sum_scaled_down(3 * 262144 - 5 * 798976, 2) == -12533);
  CHECK(sum_scaled_down(262144 + 798976, 2) == 4145);
  CHECK(sum_scaled_down(3 * 1024 - 5 * 3121, 10) == -12533);
}
