// Durations on the command line (`run --time`, `shrink --budget`): "60s", "2m",
// "500ms", "1h" or a plain number of seconds.
#pragma once

#include <exception>  // std::exception
#include <string>     // std::stod

namespace eevdf::cli {

// The duration in seconds; negative when `text` is not a duration.
inline double parse_seconds(const std::string& text) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return -1;
  }
  const std::string unit = text.substr(used);
  if (value < 0) return -1;
  if (unit.empty() || unit == "s") return value;
  if (unit == "ms") return value / 1000;
  if (unit == "m" || unit == "min") return value * 60;
  if (unit == "h") return value * 3600;
  return -1;
}

}  // namespace eevdf::cli
