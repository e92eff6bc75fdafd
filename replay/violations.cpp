// Violation reports and trace-wide expectations; see violations.h.
#include "replay/violations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "properties/findings.h"
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
  if (!first_) first_ = Where{v.cpu, v.task};
  const std::uint64_t n = ++counts_[std::string(v.property)];
  ++by_tag_[{std::string(v.property), std::string(v.finding)}];
  if (!v.finding.empty()) ++tagged_[std::string(v.finding)];
  ++total_;
  const std::string finding = v.finding.empty() ? "" : fmt::format("\n  known finding {} (properties/findings.h)", v.finding);
  if (n <= kPrintedPerPropertyMax) out_ << where << ": " << v.values << "\n  " << v.explanation << finding << "\n";
  if (n == kPrintedPerPropertyMax + 1) out_ << file_ << ": further " << v.property << " violations only counted\n";
}

bool ViolationLog::judged(const std::string& property) const {
  return properties::unjudged(property, judging_, properties::Asker::replay).empty();
}

void ViolationLog::measure(std::string_view name, const std::string& numerator, const std::string& denominator) {
  const std::string exact = denominator == "1" ? numerator : numerator + "/" + denominator;
  const long double value = std::strtold(numerator.c_str(), nullptr) / std::strtold(denominator.c_str(), nullptr);
  out_ << fmt::format("{}: measure {} = {:.6g} (exactly {}; {})\n", file_, name, static_cast<double>(value), exact,
                      properties::measure_unit(name));
}

bool ViolationLog::expectations_hold(std::ostream& summary, const FindingJudge& missing) const {
  if (!header_.has_trace_expectations()) return total_ == 0;
  const auto listed = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  bool ok = true;
  for (const std::string& p : header_.expect_violations) {
    if (counts_.count(p) == 0 && judged(p)) {
      summary << fmt::format("{}: expected a violation of {}, but it held\n", file_, p);
      ok = false;
    }
  }
  for (const std::string& f : header_.expect_findings) {
    const properties::FindingInfo* info = properties::find_finding(f);
    if (info == nullptr || !judged(std::string(info->property))) continue;
    if (const std::string why = missing(f); !why.empty()) {
      summary << fmt::format("{}: expected the finding {} ({}): {}\n", file_, f, info->condition, why);
      ok = false;
    }
  }
  // Every violation must be expected: its property by `expect violation`, or its tag
  // by `expect finding` (an untagged one of a finding's property went past it).
  for (const auto& [key, n] : by_tag_) {
    const auto& [p, finding] = key;
    if (listed(header_.expect_violations, p) || (!finding.empty() && listed(header_.expect_findings, finding)))
      continue;
    std::string pinned;
    for (const std::string& f : header_.expect_findings)
      if (const properties::FindingInfo* info = properties::find_finding(f); info != nullptr && info->property == p)
        pinned = f;
    if (!pinned.empty() && finding.empty())
      summary << fmt::format("{}: {} violated beyond the finding {} ({} times): its condition does not hold there\n",
                             file_, p, pinned, n);
    else
      summary << fmt::format("{}: unexpected violation of {}{} ({} times)\n", file_, p,
                             finding.empty() ? "" : " (known finding " + finding + ")", n);
    ok = false;
  }
  return ok;
}

}  // namespace eevdf::replay
