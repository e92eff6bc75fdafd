// Model-independent validity rules; see static_rules.h.
#include "trace/static_rules.h"

#include "trace/error.h"

namespace eevdf::trace {

void StaticRules::check(const Event& e) {
  if (e.task == 0) return;  // `cpu=<c>` forms and ticks name no task
  Fact& fact = tasks_[e.task];
  const std::string task = "task " + std::to_string(e.task);
  const SourceLoc loc{file_, e.line, e.column};
  if (fact.exited_line != 0)
    throw TraceError(loc, task + " exited at line " + std::to_string(fact.exited_line) +
                              "; `" + verb_name(e.verb) + "` is illegal for an exited task");
  const bool is_new = fact.forked_line == 0;
  switch (e.verb) {
    case Verb::fork:
      if (!is_new)
        throw TraceError(loc, task + " is forked twice (first at line " +
                                  std::to_string(fact.forked_line) + ")");
      fact.forked_line = e.line;
      return;
    case Verb::renice:
    case Verb::setslice: return;  // legal in every state but exited
    case Verb::tick: return;
    case Verb::wake:
    case Verb::sleep:
    case Verb::migrate:
    case Verb::yield:
    case Verb::exit:
      if (is_new)
        throw TraceError(loc, task + " is new (not forked yet); `" + verb_name(e.verb) +
                                  "` is illegal for a new task", "fork it first");
      if (e.verb == Verb::exit) fact.exited_line = e.line;
      return;
  }
}

}  // namespace eevdf::trace
