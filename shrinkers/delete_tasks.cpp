// Pass 2, whole tasks; see delete_tasks.h.
#include "shrinkers/delete_tasks.h"

#include <vector>  // the ids to try

#include "base/assert.h"

namespace eevdf::shrinkers {

bool delete_tasks_pass(Search& search, Work& w, PassStats& stats) {
  // The ids as of the start: the loop's bound, and stable while `w` shrinks.
  std::vector<int> ids;
  for (const trace::TaskDecl& d : w.header.tasks) ids.push_back(d.id);
  bool progress = false;
  for (const int id : ids) {
    if (search.spent()) break;
    if (w.header.find_task(id) == nullptr) continue;  // dropped by an earlier deletion: declared, no longer named
    Work candidate = delete_task(w, id);
    if (!search.accepts(candidate, stats)) continue;
    EEVDF_ASSERT(candidate.header.tasks.size() < w.header.tasks.size(), "an accepted deletion deletes a task");
    w = std::move(candidate);
    progress = true;
  }
  EEVDF_ASSERT(w.header.tasks.size() <= ids.size(), "the pass never adds a task");
  return progress;
}

}  // namespace eevdf::shrinkers
