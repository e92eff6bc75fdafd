// The conditions of the known findings (properties/findings.h) in code: what an
// `expect finding NAME` requires at the end of a replay. A finding of a pass/fail
// property holds when a violation carries its tag: the property classifies each
// violation against the finding's condition (monotone-min-vruntime-overflow: the
// overflow follows a tick-less stretch >= 1 s with queued entities;
// lag-bound-steady-off-tick-grid: the steady bound exceeded, r_max off the tick grid
// and the lag within ceil(r_max/q)*q + q), and an untagged violation of the same
// property is one past the condition (ViolationLog fails it). A measure's finding
// holds when the measure shows the behaviour and the trace has the cause the
// finding names.
#pragma once

#include <cstdint>      // counts
#include <functional>   // the measure lookup
#include <map>          // tags
#include <string>       // reasons
#include <string_view>  // names

#include "model/config.h"
#include "trace/trace.h"

namespace eevdf::replay {

// What the trace did that a measure finding names as its cause.
struct FindingCauses {
  bool yield = false;           // a yield
  bool renamed = false;         // a renice or setslice
  bool join = false;            // a wake or migrate (a join that may carry a stored lag)
  bool io_sleep = false;        // a sleep with io
  bool slice_off_grid = false;  // some slice (base, declared, set) is not a whole number of ticks

  // From the header's base slice and declared slices.
  void note_header(const trace::Header& header, const model::Config& config);
  void note(const trace::Event& e, const model::Config& config);
};

struct FindingEvidence {
  const std::map<std::string, std::uint64_t>& tagged;  // violations carrying each finding's tag
  // The measure's value as numerator and denominator; false when not measured.
  std::function<bool(std::string_view measure, std::string& num, std::string& den)> measure;
  const FindingCauses& causes;
  const model::Config& config;
};

// "" when the finding `name` occurred within its condition; else what is missing.
std::string finding_missing(std::string_view name, const FindingEvidence& evidence);

}  // namespace eevdf::replay
