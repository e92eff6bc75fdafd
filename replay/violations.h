// The replay's sink for property violations and the trace-wide expectations
// (`expect violation P`, `expect finding NAME`, `expect clean`): what to print, when
// to stop, how it ends.
#pragma once

#include <cstdint>     // counts
#include <functional>  // the finding judge
#include <map>         // per property
#include <optional>    // the first violation
#include <utility>     // (property, finding) keys
#include <ostream>  // reports
#include <string>   // names

#include "properties/judging.h"
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

  // What this pass judges (replay/judged.h). An expected violation of a property it
  // does not judge is another pass's (`arith both`) or another replay's
  // (Options::judged_elsewhere) to meet: require_judged refused every other one.
  void judging(properties::Judging j) { judging_ = std::move(j); }

  // Violations carrying each finding's tag (properties/findings.h).
  const std::map<std::string, std::uint64_t>& tagged() const { return tagged_; }

  // Without trace-wide expectations the first violation stops a replay.
  bool must_stop() const { return total_ > 0 && !header_.has_trace_expectations() && !keep_going_; }
  std::uint64_t total() const { return total_; }
  // Where the first violation that is no consequence was (nullopt: none yet): the
  // runqueue a report dumps (runqueue_dump.h).
  struct Where {
    int cpu = -1;  // -1: not about one CPU
    int task = 0;  // 0: not about one task
  };
  const std::optional<Where>& first() const { return first_; }
  // "" when the finding occurred within its condition, else what is missing
  // (replay/finding_conditions.h, with the engine's measures and the trace's causes).
  using FindingJudge = std::function<std::string(std::string_view finding)>;
  // Whether the trace-wide expectations hold; explains to `summary` when not. An
  // `expect finding F` holds when `missing(F)` is "" and every violation of F's
  // property carries F's tag (an untagged one went past the condition).
  bool expectations_hold(std::ostream& summary, const FindingJudge& missing) const;

 private:
  // Beyond this many lines per property a replay only counts (a long trace can
  // violate at every event, and the report must stay readable).
  static constexpr std::uint64_t kPrintedPerPropertyMax = 20;

  const std::string& file_;
  const trace::Header& header_;
  bool keep_going_;
  std::ostream& out_;
  bool judged(const std::string& property) const;
  properties::Judging judging_;
  std::map<std::string, std::uint64_t> counts_;
  std::map<std::string, std::uint64_t> tagged_;                          // per finding
  std::map<std::pair<std::string, std::string>, std::uint64_t> by_tag_;  // (property, finding or "")
  std::uint64_t total_ = 0;
  std::uint64_t consequences_ = 0;
  std::optional<Where> first_;
};

}  // namespace eevdf::replay
