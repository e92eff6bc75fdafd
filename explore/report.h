// What explore prints: the setting, a line per depth, the summary, the JSON, and the
// shortest counterexample (or reach witness) as a trace that `replay` runs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "explore/explore.h"

namespace eevdf::explore {

std::string describe(const trace::Header& header, const Options& options);
std::string format_progress(int depth, const Result& r);
std::string format_report(const std::string& setting, const Options& options, const Result& r);
nlohmann::json report_json(const trace::Header& header, const Options& options, const Result& r);
// The first violation's path with `expect violation P` in its header; else, without
// --reach, the first known finding's with `expect finding F`; else the reach witness
// with the query's `expect` lines after its last event; "" when none.
std::string counterexample_text(const trace::Header& header, const Options& options, const Result& r);

}  // namespace eevdf::explore
