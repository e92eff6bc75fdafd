// Defaults and checks of a campaign's options; see options.h.
#include "runner/options.h"

#include <fmt/format.h>

#include <algorithm>

#include "generator/prng.h"
#include "replay/model_config.h"
#include "runner/kernel_src_diff.h"
#include "trace/error.h"

namespace eevdf::runner {

generator::Options default_generator_options() {
  generator::Options o;  // 2x64, 2..16 tasks, up to 8 busy CPUs, 50..500 events
  o.random_features = true;
  o.steady = {1, 8};  // enough steady stretches to matter, most traces still mixed
  return o;
}

std::uint64_t trace_seed(std::uint64_t seed, std::uint64_t index) { return generator::Prng::split(seed, index); }

std::vector<std::string> checked_properties(const properties::Selection& selection, bool kernel_src) {
  // kernel-src: the 6.12 forms on the reference in lockstep, and kernel_matches_reference.
  const std::string_view profile = kernel_src ? model::profile_6_12::name : model::profile_6_18::name;
  std::vector<std::string> out;
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    const std::string name(p.name);
    const auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
    if (!properties::implemented(p.name, profile) || !properties::runs_in(p, true)) continue;
    if (!kernel_src && !properties::kernel_src_only(p.name).empty()) continue;  // the real code's state only
    if ((!selection.check.empty() && !in(selection.check)) || in(selection.skip)) continue;
    out.push_back(name);
  }
  if (kernel_src) out.emplace_back("kernel_matches_reference");
  return out;
}

std::vector<std::string> checked_properties(const Options& o) {
  if (!o.kernel_tree_alone) return checked_properties(o.selection, o.kernel_src);
  std::vector<std::string> out;  // what the tree's mirror judges, under its forms
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    const std::string name(p.name);
    const auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
    if (!properties::implemented(p.name, o.generator.profile) || !properties::runs_in(p, true)) continue;
    if (!properties::judged_on_tree(p.name, o.tree)) continue;
    if ((!o.selection.check.empty() && !in(o.selection.check)) || in(o.selection.skip)) continue;
    out.push_back(name);
  }
  return out;
}

properties::Judging judging(const Options& o) {
  properties::Judging j;
  j.profile = o.kernel_src && !o.kernel_tree_alone ? model::profile_6_12::name : o.generator.profile;
  if (o.kernel_src && !o.kernel_tree_alone) j.system.emplace_back("kernel_matches_reference");
  j.kernel_src = o.kernel_src;
  j.reference_lockstep = o.kernel_src && !o.kernel_tree_alone;
  if (o.kernel_tree_alone) j.tree = o.tree;
  if (!o.kernel_src && o.diff_every != 0) j.system.emplace_back("fast_matches_reference");
  if (o.ideal_every != 0) j.system.emplace_back("ideal_tracks_kernel");
  j.ideal_arith = !o.kernel_src && o.steady_every != 0;  // the ideal-only sample (runner/ideal_only.h)
  return j;
}

std::string validate(const Options& o) {
  if (o.shard_count == 0 || o.shard_index >= o.shard_count)
    return fmt::format("--shard {}/{}: the index must be below the count", o.shard_index, o.shard_count);
  if (o.jobs < 1) return "--jobs must be at least 1";
  if (o.traces_max == 0 && o.seconds_max <= 0) return "no budget: give --traces or --time";
  if (o.kernel_src && !kernel_src_available())
    return "this build has no kernel-src model (linux-source-6.12 was not installed: run `bash ci/setup` and rebuild)";
  if (o.kernel_src && !o.generator.injections.empty()) return "kernel-src runs the kernel as it is: no --inject";
  if (o.kernel_src && !o.kernel_tree_alone && o.generator.profile != "6.12")
    return "kernel-src traces are drawn under the 6.12 profile";
  const properties::Judging judged = judging(o);
  for (const std::string& p : o.selection.check) {
    const std::string why = properties::unjudged(p, judged, properties::Asker::run);
    if (!why.empty()) return "--check " + why;
  }
  trace::Header h;  // the model must accept the injections and features every trace carries
  h.topology = o.generator.topology;
  h.features = o.generator.features;
  h.injections = o.generator.injections;
  try {
    (void)replay::make_config(h, replay::Options{}, "<run>");
  } catch (const trace::TraceError& e) {
    return e.message() + (e.hint().empty() ? "" : " (" + e.hint() + ")");
  }
  return "";
}

}  // namespace eevdf::runner
