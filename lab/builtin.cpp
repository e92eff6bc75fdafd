#include "lab/builtin.h"

#include <algorithm>  // sort

namespace eevdf::lab {
namespace {

// "lab/workloads/buddy_pair.lab" -> "buddy_pair".
std::string stem(std::string_view path) {
  path.remove_prefix(path.rfind('/') + 1);
  return std::string(path.substr(0, path.rfind('.')));
}

}  // namespace

std::vector<std::string> builtin_workloads() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : builtin_workload_files()) names.push_back(stem(f.path));
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> builtin_workload(const std::string& name) {
  for (const EmbeddedFile& f : builtin_workload_files())
    if (stem(f.path) == name) return std::string(f.text);
  return std::nullopt;
}

}  // namespace eevdf::lab
