// A located error in a trace: `file:line:col: message`, with an optional hint.
// Every bad input ends in one of these (exit 2), never in a crash or a skip.
#pragma once

#include <stdexcept>  // std::runtime_error
#include <string>     // message parts

namespace eevdf::trace {

struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;  // 1-based; 0 when the whole line is meant
};

class TraceError : public std::runtime_error {
 public:
  TraceError(SourceLoc loc, const std::string& message, std::string hint = {});
  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }
  const std::string& hint() const { return hint_; }

 private:
  SourceLoc loc_;
  std::string message_;
  std::string hint_;
};

// "did you mean `wake`?" for a word within edit distance 2 of a known one, else "".
std::string did_you_mean(const std::string& word, const auto& candidates);
std::size_t edit_distance(const std::string& a, const std::string& b);

std::string did_you_mean(const std::string& word, const auto& candidates) {
  std::string best;
  std::size_t best_distance = 3;  // farther than 2 edits is not a typo
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, std::string(candidate));
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best.empty() ? std::string{} : "did you mean `" + best + "`?";
}

}  // namespace eevdf::trace
