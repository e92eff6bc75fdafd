// Where the kernel arithmetic records each 64-bit overflow it detects (docs/PROPERTIES.md
// no_overflow). The model keeps going with the wrapped value, as the kernel would;
// the replay drains the log after every event and reports what it holds.
#pragma once

#include <string_view>  // expression names (string literals)
#include <vector>       // the log

namespace eevdf::model {

__extension__ using s128 = __int128;

struct OverflowEvent {
  std::string_view expression;  // e.g. "key*w in avg_vruntime_add"
  s128 exact;                   // the value the kernel's 64-bit type could not hold
};

// One per runqueue, so that a report can name the CPU.
class OverflowLog {
 public:
  void report(std::string_view expression, s128 exact) {
    if (muted_ == 0) events_.push_back({expression, exact});
  }
  bool empty() const { return events_.empty(); }
  const std::vector<OverflowEvent>& events() const { return events_; }
  void clear() { events_.clear(); }

 private:
  friend class MuteOverflow;
  std::vector<OverflowEvent> events_;
  int muted_ = 0;
};

// While alive, the log ignores reports: for read-only views (queries, dumps,
// properties), which compute what the kernel never computed at that moment.
class MuteOverflow {
 public:
  explicit MuteOverflow(OverflowLog& log) : log_(log) { ++log_.muted_; }
  ~MuteOverflow() { --log_.muted_; }
  MuteOverflow(const MuteOverflow&) = delete;
  MuteOverflow& operator=(const MuteOverflow&) = delete;

 private:
  OverflowLog& log_;
};

}  // namespace eevdf::model
