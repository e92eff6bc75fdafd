// kernel-src's answers to a trace's state queries and its JSON dump, field for field
// the reference's (query-inl.h): shared by the engine of the default tree (lockstep)
// and of a tree judged alone. Built only with kernel-src.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kernel_src/machine.h"
#include "replay/query-inl.h"
#include "trace/trace.h"

namespace eevdf::replay {

QueryResult evaluate_kernel_src(const kernel_src::Machine& m, const trace::Expect& x);
nlohmann::ordered_json dump_kernel_src(const kernel_src::Machine& m, int line, const std::string& event, bool all_cpus);

}  // namespace eevdf::replay
