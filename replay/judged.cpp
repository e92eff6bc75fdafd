// See judged.h.
#include "replay/judged.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/profile.h"
#include "properties/catalogue.h"
#include "properties/registry.h"
#include "properties/findings.h"
#include "replay/kernel_tree.h"
#include "trace/error.h"

namespace eevdf::replay {
namespace {

bool differential(const Options& o) { return o.diff || o.diff_ideal || o.diff_kernel_src; }

}  // namespace

properties::Judging judging(const Options& o, const trace::Header& header, trace::Arith arith) {
  properties::Judging j;
  j.profile = header.kernel && *header.kernel == model::profile_6_12::name ? model::profile_6_12::name
                                                                           : model::profile_6_18::name;
  if (o.model == Model::kernel_src || o.diff_kernel_src) j.profile = model::profile_6_12::name;
  if (differential(o)) {
    j.kernel_arith = j.ideal_arith = false;
    j.system = {o.diff ? "fast_matches_reference" : o.diff_ideal ? "ideal_tracks_kernel" : "kernel_matches_reference"};
    return j;
  }
  j.kernel_arith = arith != trace::Arith::ideal || o.model == Model::kernel_src;
  j.ideal_arith = arith != trace::Arith::kernel && o.model != Model::kernel_src;
  if (o.model == Model::kernel_src) j.system = {"kernel_matches_reference"};
  j.kernel_src = j.reference_lockstep = o.model == Model::kernel_src;
  if (const auto tree = tree_judged_alone(); tree && o.model == Model::kernel_src) {  // its mirror alone
    j.system.clear();
    j.reference_lockstep = false;
    j.tree = tree->traits;
    if (!tree->forms.empty()) j.profile = tree->forms == model::profile_6_12::name ? model::profile_6_12::name
                                                                                   : model::profile_6_18::name;
  }
  return j;
}

std::vector<std::string> expected_properties(const trace::Header& header) {
  std::vector<std::string> out = header.expect_violations;
  for (const std::string& name : header.expect_findings)
    for (const properties::FindingInfo& f : properties::kFindings)
      if (f.name == name) out.emplace_back(f.property);
  return out;
}

void require_judged(const Options& o, const trace::Header& header, trace::Arith arith, const std::string& file) {
  const properties::Judging j = judging(o, header, arith);
  // `where`: "--check", or the expectation ("violation P", "finding NAME") at its line.
  const auto refuse = [&](const std::string& name, const std::string& where) {
    const auto& elsewhere = o.judged_elsewhere;
    if (std::find(elsewhere.begin(), elsewhere.end(), name) != elsewhere.end()) return;
    const std::string why = properties::unjudged(name, j, properties::Asker::replay);
    if (why.empty()) return;
    const auto line = header.expectation_lines.find(where);
    throw trace::TraceError({file, line == header.expectation_lines.end() ? 0 : line->second, 0},
                            fmt::format("{} ({})", why, where == "--check" ? where : "expect " + where),
                            "eevdf-check properties lists where each property is judged");
  };
  for (const std::string& p : o.check) refuse(p, "--check");
  if (differential(o)) return;  // the trace's expectations are the plain replay's
  for (const std::string& p : header.expect_violations) refuse(p, "violation " + p);
  for (const std::string& f : header.expect_findings)
    if (const properties::FindingInfo* info = properties::find_finding(f))
      refuse(std::string(info->property), "finding " + f);
  // A finding of the real code alone (a kernel_warn of kernel-src): the reference never meets it.
  for (const std::string& f : header.expect_findings)
    if (properties::met_on_kernel_src_only(f) && o.model != Model::kernel_src) {
      const auto line = header.expectation_lines.find("finding " + f);
      throw trace::TraceError({file, line == header.expectation_lines.end() ? 0 : line->second, 0},
                              fmt::format("expect finding {}: met by the real code only, not judged by this replay", f),
                              "replay --model=kernel-src judges it");
    }
}

std::vector<PlannedReplay> plan_replays(const trace::Header& header, bool kernel_src) {
  const std::vector<std::string> expected = expected_properties(header);
  const auto expects = [&](std::string_view p) { return std::find(expected.begin(), expected.end(), p) != expected.end(); };
  PlannedReplay plain;
  if (!header.arith) {  // the arithmetics the expected properties are exact in
    bool kernel = false, ideal = false;
    for (const std::string& p : expected)
      if (const properties::PropertyInfo* info = properties::find_property(p)) {
        kernel = kernel || info->exact_in == properties::Exact::kernel;
        ideal = ideal || info->exact_in == properties::Exact::ideal;
      }
    if (ideal) plain.options.arith = kernel ? trace::Arith::both : trace::Arith::ideal;
  }
  std::string on_kernel_src;  // what needs kernel-src: kernel_matches_reference, or a finding of the real code
  if (expects("kernel_matches_reference")) on_kernel_src = "kernel_matches_reference";
  for (const std::string& p : expected)
    if (on_kernel_src.empty() && !properties::kernel_src_only(p).empty()) on_kernel_src = p;
  for (const std::string& f : header.expect_findings)
    if (on_kernel_src.empty() && properties::met_on_kernel_src_only(f)) on_kernel_src = "the finding " + f;
  if (!on_kernel_src.empty()) {
    plain.options.model = Model::kernel_src;
    if (!kernel_src)
      plain.missing = have_kernel_src() ? "needs kernel-src for " + on_kernel_src + " (--without-kernel-src)"
                                        : "needs kernel-src for " + on_kernel_src +
                                              " (linux-source-6.12 was not installed when this build was configured: "
                                              "bash ci/setup)";
  }
  std::vector<PlannedReplay> plan;
  const auto beside = [&](std::string_view property, auto set) {
    if (!expects(property)) return;
    plain.options.judged_elsewhere.emplace_back(property);
    PlannedReplay diff;
    set(diff.options);
    plan.push_back(std::move(diff));
  };
  beside("fast_matches_reference", [](Options& o) { o.diff = true; });
  beside("ideal_tracks_kernel", [](Options& o) { o.diff_ideal = true; });
  plan.insert(plan.begin(), std::move(plain));
  return plan;
}

}  // namespace eevdf::replay
