// What one replay of the model is configured with: the machine, the tick, the base
// slice and the feature and injection switches (docs/MODEL.md §2, §14; docs/INJECTIONS.md).
#pragma once

#include <cstdint>  // ns

#include "model/features.h"
#include "model/injections.h"
#include "model/topology.h"

namespace eevdf::model {

struct Config {
  Topology topology = Topology::trace_default();
  std::uint64_t tick_nsec = 1'000'000;                   // TICK_NSEC (§2)
  std::uint64_t normalized_base_slice = 700'000;         // normalized_sysctl_sched_base_slice
  std::uint64_t sysctl_base_slice = 2'800'000;           // scaled by the CPU count (§2)
  FeatureSet features = FeatureSet::defaults();
  InjectionSet injections;

  bool feat(Feature f) const { return features.on(f); }
  bool injected(Injection i) const { return injections.on(i); }
};

// The declaration of a task in the trace header: what __sched_fork() starts from.
struct TaskSpec {
  int id = 0;
  int nice = 0;
  std::uint64_t slice_ns = 0;  // 0: the default slice (not custom)
  int default_cpu = -1;        // `cpu=` of the declaration, -1 if none
};

}  // namespace eevdf::model
