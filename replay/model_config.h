// From a trace header (and the command line) to the model's configuration.
#pragma once

#include <string>  // file name
#include <vector>  // task declarations

#include "model/config.h"
#include "replay/replay.h"
#include "trace/trace.h"

namespace eevdf::replay {

// Throws trace::TraceError (exit 2) for what the model cannot run: a topology it
// rejects, an injection it does not implement.
model::Config make_config(const trace::Header& header, const Options& options, const std::string& file);
std::vector<model::TaskSpec> make_task_specs(const trace::Header& header);

}  // namespace eevdf::replay
