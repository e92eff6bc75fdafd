// See finding_conditions.h.
#include "replay/finding_conditions.h"

#include <fmt/format.h>

#include <boost/multiprecision/gmp.hpp>

#include "base/assert.h"
#include "properties/findings.h"

namespace eevdf::replay {
namespace {

using Rational = boost::multiprecision::mpq_rational;

bool off_grid(std::uint64_t slice, const model::Config& c) { return slice != 0 && slice % c.tick_nsec != 0; }

// The measure `name` when it is above `floor`: "" if so, else why not.
std::string above(const FindingEvidence& e, std::string_view name, const Rational& floor, const char* what) {
  std::string num, den;
  if (!e.measure(name, num, den)) return fmt::format("the measure {} is not evaluated in this replay", name);
  const Rational value(num + "/" + den);
  if (value > floor) return "";
  return fmt::format("the measure {} is {}/{}: {}", name, num, den, what);
}

// A lag_bound finding: the bound exceeded where it is measured, with the cause.
std::string lag_bound_with(const FindingEvidence& e, bool cause, const char* cause_text) {
  if (std::string why = above(e, "lag_bound", Rational(1), "the bound was never exceeded"); !why.empty()) return why;
  return cause ? "" : fmt::format("the trace has no {}", cause_text);
}

}  // namespace

void FindingCauses::note_header(const trace::Header& header, const model::Config& config) {
  slice_off_grid = slice_off_grid || off_grid(config.sysctl_base_slice, config);
  for (const trace::TaskDecl& t : header.tasks)
    slice_off_grid = slice_off_grid || off_grid(t.slice_ns, config);
}

void FindingCauses::note(const trace::Event& e, const model::Config& config) {
  switch (e.verb) {
    case trace::Verb::yield: yield = true; break;
    case trace::Verb::renice: renamed = true; break;
    case trace::Verb::setslice:
      renamed = true;
      slice_off_grid = slice_off_grid || off_grid(e.slice_ns, config);
      break;
    case trace::Verb::wake:
    case trace::Verb::migrate: join = true; break;
    case trace::Verb::sleep: io_sleep = io_sleep || e.io == trace::Io::io; break;
    default: break;
  }
}

std::string finding_missing(std::string_view name, const FindingEvidence& e) {
  const auto tagged = [&]() -> std::string {
    const auto it = e.tagged.find(std::string(name));
    if (it != e.tagged.end() && it->second != 0) return "";
    return "no violation matched its condition";
  };
  // The pass/fail findings: their property tags each violation that meets the condition.
  if (name == "monotone-min-vruntime-overflow" || name == "k612-tickless-eligibility-overflow" ||
      name == "lag-bound-steady-off-tick-grid" || name == "kernel-src-null-pick-after-overflow" ||
      name == "rbtree-rotate-stale-min-slice" || name == "enqueue-max-slice-uninitialized")
    return tagged();
  if (name == "delay-dequeue-hides-iowait") {
    if (!e.config.feat(model::Feature::DELAY_DEQUEUE)) return "DELAY_DEQUEUE is off";
    if (!e.causes.io_sleep) return "the trace has no io sleep";
    return above(e, "iowait_visibility", Rational(0), "no io sleeper went uncounted");
  }
  if (name == "lag-bound-off-tick-grid") return lag_bound_with(e, e.causes.slice_off_grid, "slice off the tick grid");
  if (name == "lag-bound-stored-lag-joins")
    return lag_bound_with(e, e.causes.join && e.config.feat(model::Feature::PLACE_LAG), "join with PLACE_LAG");
  if (name == "lag-bound-renice-renews-protection") return lag_bound_with(e, e.causes.renamed, "renice or setslice");
  if (name == "lag-bound-yield") return lag_bound_with(e, e.causes.yield, "yield");
  EEVDF_ASSERT(false, "a finding of properties/findings.h without its condition in replay/finding_conditions.cpp");
  return "?";
}

}  // namespace eevdf::replay
