// The observation interface on the C++ side (observe.h): one runqueue of a kernel-src
// build as its own structures hold it, whatever the tree's shape. What the properties,
// the tree-against-tree diff and the runqueue dump read.
#pragma once

#include <vector>  // entities

namespace eevdf::kernel_src {

namespace c {
extern "C" {
#include "kernel_src/observe.h"
}
}  // namespace c

struct Observation {
  c::ksrc_obs_rq rq{};                         // rq.entities points into `entities`
  std::vector<c::ksrc_obs_entity> entities;    // the tree in order, then curr if not in it
  bool has(unsigned shape_bit) const { return (rq.shape & shape_bit) != 0; }
  // The entity of task index `p` (nullptr: not on this runqueue's tree or curr).
  const c::ksrc_obs_entity* find(int p) const {
    for (const auto& e : entities)
      if (e.task == p) return &e;
    return nullptr;
  }
};

}  // namespace eevdf::kernel_src
