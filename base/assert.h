// Internal assertions that stay on in every build (they are the model's pre- and postconditions). A failure is a
// defect of this tool, never of the input: the CLI turns it into exit code 3.
#pragma once

#include <stdexcept>  // std::logic_error
#include <string>     // messages

namespace eevdf {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] inline void assertion_failed(const char* expr, const char* file, int line, const std::string& why) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": internal assertion `" + expr +
                      "` failed" + (why.empty() ? "" : ": " + why));
}

// A branch the code's own invariants rule out: a defect of this tool if reached, so
// it throws instead of returning a made-up value.
[[noreturn]] inline void unreachable(const char* file, int line, const std::string& why) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": unreachable branch reached: " + why);
}

}  // namespace eevdf

#define EEVDF_ASSERT(cond, why) \
  ((cond) ? static_cast<void>(0) : ::eevdf::assertion_failed(#cond, __FILE__, __LINE__, (why)))
#define EEVDF_UNREACHABLE(why) ::eevdf::unreachable(__FILE__, __LINE__, (why))
