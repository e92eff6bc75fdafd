// The replay's sink for property violations and the trace-wide expectations
// (`expect violation P`, `expect clean`): what to print, when to stop, how it ends.
#pragma once

#include <cstdint>  // counts
#include <map>      // per property
#include <ostream>  // reports
#include <string>   // names
#include <vector>   // judged system properties

#include "properties/property.h"
#include "trace/trace.h"

namespace eevdf::replay {

class ViolationLog final : public properties::Sink {
 public:
  ViolationLog(const std::string& file, const trace::Header& header, bool keep_going, std::ostream& out)
      : file_(file), header_(header), keep_going_(keep_going), out_(out) {}

  void violation(const properties::Violation& v) override;
  // A measure's final value (at the end of the replay): printed, never a violation.
  void measure(std::string_view name, const std::string& numerator, const std::string& denominator) override;

  // A system-wide property (catalogue: Exact::system) this replay judges and reports
  // itself (kernel_matches_reference on kernel-src); an expected violation of any
  // other one is left to the mode that judges it (--diff, --diff=kernel-src).
  void judges(std::string property) { judged_system_.push_back(std::move(property)); }

  // Without trace-wide expectations the first violation stops a replay.
  bool must_stop() const { return total_ > 0 && !header_.has_trace_expectations() && !keep_going_; }
  std::uint64_t total() const { return total_; }
  // Whether the trace-wide expectations hold; explains to `summary` when not.
  bool expectations_hold(std::ostream& summary) const;

 private:
  // Beyond this many lines per property a replay only counts (a long trace can
  // violate at every event, and the report must stay readable).
  static constexpr std::uint64_t kPrintedPerPropertyMax = 20;

  const std::string& file_;
  const trace::Header& header_;
  bool keep_going_;
  std::ostream& out_;
  std::vector<std::string> judged_system_;
  std::map<std::string, std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::uint64_t consequences_ = 0;
};

}  // namespace eevdf::replay
