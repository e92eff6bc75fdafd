// The built-in workloads (lab/workloads/*.lab), embedded in the program at build time
// so that `eevdf-check lab buddy_pair` works from any directory.
#pragma once

#include <optional>  // a name not built in
#include <string>    // names, text
#include <vector>    // EmbeddedFile, names

#include "base/embedded_file.h"

namespace eevdf::lab {

const std::vector<EmbeddedFile>& builtin_workload_files();  // generated
// The built-in names ("buddy_pair"), sorted.
std::vector<std::string> builtin_workloads();
// The text of built-in `name`, or nullopt.
std::optional<std::string> builtin_workload(const std::string& name);

}  // namespace eevdf::lab
