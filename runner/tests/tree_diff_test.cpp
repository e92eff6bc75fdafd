// `eevdf-check diff` (runner/tree_diff.h) and the runqueue dump (replay/runqueue_dump.h):
// kernel-src against itself and against the 6.12 reference never differ; a side made
// to differ on purpose is found, shrunk to the two events that show it, and dumped on
// both sides; the campaign's answer does not depend on --jobs; the dump's values are
// the kernel's, worked by hand.
#include <catch2/catch.hpp>

#ifdef EEVDF_HAVE_KERNEL_SRC

#include <memory>
#include <string>

#include "kernel_src/compare.h"  // Reference612
#include "kernel_src/machine.h"
#include "model/arith_kernel.h"
#include "model/profiles.h"
#include "replay/implementation.h"
#include "replay/model_config.h"
#include "replay/runqueue_dump.h"
#include "replay/runqueue_dump_kernel_src.h"
#include "replay/runqueue_dump_model-inl.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/vocabulary.h"
#include "runner/tree_diff.h"
#include "trace/reader.h"

namespace eevdf::runner {
namespace {

using replay::ImplementationFactory;

ImplementationFactory builtin() { return replay::kernel_src_implementation(replay::builtin_machine_factory(), "A"); }

// An implementation whose CPUs report V one higher while two or more entities are
// queued there: a difference any trace with two tasks on one CPU shows.
class PerturbedV final : public replay::Implementation {
 public:
  explicit PerturbedV(std::unique_ptr<replay::Implementation> inner) : inner_(std::move(inner)) {}
  std::string apply(const trace::Event& e) override { return inner_->apply(e); }
  int ncpus() const override { return inner_->ncpus(); }
  int ntasks() const override { return inner_->ntasks(); }
  replay::TaskView task(int p) const override { return inner_->task(p); }
  replay::RunqueueDump runqueue(int cpu) const override {
    replay::RunqueueDump d = inner_->runqueue(cpu);
    if (d.entities.size() >= 2) ++d.V;
    return d;
  }
  std::vector<kernel_src::HookCall> take_calls() override { return inner_->take_calls(); }
  std::string last_warning() const override { return inner_->last_warning(); }
  bool warns_like_kernel_src() const override { return inner_->warns_like_kernel_src(); }
  std::string oops() const override { return inner_->oops(); }
  bool overflowed() const override { return inner_->overflowed(); }

 private:
  std::unique_ptr<replay::Implementation> inner_;
};

ImplementationFactory perturbed() {
  return [inner = builtin()](const model::Config& c, const std::vector<model::TaskSpec>& s) {
    return std::unique_ptr<replay::Implementation>(std::make_unique<PerturbedV>(inner(c, s)));
  };
}

trace::Trace parse(const std::string& text) {
  return trace::parse_trace_text(text, "<test>", replay::vocabulary());
}

// Two tasks forked on one CPU (the 6.12 profile, base slice 0.7 ms on one CPU).
constexpr const char* kTwoForks = "eevdf-trace 1\nkernel 6.12\ntopology 1x1\ntask 1\ntask 2\n@0 fork 1\n@0 fork 2\n";

}  // namespace

TEST_CASE("kernel-src against itself and against the 6.12 reference: no difference", "[tree_diff]") {
  const TreeDiffOptions o{1, 40, 1, "6.12", {}};
  const TreeDiffResult self = run_tree_diff(o, builtin(), builtin());
  CHECK(self.traces == 40);
  CHECK(self.events > 1000);
  CHECK(self.differing_traces == 0);
  CHECK(self.refused_stops == 0);  // the generator draws under the same release
  CHECK_FALSE(self.first);
  const TreeDiffResult ref = run_tree_diff(o, builtin(), replay::reference_implementation("6.12"));
  CHECK(ref.differing_traces == 0);
  CHECK_FALSE(ref.first);
  CHECK(ref.events == self.events);
}

TEST_CASE("a side that differs is found, shrunk to the events that show it and dumped on both sides", "[tree_diff]") {
  const TreeDiffResult r = run_tree_diff(TreeDiffOptions{1, 10, 1, "6.12", {}}, builtin(), perturbed());
  REQUIRE(r.first);
  CHECK(r.first->difference.find(": V: A ") != std::string::npos);
  const ShrunkDifference s = shrink_difference(TreeDiffOptions{1, 10, 1, "6.12", {}}, *r.first, builtin(), perturbed(), 30);
  // Two tasks on one CPU (the CPUs folded onto CPU 0): their forks, nothing else.
  CHECK(s.stats.events_after == 2);
  const DifferenceReport d = replay_difference(s.trace, "<shrunk>", builtin(), perturbed());
  REQUIRE(d.differ);
  CHECK(d.line == std::get<trace::Event>(s.trace.body.back()).line);  // after the last event
  CHECK(d.cpu == 0);
  CHECK(d.b.V == d.a.V + 1);
  CHECK(d.a.entities.size() == 2);
}

TEST_CASE("the campaign's first difference does not depend on --jobs", "[tree_diff]") {
  const auto injected = replay::reference_implementation("6.12", {"reweight_unscaled_lag"});
  const TreeDiffResult one = run_tree_diff(TreeDiffOptions{3, 30, 1, "6.12", {}}, builtin(), injected);
  const TreeDiffResult three = run_tree_diff(TreeDiffOptions{3, 30, 3, "6.12", {}}, builtin(), injected);
  REQUIRE(one.first);
  REQUIRE(three.first);
  CHECK(one.first->index == three.first->index);
  CHECK(one.first->line == three.first->line);
  CHECK(one.first->difference == three.first->difference);
  CHECK(one.differing_traces == three.differing_traces);
  CHECK(one.events == three.events);
}

TEST_CASE("two references: a profile against itself agrees, 6.12 against 6.18 does not", "[tree_diff]") {
  const auto r618 = replay::reference_implementation("6.18");
  const TreeDiffResult same = run_tree_diff(TreeDiffOptions{1, 20, 2, "6.18", {}}, r618, r618);
  CHECK(same.differing_traces == 0);
  CHECK(same.events > 500);
  // 6.18 keeps v0 as min_vruntime, moved by update_min_vruntime() at every update;
  // 6.12's zero_vruntime moves inside avg_vruntime() only: the first run shows it.
  const TreeDiffResult apart =
      run_tree_diff(TreeDiffOptions{1, 20, 2, "6.12", {}}, replay::reference_implementation("6.12"), r618);
  REQUIRE(apart.first);
  CHECK(apart.differing_traces > 0);
}

TEST_CASE("the runqueue dump holds the kernel's values, the same from the reference and kernel-src", "[dump]") {
  const trace::Trace t = parse(kTwoForks);
  const model::Config config = replay::make_config(t.header, replay::Options{}, "<test>");
  const auto specs = replay::make_task_specs(t.header);
  kernel_src::Reference612 ref(config, specs);
  kernel_src::Machine k(config, specs);
  for (const auto& s : t.body) {
    const auto& e = std::get<trace::Event>(s);
    REQUIRE(replay::apply_event(ref, e).empty());
    REQUIRE(replay::apply_event(k, e).empty());
  }
  // By hand: v0 starts at (u64)-(1 << 20); task 1 is placed alone at V = v0 and runs;
  // task 2 is placed at V = curr's vruntime = v0 with no lag. Both get the half slice
  // of a new task (PLACE_DEADLINE_INITIAL): 700000 / 2 at nice 0.
  const std::uint64_t v0 = std::uint64_t{0} - (std::uint64_t{1} << 20);
  for (const replay::RunqueueDump& d : {replay::runqueue_dump(ref, 0), replay::runqueue_dump(k, 0)}) {
    INFO(replay::format_runqueue(d));
    CHECK(d.curr == 1);
    CHECK(d.v0 == v0);
    CHECK(d.V == v0);
    CHECK(d.load_weight == 2 * 1048576);
    CHECK(d.sum_w_vruntime == 0);  // task 2's key 0, curr not in the sums
    CHECK(d.sum_weight == 1024);   // task 2's scaled-down weight
    CHECK(d.nr_queued == 2);
    REQUIRE(d.entities.size() == 2);
    CHECK(d.entities[0].task == 2);
    CHECK(d.entities[0].in_tree);
    CHECK(d.entities[1].task == 1);
    CHECK(d.entities[1].is_curr);
    for (const replay::EntityDump& e : d.entities) {
      CHECK(e.vruntime == v0);
      CHECK(e.deadline == v0 + 350000);
      CHECK(e.eligible);
      CHECK(e.weight == 1048576);
    }
    CHECK(replay::format_runqueue(d).find("zero_vruntime 18446744073708503040") != std::string::npos);
  }
  CHECK(replay::first_runqueue_difference(replay::runqueue_dump(ref, 0), replay::runqueue_dump(k, 0), "A", "B") == "");
}

TEST_CASE("the dump names the sums and v0 as the tree does", "[dump]") {
  replay::RunqueueDump d;
  d.shape = replay::KSRC_SHAPE_ZERO_VRUNTIME;
  std::string text = replay::format_runqueue(d);
  CHECK(text.find(" avg_vruntime 0  avg_load 0") != std::string::npos);
  CHECK(text.find("zero_vruntime 0") != std::string::npos);
  d.shape = replay::KSRC_SHAPE_ZERO_VRUNTIME | replay::KSRC_SHAPE_SUM_W_VRUNTIME | replay::KSRC_SHAPE_VPROT;
  text = replay::format_runqueue(d);
  CHECK(text.find("sum_w_vruntime 0  sum_weight 0") != std::string::npos);
  d.shape = 0;
  CHECK(replay::format_runqueue(d).find("min_vruntime 0") != std::string::npos);
}

TEST_CASE("two dumps: an entity's value is named before the sums and V made of it", "[dump]") {
  replay::RunqueueDump a;
  a.shape = replay::KSRC_SHAPE_ZERO_VRUNTIME;
  a.cpu = 2;
  replay::EntityDump e;
  e.task = 7;
  e.vruntime = 100;
  a.entities = {e};
  replay::RunqueueDump b = a;
  CHECK(replay::first_runqueue_difference(a, b, "A", "B") == "");
  b.entities[0].vruntime = 101;
  b.V = 1;
  b.sum_w_vruntime = 5;
  CHECK(replay::first_runqueue_difference(a, b, "A", "B") == "CPU 2: task 7: vruntime: A 100, B 101");
  b.entities[0].vruntime = 100;
  CHECK(replay::first_runqueue_difference(a, b, "A", "B") == "CPU 2: avg_vruntime: A 0, B 5");
  b.entities.clear();
  CHECK(replay::first_runqueue_difference(a, b, "A", "B") == "CPU 2: task 7: on the runqueue in A, not in B");
}

}  // namespace eevdf::runner

#endif
