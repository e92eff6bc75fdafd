#include "cli/flag_words.h"

#include <fmt/format.h>

#include <iostream>

#include "model/features.h"
#include "trace/error.h"
#include "trace/units.h"

namespace eevdf::cli {

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (const char c : text + ",") {
    if (c == ',' || c == ' ') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  return out;
}

std::vector<std::pair<std::string, bool>> feature_words(const std::string& flag, const std::string& text) {
  std::vector<std::pair<std::string, bool>> out;
  for (const std::string& w : words(text)) {
    const bool off = w.starts_with("NO_") && model::feature_by_name(w.substr(3));
    const std::string name = off ? w.substr(3) : w;
    if (!model::feature_by_name(name)) {
      std::vector<std::string> known;
      for (const auto& f : model::kFeatures) known.emplace_back(f.name);
      const std::string hint = trace::did_you_mean(name, known);
      throw UsageError(fmt::format("{}: unknown feature `{}`{}", flag, w, hint.empty() ? "" : " (" + hint + ")"));
    }
    out.emplace_back(name, !off);
  }
  return out;
}

std::uint64_t duration_flag(const std::string& flag, const std::string& text) {
  const trace::DurationParse d = trace::parse_duration(text);
  if (d.error != trace::DurationError::none || d.ns == 0)
    throw UsageError(fmt::format("{}: `{}` is not a positive duration (10s, 500ms, ...)", flag, text));
  return d.ns;
}

int exit_2_on_bad_input(const char* command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::cerr << "eevdf-check " << command << ": " << e.what() << "\n";
  } catch (const trace::TraceError& e) {
    std::cerr << e.what() << "\n";
  }
  return 2;
}

}  // namespace eevdf::cli
