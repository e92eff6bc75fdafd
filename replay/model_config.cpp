// Header to model::Config; see model_config.h.
#include "replay/model_config.h"

#include "model/tunables.h"
#include "trace/error.h"

namespace eevdf::replay {
namespace {

model::Topology make_topology(const trace::Header& header, const std::string& file) {
  const trace::TopologySpec spec = header.topology_or_default();
  const model::TopologyResult result =
      spec.long_form ? model::Topology::long_form(spec.sockets, spec.llcs, spec.cores, spec.smt)
                     : model::Topology::short_form(spec.sockets, spec.cores_per_socket);
  if (!result.topology) throw trace::TraceError({file, 0, 0}, "topology: " + result.error);
  return *result.topology;
}

void apply_injection(model::Config& config, const std::string& name, const std::string& file) {
  const auto injection = model::injection_by_name(name);
  if (!injection) throw trace::TraceError({file, 0, 0}, "unknown injection `" + name + "`");
  if (*injection == model::Injection::stale_min_slice)
    throw trace::TraceError({file, 0, 0}, "injection `stale_min_slice` is not implemented",
                            "it needs the kernel's exact rbtree shape (docs/INJECTIONS.md)");
  config.injections.set(*injection);
}

}  // namespace

model::Config make_config(const trace::Header& header, const Options& options, const std::string& file) {
  model::Config config;
  config.topology = make_topology(header, file);
  config.tick_nsec = model::tick_nsec(static_cast<std::uint64_t>(header.hz_or_default()));
  const bool k612 = header.kernel.value_or("") == "6.12";
  config.normalized_base_slice = header.base_slice_ns.value_or(k612 ? model::NORMALIZED_BASE_SLICE_6_12_NS
                                                                     : model::NORMALIZED_BASE_SLICE_6_18_NS);
  config.sysctl_base_slice = model::sched_base_slice(config.normalized_base_slice, config.topology.ncpus());
  for (const auto& [name, on] : header.features) {
    const auto feature = model::feature_by_name(name);
    if (!feature) throw trace::TraceError({file, 0, 0}, "unknown feature `" + name + "`");
    config.features.set(*feature, on);
  }
  for (const std::string& name : header.injections) apply_injection(config, name, file);
  for (const std::string& name : options.injections) apply_injection(config, name, file);
  return config;
}

std::vector<model::TaskSpec> make_task_specs(const trace::Header& header) {
  std::vector<model::TaskSpec> specs;
  for (const trace::TaskDecl& t : header.tasks)
    specs.push_back({t.id, t.nice, t.slice_ns, t.cpu.value_or(-1)});
  return specs;
}

}  // namespace eevdf::replay
