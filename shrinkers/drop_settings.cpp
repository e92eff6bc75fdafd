// Pass 4, header settings back to their defaults; see drop_settings.h.
#include "shrinkers/drop_settings.h"

#include <algorithm>  // std::find
#include <string>     // names
#include <vector>     // the names to try

#include "base/assert.h"

namespace eevdf::shrinkers {
namespace {

// Tries `candidate`; on success it replaces `w`.
bool try_header(Search& search, Work& w, Work candidate, PassStats& stats) {
  if (candidate == w || !search.accepts(candidate, stats)) return false;
  w = std::move(candidate);
  return true;
}

template <class T>
void erase_value(std::vector<T>& v, const T& value) {
  v.erase(std::find(v.begin(), v.end(), value));
}

}  // namespace

bool drop_settings_pass(Search& search, Work& w, PassStats& stats) {
  const std::size_t settings_before = w.header.injections.size() + w.header.features.size();
  bool progress = false;
  const std::vector<std::string> injections = w.header.injections;  // stable while `w` changes
  for (const std::string& name : injections) {
    if (search.spent()) return progress;
    Work candidate = w;
    erase_value(candidate.header.injections, name);
    progress |= try_header(search, w, std::move(candidate), stats);
  }
  const auto features = w.header.features;
  for (const auto& setting : features) {
    if (search.spent()) return progress;
    Work candidate = w;
    erase_value(candidate.header.features, setting);
    progress |= try_header(search, w, std::move(candidate), stats);
  }
  // The single-valued lines, each back to its default (not `kernel`: see the header).
  for (int line = 0; line < 2 && !search.spent(); ++line) {
    Work candidate = w;
    if (line == 0) candidate.header.hz.reset();
    if (line == 1) candidate.header.base_slice_ns.reset();
    progress |= try_header(search, w, std::move(candidate), stats);
  }
  EEVDF_ASSERT(w.header.injections.size() + w.header.features.size() <= settings_before, "settings only go");
  return progress;
}

}  // namespace eevdf::shrinkers
