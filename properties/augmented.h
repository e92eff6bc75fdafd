// augmented_consistent (docs/PROPERTIES.md, Bookkeeping): every member of the real
// code's timeline rbtree holds, as its augmented values, the minimum vruntime (and,
// where the tree keeps them, the minimum and maximum slice) over its own subtree.
// Judged on kernel-src only, from the tree as its own children link it
// (Env::augmented): the reference keeps no per-node values.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "properties/findings.h"
#include "properties/property.h"

namespace eevdf::properties {

// A subtree's values recounted from its members' own vruntime and slice.
struct SubtreeRecount {
  std::uint64_t min_vruntime = 0, min_slice = 0, max_slice = 0;
  int members = 0;
};

// The first node whose kept values differ from the recount, and how it differs.
struct AugmentedMismatch {
  int node = -1;  // index into AugmentedTree::nodes, -1: none
  SubtreeRecount recount;
  bool vruntime = false, slice = false;  // min_vruntime; min_slice or max_slice
  bool any_vruntime = false;             // some node's min_vruntime differs
  bool leaf_min_slice = false;           // some leaf's min_slice differs
  bool leaf_max_slice = false;           // some leaf's max_slice differs
  bool unreached = false;                // the children do not reach every member exactly once
};

// Recounts every subtree of `t` from its root and compares each node's kept values.
// vruntime as the kernel orders it: a before b iff (s64)(a - b) < 0.
class AugmentedWalk {
 public:
  explicit AugmentedWalk(const AugmentedTree& t) : t_(t), seen_(t.nodes.size(), 0) {}

  AugmentedMismatch run() {
    if (t_.root >= 0) (void)visit(t_.root);
    int reached = 0;
    for (const char s : seen_) reached += s;
    out_.unreached = out_.unreached || reached != static_cast<int>(t_.nodes.size()) ||
                     (t_.root < 0 && !t_.nodes.empty());
    return out_;
  }

 private:
  static bool before(std::uint64_t a, std::uint64_t b) { return static_cast<std::int64_t>(a - b) < 0; }

  SubtreeRecount visit(int i) {
    if (i < 0 || static_cast<std::size_t>(i) >= t_.nodes.size() || seen_[static_cast<std::size_t>(i)] != 0) {
      out_.unreached = true;
      return {};
    }
    seen_[static_cast<std::size_t>(i)] = 1;
    const AugmentedNode& n = t_.nodes[static_cast<std::size_t>(i)];
    SubtreeRecount r{n.vruntime, n.slice, n.slice, 1};
    for (const int child : {n.left, n.right}) {
      if (child < 0) continue;
      const SubtreeRecount c = visit(child);
      if (c.members == 0) continue;
      if (before(c.min_vruntime, r.min_vruntime)) r.min_vruntime = c.min_vruntime;
      if (c.min_slice < r.min_slice) r.min_slice = c.min_slice;
      if (c.max_slice > r.max_slice) r.max_slice = c.max_slice;
      r.members += c.members;
    }
    const bool leaf = n.left < 0 && n.right < 0;
    const bool vruntime = n.min_vruntime != r.min_vruntime;
    const bool min_slice = t_.has_min_slice && n.min_slice != r.min_slice;
    const bool max_slice = t_.has_max_slice && n.max_slice != r.max_slice;
    out_.any_vruntime = out_.any_vruntime || vruntime;
    out_.leaf_min_slice = out_.leaf_min_slice || (leaf && min_slice);
    out_.leaf_max_slice = out_.leaf_max_slice || (leaf && max_slice);
    if ((vruntime || min_slice || max_slice) && (out_.node < 0 || (vruntime && !out_.vruntime))) {
      out_.node = i;
      out_.recount = r;
      out_.vruntime = vruntime;
      out_.slice = min_slice || max_slice;
    }
    return r;
  }

  const AugmentedTree& t_;
  std::vector<char> seen_;
  AugmentedMismatch out_;
};

template <class A, class P = model::profile_6_18>
class AugmentedConsistent final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "augmented_consistent"; }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    const auto& trees = this->env_.augmented;
    const auto c = static_cast<std::size_t>(at.cpu);
    if (c >= trees.size() || !trees[c].kept) return;
    this->judged();
    const AugmentedTree& t = trees[c];
    const AugmentedMismatch m = AugmentedWalk(t).run();
    if (m.unreached) {
      this->fail(at.cpu, 0, fmt::format("{} members", t.nodes.size()),
                 "the tree's children reach every member of the timeline exactly once");
      return;
    }
    if (m.node < 0) return;
    const AugmentedNode& n = t.nodes[static_cast<std::size_t>(m.node)];
    this->fail(
        at.cpu, this->env_.m.tasks().at(static_cast<std::size_t>(n.task)).id,
        [&] {
          std::string kept = fmt::format("kept min_vruntime={}", n.min_vruntime);
          std::string recount = fmt::format("recount over its {} members min_vruntime={}", m.recount.members,
                                            m.recount.min_vruntime);
          if (t.has_min_slice) {
            kept += fmt::format(" min_slice={}", n.min_slice);
            recount += fmt::format(" min_slice={}", m.recount.min_slice);
          }
          if (t.has_max_slice) {
            kept += fmt::format(" max_slice={}", n.max_slice);
            recount += fmt::format(" max_slice={}", m.recount.max_slice);
          }
          return kept + "; " + recount;
        },
        "a tree member's augmented values are those of its subtree", finding(m));
  }

 private:
  // The known findings (findings.h) a mismatch of the slices alone meets: every
  // min_vruntime exact, and the slices wrong only where each finding leaves them.
  static std::string_view finding(const AugmentedMismatch& m) {
    if (m.any_vruntime || m.leaf_min_slice) return {};
    if (m.leaf_max_slice) return known_finding("enqueue-max-slice-uninitialized");
    return known_finding("rbtree-rotate-stale-min-slice");
  }
};

}  // namespace eevdf::properties
