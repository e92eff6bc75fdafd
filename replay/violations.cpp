// Violation reports and trace-wide expectations; see violations.h.
#include "replay/violations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "properties/measure_units.h"
#include "properties/registry.h"

namespace eevdf::replay {

void ViolationLog::violation(const properties::Violation& v) {
  const std::string where = fmt::format("{}:{}: {}: t={}{}{}", file_, v.line, v.property, v.time_ns,
                                        v.cpu >= 0 ? fmt::format(" cpu={}", v.cpu) : "",
                                        v.task != 0 ? fmt::format(" task={}", v.task) : "");
  if (v.consequence) {
    if (++consequences_ <= kPrintedPerPropertyMax)
      out_ << where << ": " << v.values << " (a consequence of the earlier no_overflow on this CPU)\n";
    return;
  }
  const std::uint64_t n = ++counts_[std::string(v.property)];
  ++total_;
  const std::string finding = v.finding.empty() ? "" : fmt::format("\n  known finding {} (properties/findings.h)", v.finding);
  if (n <= kPrintedPerPropertyMax) out_ << where << ": " << v.values << "\n  " << v.explanation << finding << "\n";
  if (n == kPrintedPerPropertyMax + 1) out_ << file_ << ": further " << v.property << " violations only counted\n";
}

void ViolationLog::measure(std::string_view name, const std::string& numerator, const std::string& denominator) {
  const std::string exact = denominator == "1" ? numerator : numerator + "/" + denominator;
  const long double value = std::strtold(numerator.c_str(), nullptr) / std::strtold(denominator.c_str(), nullptr);
  out_ << fmt::format("{}: measure {} = {:.6g} (exactly {}; {})\n", file_, name, static_cast<double>(value), exact,
                      properties::measure_unit(name));
}

bool ViolationLog::expectations_hold(std::ostream& summary) const {
  if (!header_.has_trace_expectations()) return total_ == 0;
  bool ok = true;
  for (const std::string& p : header_.expect_violations) {
    const properties::PropertyInfo* info = properties::find_property(p);
    const bool elsewhere = info != nullptr && info->exact_in == properties::Exact::system &&
                           std::find(judged_system_.begin(), judged_system_.end(), p) == judged_system_.end();
    if (counts_.count(p) == 0 && !elsewhere) {
      summary << fmt::format("{}: expected a violation of {}, but it held\n", file_, p);
      ok = false;
    }
  }
  for (const auto& [p, n] : counts_) {
    const auto& listed = header_.expect_violations;
    if (std::find(listed.begin(), listed.end(), p) == listed.end()) {
      summary << fmt::format("{}: unexpected violation of {} ({} times)\n", file_, p, n);
      ok = false;
    }
  }
  return ok;
}

}  // namespace eevdf::replay
