// The RapidCheck-under-Catch runner of rc_check.h. Not a test file itself: it holds
// no TEST_CASE; the property tests call check().
#include "trace/tests/rc_check.h"

#include <filesystem>

#include <catch2/catch.hpp>

#include <cstdlib>   // std::getenv
#include <iostream>  // the unwrapped reproduce line
#include <sstream>  // the failure message

namespace eevdf::trace::testing {
namespace {

// The running test executable, for the reproduce command (Linux: /proc/self/exe).
std::string test_binary() {
  std::error_code error;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("<test binary>") : path.string();
}

}  // namespace
namespace {

// RapidCheck reports progress to a listener; the Catch report is built from the
// result instead. The listener counts the discarded cases (RC_PRE, RC_DISCARD),
// which the result does not carry, so that none is dropped unseen.
class SilentListener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription& c) override {
    if (c.result.type == rc::detail::CaseResult::Type::Discard) ++discarded;
  }
  int discarded = 0;
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

bool rc_params_set(const char* key) {
  const char* params = std::getenv("RC_PARAMS");
  return params != nullptr && std::string(params).find(key) != std::string::npos;
}

// The RC_PARAMS value that replays exactly this failure (seed, size and shrink path).
std::string reproduce_params(const std::string& name, const rc::detail::TestParams& params,
                             const rc::detail::FailureResult& failure) {
  rc::detail::Configuration config;
  config.testParams = params;
  config.reproduce.emplace(name, failure.reproduce);
  return rc::detail::configToMinimalString(config);
}

}  // namespace

int check_property(const std::string& name, int default_cases, const rc::detail::Property& property,
                   bool rapidcheck_shrinks) {
  const rc::detail::Configuration& config = rc::detail::configuration();
  rc::detail::TestParams params = config.testParams;
  if (!rc_params_set("max_success")) params.maxSuccess = default_cases;
  if (!rapidcheck_shrinks) params.disableShrinking = true;
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  SilentListener listener;
  const rc::detail::TestResult result =
      rc::detail::checkProperty(property, metadata, params, listener, config.reproduce);

  std::ostringstream report;
  rc::detail::printResultMessage(result, report);
  rc::detail::SuccessResult success;
  if (result.match(success)) {
    INFO(name << ": " << report.str());
    std::cout << name << ": " << success.numSuccess << " cases passed, " << listener.discarded << " discarded\n";
    SUCCEED(name << ": " << success.numSuccess << " cases passed, " << listener.discarded << " discarded (seed "
                 << params.seed << ")");
    return listener.discarded;
  }
  rc::detail::FailureResult failure;
  if (result.match(failure)) {
    std::ostringstream command;
    command << "RC_PARAMS=\"" << reproduce_params(name, params, failure) << "\" " << test_binary() << " \""
            << Catch::getResultCapture().getCurrentTestName() << "\"\n"
            << "(or search again with RC_PARAMS=\"seed=" << params.seed << " max_success=" << params.maxSuccess
            << "\")\n";
    report << "\nReproduce with:\n" << command.str();
    // Catch wraps long lines; the unwrapped command goes to stderr for copying.
    std::cerr << name << " failed; reproduce with:\n" << command.str();
  }
  FAIL(name << ": " << report.str());
  return listener.discarded;  // not reached: FAIL throws
}

std::string c_literal(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '\n') out += "\\n";
    else if (ch == '\t') out += "\\t";
    else if (ch == '\r') out += "\\r";
    else if (ch == '"') out += "\\\"";
    else if (ch == '\\') out += "\\\\";
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else {
      // Close and reopen the literal so that a following hex digit is not absorbed.
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      out += "\"\"";
    }
  }
  return out + "\"";
}

}  // namespace eevdf::trace::testing
