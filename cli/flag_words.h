// Flag values shared by the subcommands: comma lists, feature words, durations, and
// the usage error they turn into exit code 2.
#pragma once

#include <cstdint>    // ns
#include <functional>  // the guarded body
#include <stdexcept>  // UsageError
#include <string>     // flag text
#include <utility>    // feature settings
#include <vector>     // lists

namespace eevdf::cli {

class UsageError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "a,b c" -> {"a", "b", "c"}.
std::vector<std::string> words(const std::string& text);

// "NO_DELAY_DEQUEUE,RUN_TO_PARITY" -> {{"DELAY_DEQUEUE", false}, {"RUN_TO_PARITY", true}};
// an unknown word is a UsageError naming `flag`.
std::vector<std::pair<std::string, bool>> feature_words(const std::string& flag, const std::string& text);

// A positive duration (10s, 500ms, ...); otherwise a UsageError naming `flag`.
std::uint64_t duration_flag(const std::string& flag, const std::string& text);

// Runs a command's body; bad input (a UsageError, prefixed `eevdf-check COMMAND:`,
// or a TraceError naming its file and line) is printed and becomes exit code 2.
int exit_2_on_bad_input(const char* command, const std::function<int()>& body);

}  // namespace eevdf::cli
