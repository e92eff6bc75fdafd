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
  for (const TaskDecl& t : tasks)
    if (t.id == id) return &t;
  return nullptr;
}

bool Vocabulary::contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace eevdf::trace
