// Drawing a trace's setup: machine, tick, tasks, verb weights. See draw.h.
#include "generator/draw.h"

#include <algorithm>
#include <vector>

#include "base/assert.h"
#include "generator/prng.h"
#include "model/features.h"

namespace eevdf::generator {

model::Topology topology_of(const trace::TopologySpec& spec) {
  const model::TopologyResult r = spec.long_form
                                      ? model::Topology::long_form(spec.sockets, spec.llcs, spec.cores, spec.smt)
                                      : model::Topology::short_form(spec.sockets, spec.cores_per_socket);
  EEVDF_ASSERT(r.topology.has_value(), r.error);
  return *r.topology;
}

int nearby_cpu(Prng& prng, const model::Topology& topo, int from) {
  const std::uint64_t kind = prng.range_inclusive(0, 9);  // 7 in 10 same LLC, 2 same socket, 1 anywhere
  std::vector<int> candidates;
  for (int c = 0; c < topo.ncpus(); ++c)
    if (kind < 7 ? topo.same_llc(c, from) : kind < 9 ? topo.same_socket(c, from) : true) candidates.push_back(c);
  EEVDF_ASSERT(!candidates.empty(), "a CPU is in its own LLC");
  return candidates[prng.range_inclusive(0, candidates.size() - 1)];
}

namespace {

std::vector<int> draw_busy_cpus(Prng& prng, const model::Topology& topo, int count) {
  std::vector<int> cpus{static_cast<int>(prng.range_inclusive(0, static_cast<std::uint64_t>(topo.ncpus() - 1)))};
  for (int i = 1; i < count; ++i) {
    const int c = nearby_cpu(prng, topo, cpus[prng.range_inclusive(0, cpus.size() - 1)]);
    if (std::find(cpus.begin(), cpus.end(), c) == cpus.end()) cpus.push_back(c);
  }
  std::sort(cpus.begin(), cpus.end());
  return cpus;
}

int draw_nice(Prng& prng) {
  switch (prng.range_inclusive(0, 5)) {
    case 0: return -20;
    case 1: return 19;
    case 2:
    case 3: return 0;
    default: return static_cast<int>(prng.range_inclusive_signed(-20, 19));
  }
}

// Mostly the default slice; custom ones span the kernel's whole 0.1 .. 100 ms.
std::uint64_t draw_slice(Prng& prng) {
  if (prng.chance({2, 3})) return 0;
  if (prng.chance({1, 4})) return prng.chance({1, 2}) ? 100'000 : 100'000'000;
  return prng.range_inclusive(100'000, 100'000'000);
}

// Sets `name` to `on` in `features`, replacing an earlier setting (a later word wins).
void set_feature(std::vector<std::pair<std::string, bool>>& features, const std::string& name, bool on) {
  for (auto& [n, value] : features)
    if (n == name) {
      value = on;
      return;
    }
  features.emplace_back(name, on);
}

// A random feature set (swarm testing over sched_features): the two default-off
// switches on in a quarter of traces each, every other switch off in one in sixteen.
// Only settings that differ from the profile defaults are written.
std::vector<std::pair<std::string, bool>> draw_features(Prng& prng) {
  std::vector<std::pair<std::string, bool>> out;
  for (const model::FeatureInfo& f : model::kFeatures) {
    const bool flip = prng.chance(f.default_on ? Ratio{1, 16} : Ratio{1, 4});
    if (flip) out.emplace_back(std::string(f.name), !f.default_on);
  }
  return out;
}

}  // namespace

std::array<std::uint32_t, 9> draw_weights(Prng& prng) {
  std::array<std::uint32_t, 9> w{};
  for (std::uint32_t& x : w) x = prng.chance({1, 5}) ? 0 : static_cast<std::uint32_t>(prng.range_inclusive(1, 20));
  w[static_cast<std::size_t>(trace::Verb::fork)] = std::max<std::uint32_t>(w[0], 4);   // tasks must start
  w[static_cast<std::size_t>(trace::Verb::wake)] = std::max<std::uint32_t>(w[1], 4);   // and come back
  w[static_cast<std::size_t>(trace::Verb::tick)] = std::max<std::uint32_t>(w[3], 4);
  w[static_cast<std::size_t>(trace::Verb::exit)] = std::min<std::uint32_t>(w[8], 1);   // exits end tasks for good
  return w;
}

trace::Header draw_header(Prng& prng, const Options& o, const model::Topology& topo, std::vector<int>& busy) {
  trace::Header h;
  h.topology = o.topology;
  h.hz = o.hz != 0 ? o.hz : std::array<int, 3>{1000, 250, 100}[prng.range_inclusive(0, 2)];
  const int ntasks = static_cast<int>(prng.range_inclusive(static_cast<std::uint64_t>(o.tasks_min),
                                                           static_cast<std::uint64_t>(o.tasks_max)));
  busy = draw_busy_cpus(prng, topo, std::min(o.busy_cpus_max, topo.ncpus()));
  for (int id = 1; id <= ntasks; ++id) {
    trace::TaskDecl t;
    t.id = id;
    t.nice = draw_nice(prng);
    t.slice_ns = draw_slice(prng);
    t.cpu = busy[prng.range_inclusive(0, busy.size() - 1)];
    h.tasks.push_back(t);
  }
  if (o.random_features) h.features = draw_features(prng);  // no draw otherwise: `gen` traces unchanged
  for (const auto& [name, on] : o.features) {
    EEVDF_ASSERT(model::feature_by_name(name).has_value(), "unknown feature " + name);
    set_feature(h.features, name, on);
  }
  h.injections = o.injections;
  if (o.profile != "6.18") h.kernel = o.profile;  // the default profile is not written: `gen` traces unchanged
  return h;
}

}  // namespace eevdf::generator
