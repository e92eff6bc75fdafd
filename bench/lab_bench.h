// The lab's speed (docs/BENCHMARKS.md, "The lab"): a built-in workload run for a
// simulated duration with every property checked, timed in process CPU seconds
// against the simulated seconds.
#pragma once

#include <cstdint>  // events
#include <string>   // names

namespace eevdf::bench {

struct LabMeasurement {
  std::string workload;
  double simulated_s = 0;
  double cpu_s = 0;  // the best of the repetitions
  std::uint64_t events = 0;
  double simulated_per_cpu_s() const { return cpu_s > 0 ? simulated_s / cpu_s : 0; }
};

// Runs built-in `workload` for `duration_ns` on the reference (kernel arithmetic,
// every property), `repetitions` times.
LabMeasurement lab_bench(const std::string& workload, std::uint64_t duration_ns, int repetitions);

}  // namespace eevdf::bench
