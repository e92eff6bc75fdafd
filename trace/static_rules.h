// The validity rules a trace obeys whatever the model decides (docs/TRACE_FORMAT.md,
// the verb-by-state table): a task is forked once, is `new` until then, and is
// never named again after its `exit`. State-dependent rules need the model.
#pragma once

#include <map>     // per-task facts
#include <string>  // file name

#include "trace/trace.h"

namespace eevdf::trace {

class StaticRules {
 public:
  explicit StaticRules(std::string file) : file_(std::move(file)) {}
  // Throws TraceError if `event` breaks a rule; otherwise records its effect.
  void check(const Event& event);

 private:
  struct Fact {
    int forked_line = 0;  // 0: still new
    int exited_line = 0;  // 0: not exited by name
  };
  std::string file_;
  std::map<int, Fact> tasks_;
};

}  // namespace eevdf::trace
