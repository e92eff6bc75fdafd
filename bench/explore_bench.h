// The explorer's speed (docs/BENCHMARKS.md, "The explorer"): distinct states per CPU
// second of `explore` on 2 CPUs and 3 tasks with the default alphabet and features,
// one worker, every property judged at every transition; on the reference, or on the
// kernel tree selected (replay/kernel_tree.h).
#pragma once

#include <cstdint>  // counts
#include <string>   // profiles

namespace eevdf::bench {

struct ExploreMeasurement {
  int depth = 0;
  std::uint64_t distinct = 0;
  std::uint64_t transitions = 0;
  double cpu_s = 0;  // the best of the repetitions
  double states_per_cpu_s() const { return cpu_s > 0 ? static_cast<double>(distinct) / cpu_s : 0; }
  double transitions_per_cpu_s() const { return cpu_s > 0 ? static_cast<double>(transitions) / cpu_s : 0; }
};

// `kernel`: the profile ("6.18", "6.12"); `kernel_tree`: explore the selected tree,
// whose profile `kernel` must be.
ExploreMeasurement explore_bench(int depth, int repetitions, const std::string& kernel = "6.18",
                                 bool kernel_tree = false);

}  // namespace eevdf::bench
