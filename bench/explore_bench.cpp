#include "bench/explore_bench.h"

#include <algorithm>  // min

#include "explore/explore.h"

namespace eevdf::bench {

ExploreMeasurement explore_bench(int depth, int repetitions, const std::string& kernel, bool kernel_tree) {
  trace::Header h;
  if (kernel != "6.18") h.kernel = kernel;
  trace::TopologySpec topo;
  topo.sockets = 1;
  topo.cores_per_socket = 2;
  h.topology = topo;
  for (int id = 1; id <= 3; ++id) {
    trace::TaskDecl d;
    d.id = id;
    h.tasks.push_back(d);
  }
  explore::Options o;
  o.depth = depth;
  o.kernel_tree = kernel_tree;
  ExploreMeasurement m;
  m.depth = depth;
  for (int r = 0; r < repetitions; ++r) {
    const explore::Result result = explore::explore(h, {}, o);  // times itself in process CPU time
    m.cpu_s = r == 0 ? result.cpu_seconds : std::min(m.cpu_s, result.cpu_seconds);
    m.distinct = result.distinct;
    m.transitions = result.transitions;
  }
  return m;
}

}  // namespace eevdf::bench
