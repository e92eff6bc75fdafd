// Located trace errors and the typo hint; see error.h.
#include "trace/error.h"

#include <algorithm>
#include <vector>

namespace eevdf::trace {
namespace {

std::string render(const SourceLoc& loc, const std::string& message, const std::string& hint) {
  std::string out = loc.file;  // line 0: about the whole file
  if (loc.line > 0) out += ":" + std::to_string(loc.line);
  if (loc.line > 0 && loc.column > 0) out += ":" + std::to_string(loc.column);
  out += ": " + message;
  if (!hint.empty()) out += " (" + hint + ")";
  return out;
}

}  // namespace

TraceError::TraceError(SourceLoc loc, const std::string& message, std::string hint)
    : std::runtime_error(render(loc, message, hint)),
      loc_(std::move(loc)),
      message_(message),
      hint_(std::move(hint)) {}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace eevdf::trace
