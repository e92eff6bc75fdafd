// The judged and unjudged properties of a campaign; see judged.h.
#include "runner/judged.h"

#include <algorithm>

#include "properties/catalogue.h"
#include "properties/registry.h"
#include "runner/ideal_only.h"

namespace eevdf::runner {
namespace {

bool has(const std::vector<std::string>& v, std::string_view name) { return std::find(v.begin(), v.end(), name) != v.end(); }

// How to judge `name` when these options do not; "" when they do.
std::string how_to_judge(const Options& o, const properties::PropertyInfo& p, const std::vector<std::string>& judged) {
  const std::string_view name = p.name;
  if (has(judged, name)) return "";
  const std::string profile = o.kernel_src && !o.kernel_tree_alone ? std::string("6.12") : o.generator.profile;
  if (o.kernel_tree_alone && name == "kernel_matches_reference")
    return "the default tree (run --model kernel-src without --kernel-tree)";
  if (!properties::applies_to(p, profile)) {
    if (name == "kernel_matches_reference") return "--model kernel-src (6.12 traces against the real fair.c)";
    return properties::not_applicable(name, profile);
  }
  if ((o.kernel_tree_alone || (!o.kernel_src && !properties::kernel_src_only(name).empty())) &&
      p.exact_in != properties::Exact::system && properties::runs_in(p, true)) {
    properties::Judging j = judging(o);
    if (std::string why = properties::unjudged(name, j, properties::Asker::run); !why.empty()) return why;
  }
  if (!o.selection.check.empty() && !has(o.selection.check, name)) return "not in --check";
  if (has(o.selection.skip, name)) return "in --skip";
  if (name == "fast_matches_reference") return o.diff_every != 0 ? "" : "--diff-every N (the fast model on every N-th trace)";
  if (name == "ideal_tracks_kernel") return o.ideal_every != 0 ? "" : "--ideal-every N (both arithmetics in lockstep)";
  if (name == "deterministic") return "the test suite (ctest: runner_tests, same seed and trace, same result)";
  if (p.exact_in == properties::Exact::ideal)
    return o.kernel_src ? "a run without --model kernel-src (--steady-every N)"
                        : "--steady-every N (steady traces replayed in the ideal arithmetic)";
  return "no per-event check of it in this build";
}

}  // namespace

std::vector<std::string> judged_properties(const Options& o) {
  std::vector<std::string> per_event = checked_properties(o);
  const std::vector<std::string> ideal =
      o.kernel_src || o.steady_every == 0 ? std::vector<std::string>{} : ideal_only_properties(o.selection);
  std::vector<std::string> out;
  for (const properties::PropertyInfo& p : properties::kCatalogue)
    if (has(ideal, p.name) || (has(per_event, p.name) && p.name != "kernel_matches_reference")) out.emplace_back(p.name);
  if (has(per_event, "kernel_matches_reference")) out.emplace_back("kernel_matches_reference");
  return out;
}

std::vector<Unjudged> not_judged(const Options& o) {
  const std::vector<std::string> judged = judged_properties(o);
  std::vector<Unjudged> out;
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    std::string how = how_to_judge(o, p, judged);
    if (!how.empty()) out.push_back({std::string(p.name), std::move(how)});
  }
  return out;
}

}  // namespace eevdf::runner
