// Names of the trace format's enumerations, shared by the parser's messages and
// the writer.
#include "trace/trace.h"

#include <algorithm>
#include "base/assert.h"

#include "trace/vocabulary.h"

namespace eevdf::trace {

int TopologySpec::ncpus() const {
  return long_form ? sockets * llcs * cores * smt : sockets * cores_per_socket;
}

const TaskDecl* Header::find_task(int id) const {
  // Parsing only appends tasks, so the index grows incrementally; code that edits
  // `tasks` otherwise (a shrinker) is caught by the id check and a full rebuild.
  const auto lookup = [&]() -> const TaskDecl* {
    for (; lookup_count_ < tasks.size(); ++lookup_count_) task_lookup_.emplace(tasks[lookup_count_].id, lookup_count_);
    const auto it = task_lookup_.find(id);
    if (it == task_lookup_.end() || it->second >= tasks.size() || tasks[it->second].id != id) return nullptr;
    return &tasks[it->second];
  };
  if (lookup_count_ <= tasks.size())
    if (const TaskDecl* t = lookup()) return t;
  task_lookup_.clear();
  lookup_count_ = 0;
  return lookup();
}

bool Vocabulary::contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace eevdf::trace
