// Internal to the generator: drawing what a trace is set up with.
#pragma once

#include <array>
#include <vector>

#include "generator/generator.h"
#include "generator/prng.h"
#include "model/topology.h"

namespace eevdf::generator {

model::Topology topology_of(const trace::TopologySpec& spec);
// A CPU near `from`, as wakeups and load balancing choose: mostly the same LLC.
int nearby_cpu(Prng& prng, const model::Topology& topo, int from);
// Per-verb weights for one trace (swarm testing).
std::array<std::uint32_t, 9> draw_weights(Prng& prng);
// Tick rate, tasks (nice and slice corners included), the CPUs they live on, and
// the feature settings and injections of Options.
trace::Header draw_header(Prng& prng, const Options& o, const model::Topology& topo, std::vector<int>& busy);

}  // namespace eevdf::generator
