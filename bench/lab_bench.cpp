#include "bench/lab_bench.h"

#include <algorithm>  // min
#include <ctime>      // std::clock: process CPU time

#include "lab/builtin.h"
#include "lab/driver.h"
#include "trace/error.h"

namespace eevdf::bench {

LabMeasurement lab_bench(const std::string& workload, std::uint64_t duration_ns, int repetitions) {
  const std::string file = "lab/workloads/" + workload + ".lab";
  const auto text = lab::builtin_workload(workload);
  if (!text) throw trace::TraceError({file, 0, 0}, "no built-in workload `" + workload + "`");
  const lab::Workload w = lab::read_workload(*text, file);
  LabMeasurement m;
  m.workload = workload;
  m.simulated_s = static_cast<double>(duration_ns) / 1e9;
  for (int r = 0; r < repetitions; ++r) {
    lab::RunOptions o;
    o.duration_ns = duration_ns;
    o.file = file;
    const std::clock_t start = std::clock();
    const lab::RunResult result = lab::run_workload(w, lab::TargetSpec{}, o);
    const double cpu = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    m.cpu_s = r == 0 ? cpu : std::min(m.cpu_s, cpu);
    m.events = result.events;
  }
  return m;
}

}  // namespace eevdf::bench
