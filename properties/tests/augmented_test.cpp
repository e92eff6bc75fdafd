// augmented_consistent on hand-made trees (Env::augmented, as the kernel-src mirror
// loads the real code's rbtree): each kept value is compared with a recount over the
// node's subtree; a difference of the slices alone where an upstream finding leaves
// them is that known finding, anything else a violation. The reference keeps no tree:
// with nothing loaded the property judges nothing.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/arith_kernel.h"
#include "properties/augmented.h"
#include "properties/tests/harness.h"

using eevdf::properties::AugmentedNode;
using eevdf::properties::AugmentedTree;
using eevdf::properties::testing::Harness;
using eevdf::properties::testing::kThree;
using K = eevdf::model::KernelArith;

namespace {

// Three members in tree order A (index 0), B (root), C: vruntimes 100, 200, 300 and
// slices 3, 1, 2 ms. Worked by hand: the leaves keep their own values; B's subtree
// is all three, so min_vruntime 100, min_slice 1 ms, max_slice 3 ms.
AugmentedTree three_nodes() {
  AugmentedTree t;
  t.kept = true;
  t.has_min_slice = t.has_max_slice = true;
  t.root = 1;
  t.nodes = {AugmentedNode{0, -1, -1, 100, 3000000, 100, 3000000, 3000000},
             AugmentedNode{1, 0, 2, 200, 1000000, 100, 1000000, 3000000},
             AugmentedNode{2, -1, -1, 300, 2000000, 300, 2000000, 2000000}};
  return t;
}

struct Judge {
  Harness<K> h{kThree, {"augmented_consistent"}};
  Judge() { h.apply_until(8); }
  // The check on CPU 0 holding `t`: the violations it adds.
  const eevdf::properties::Violation* judge(const AugmentedTree& t) {
    const std::size_t before = h.sink.violations.size();
    h.env().augmented = {t};
    h.touch({0});
    h.checker().after_event(eevdf::properties::testing::tick_event());
    REQUIRE(h.sink.violations.size() - before <= 1);
    return h.sink.violations.size() == before ? nullptr : &h.sink.violations.back();
  }
};

}  // namespace

TEST_CASE("augmented_consistent: exact values hold, a wrong min_vruntime fails", "[properties][augmented]") {
  Judge j;
  CHECK(j.judge(three_nodes()) == nullptr);
  AugmentedTree t = three_nodes();
  t.nodes[1].min_vruntime = 200;  // B's own vruntime, not its subtree's
  const auto* v = j.judge(t);
  REQUIRE(v != nullptr);
  CHECK(v->property == "augmented_consistent");
  CHECK(v->task == 2);  // task index 1
  CHECK(v->finding.empty());
  CHECK(v->values.find("kept min_vruntime=200") != std::string::npos);
  CHECK(v->values.find("recount over its 3 members min_vruntime=100") != std::string::npos);
  t = three_nodes();
  t.nodes[2].min_vruntime = 299;  // a leaf
  CHECK(j.judge(t) != nullptr);
}

TEST_CASE("augmented_consistent orders vruntimes as the kernel does, across the wrap", "[properties][augmented]") {
  // A at 2^64 - 10 is 15 ns before B at 5: (s64)(A - B) = -15. The subtree minimum is A.
  Judge j;
  AugmentedTree t = three_nodes();
  t.nodes[0].vruntime = t.nodes[0].min_vruntime = UINT64_MAX - 9;
  t.nodes[1].vruntime = 5;
  t.nodes[1].min_vruntime = UINT64_MAX - 9;
  t.nodes[2].vruntime = t.nodes[2].min_vruntime = 20;
  CHECK(j.judge(t) == nullptr);
  t.nodes[1].min_vruntime = 5;  // the unsigned minimum, not the kernel's
  CHECK(j.judge(t) != nullptr);
}

TEST_CASE("augmented_consistent: stale slices are the known findings only where they leave them",
          "[properties][augmented]") {
  Judge j;
  AugmentedTree t = three_nodes();
  t.nodes[1].min_slice = 2000000;  // the root (a member with children): a rotation's stale copy
  const auto* v = j.judge(t);
  REQUIRE(v != nullptr);
  CHECK(v->finding == "rbtree-rotate-stale-min-slice");
  t = three_nodes();
  t.nodes[1].max_slice = 2000000;
  REQUIRE(j.judge(t) != nullptr);
  CHECK(j.h.sink.violations.back().finding == "rbtree-rotate-stale-min-slice");
  t = three_nodes();
  t.nodes[2].max_slice = 0;  // a leaf's max_slice: __enqueue_entity left it
  REQUIRE(j.judge(t) != nullptr);
  CHECK(j.h.sink.violations.back().finding == "enqueue-max-slice-uninitialized");
  t = three_nodes();
  t.nodes[2].min_slice = 1000000;  // a leaf's min_slice: no known cause
  REQUIRE(j.judge(t) != nullptr);
  CHECK(j.h.sink.violations.back().finding.empty());
  t = three_nodes();
  t.nodes[1].min_slice = 2000000;  // a stale slice beside a wrong min_vruntime: not the finding
  t.nodes[0].min_vruntime = 99;
  REQUIRE(j.judge(t) != nullptr);
  CHECK(j.h.sink.violations.back().finding.empty());
  // A tree that keeps no slices: only min_vruntime is compared.
  t = three_nodes();
  t.has_min_slice = t.has_max_slice = false;
  t.nodes[1].min_slice = t.nodes[1].max_slice = 7;
  CHECK(j.judge(t) == nullptr);
}

TEST_CASE("augmented_consistent: the children must reach every member once", "[properties][augmented]") {
  Judge j;
  AugmentedTree t = three_nodes();
  t.nodes[1].right = -1;  // C unreached
  const auto* v = j.judge(t);
  REQUIRE(v != nullptr);
  CHECK(v->explanation.find("exactly once") != std::string::npos);
  t = three_nodes();
  t.nodes[0].left = 1;  // a cycle back to the root
  CHECK(j.judge(t) != nullptr);
  t = three_nodes();
  t.root = -1;  // members, no root
  CHECK(j.judge(t) != nullptr);
}

TEST_CASE("augmented_consistent judges nothing without the real code's tree", "[properties][augmented]") {
  Harness<K> h(kThree, {"augmented_consistent"});
  h.apply_until();
  CHECK(h.sink.violations.empty());
  std::uint64_t evaluated = 1;
  h.checker().for_each([&](const auto& p) {
    if (p.name() == "augmented_consistent") evaluated = p.evaluated();
  });
  CHECK(evaluated == 0);
}
