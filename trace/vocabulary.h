// The names a trace may use that the trace library itself does not own: profiles,
// features and injections (model/), properties, measures and findings (properties/). The
// caller supplies them, so that the parser can say "did you mean" at the column.
#pragma once

#include <string>  // names
#include <vector>  // name lists

namespace eevdf::trace {

struct Vocabulary {
  std::vector<std::string> profiles;
  std::vector<std::string> features;
  std::vector<std::string> injections;
  std::vector<std::string> properties;  // pass/fail and measures alike
  std::vector<std::string> measures;    // the measure properties only
  std::vector<std::string> findings;    // the known findings (`expect finding NAME`)

  static bool contains(const std::vector<std::string>& names, const std::string& name);
  // The words a `features` line accepts: NAME and NO_NAME for each feature.
  std::vector<std::string> feature_words() const {
    std::vector<std::string> out;
    for (const std::string& f : features) {
      out.push_back(f);
      out.push_back("NO_" + f);
    }
    return out;
  }
};

}  // namespace eevdf::trace
