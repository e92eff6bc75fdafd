// Test helpers: an independent check of the shrink contract's 1-minimality (not
// the shrinker's candidate or repair code, so the two can disagree). A neighbour of
// a shrunk trace is what one deletion or fold gives, repaired here by removing the
// first event the replay rejects and replaying again, until the replay accepts it.
#pragma once

#include <cstddef>  // counts
#include <string>   // descriptions
#include <vector>   // neighbours

#include "trace/trace.h"

namespace eevdf::shrinkers::testing {

struct Neighbour {
  std::string how;  // "delete event 3", "delete task 2", "fold CPU 1 into 0 (base_slice kept)"
  trace::Trace trace;
};

// `t` repaired: events the kernel-arithmetic replay rejects (illegal in the model's
// state, naming an undeclared task) removed one at a time, first first.
trace::Trace repaired(const trace::Trace& t);

// Every neighbour the contract names, each repaired: each event deleted (a fork with
// every event naming its task), each task deleted, the highest CPU folded into each
// lower one on a `1x<ncpus-1>` topology, with the header's base_slice and with the
// one that keeps the scaled slice.
std::vector<Neighbour> neighbours(const trace::Trace& t);

// CPUs of the topology, and tasks declared.
int cpu_count(const trace::Trace& t);
std::size_t task_count(const trace::Trace& t);

}  // namespace eevdf::shrinkers::testing
