// The grammar of event lines: `@<time> <verb> <arguments>` (docs/TRACE_FORMAT.md, Events).
#include "base/assert.h"
#include <map>

#include "trace/line.h"
#include "trace/units.h"

namespace eevdf::trace::detail {
namespace {

// The arguments after the verb: bare words in order, and key=value options.
struct Args {
  std::vector<const Token*> words;
  std::map<std::string, std::pair<Option, const Token*>> options;
};

Args split_args(const Context& ctx, const std::vector<std::string>& allowed_keys) {
  Args args;
  for (std::size_t i = 2; i < ctx.line.tokens.size(); ++i) {
    const Token& t = ctx.line.tokens[i];
    const auto opt = split_option(t);
    if (!opt) {
      args.words.push_back(&t);
      continue;
    }
    bool known = false;
    for (const auto& k : allowed_keys) known = known || k == opt->key;
    if (!known)
      ctx.fail_at(t, "unknown option `" + shown(opt->key) + "=` for `" + ctx.line.tokens[1].text + "`",
                  did_you_mean(opt->key, allowed_keys));
    if (args.options.count(opt->key))
      ctx.fail_at(t, "option `" + opt->key + "=` given twice");
    args.options.emplace(opt->key, std::make_pair(*opt, &t));
  }
  return args;
}

std::optional<int> cpu_option(const Context& ctx, const Args& args) {
  const auto it = args.options.find("cpu");
  if (it == args.options.end()) return std::nullopt;
  const Option& o = it->second.first;
  return ctx.cpu(Token{o.value, o.value_column});
}

void too_many_words(const Context& ctx, const Args& args, std::size_t allowed) {
  if (args.words.size() > allowed)
    ctx.fail_at(*args.words[allowed], "unexpected `" + shown(args.words[allowed]->text) + "`");
}

// `<task>` or `cpu=<c>`, exactly one of them (sleep, yield, exit).
void task_or_cpu(const Context& ctx, const Args& args, Event& e) {
  e.cpu = cpu_option(ctx, args);
  if (args.words.empty()) {
    if (!e.cpu) ctx.fail(ctx.end_column(), "expected a task id or `cpu=<c>`");
    return;
  }
  e.task = ctx.task_id(*args.words[0]);
  if (e.cpu) ctx.fail_at(*args.options.at("cpu").second, "name the task or `cpu=<c>`, not both");
}

void parse_sleep_io(const Context& ctx, Args& args, Event& e) {
  const auto it = args.options.find("io");
  if (it != args.options.end()) {
    if (it->second.first.value != "noacct")
      ctx.fail(it->second.first.value_column, "expected `io` or `io=noacct`");
    e.io = Io::noacct;
  }
  if (!args.words.empty() && args.words.back()->text == "io") {
    if (e.io != Io::none) ctx.fail_at(*args.words.back(), "`io` given twice");
    e.io = Io::io;
    args.words.pop_back();
  }
}

void parse_arguments(const Context& ctx, Event& e) {
  switch (e.verb) {
    case Verb::fork:
    case Verb::wake: {
      const Args args = split_args(ctx, {"cpu"});
      e.task = ctx.task_id(ctx.token(2, "a task id"));
      too_many_words(ctx, args, 1);
      e.cpu = cpu_option(ctx, args);
      return;
    }
    case Verb::sleep: {
      Args args = split_args(ctx, {"cpu", "io"});
      parse_sleep_io(ctx, args, e);
      too_many_words(ctx, args, 1);
      task_or_cpu(ctx, args, e);
      return;
    }
    case Verb::yield:
    case Verb::exit: {
      const Args args = split_args(ctx, {"cpu"});
      too_many_words(ctx, args, 1);
      task_or_cpu(ctx, args, e);
      return;
    }
    case Verb::tick: {
      const Token& t = ctx.token(2, "a CPU number or `all`");
      if (t.text == "all") e.all_cpus = true;
      else e.cpu = ctx.cpu(t);
      ctx.expect_end(3);
      return;
    }
    case Verb::migrate: {
      const Args args = split_args(ctx, {"cpu"});
      e.task = ctx.task_id(ctx.token(2, "a task id"));
      too_many_words(ctx, args, 1);
      e.cpu = cpu_option(ctx, args);
      if (!e.cpu) ctx.fail(ctx.end_column(), "expected `cpu=<c>`: the CPU to migrate to");
      return;
    }
    case Verb::renice:
      e.task = ctx.task_id(ctx.token(2, "a task id"));
      e.nice = static_cast<int>(ctx.integer(ctx.token(3, "a nice value (-20..19)"), -20, 19, "nice"));
      ctx.expect_end(4);
      return;
    case Verb::setslice:
      e.task = ctx.task_id(ctx.token(2, "a task id"));
      e.slice_ns = ctx.duration(ctx.token(3, "a slice (a duration, or 0 for the default)"));
      ctx.expect_end(4);
      return;
  }
}

}  // namespace

Event parse_event(const Context& ctx) {
  const Token& at = ctx.line.tokens.at(0);
  EEVDF_ASSERT(at.text.starts_with('@'), "not an event line");
  Event e;
  e.line = ctx.line.number;
  const DurationParse t = parse_duration(std::string_view(at.text).substr(1));
  if (t.error != DurationError::none)
    ctx.fail(at.column + 1, std::string("bad event time: ") + duration_error_text(t.error));
  e.time_ns = t.ns;
  const Token& verb = ctx.token(1, "a verb (fork, wake, sleep, tick, migrate, renice, setslice, yield, exit)");
  const int index = index_of(kVerbNames, verb.text);
  if (index < 0) ctx.fail_at(verb, "unknown verb `" + shown(verb.text) + "`", did_you_mean(verb.text, kVerbNames));
  e.verb = static_cast<Verb>(index);
  e.column = verb.column;
  parse_arguments(ctx, e);
  if (e.task != 0) {
    // The task is the first word after the verb; options may come before it
    // (`sleep io=noacct 1`), so token 2 is not always the task.
    std::size_t i = 2;
    while (split_option(ctx.line.tokens.at(i))) ++i;
    e.column = ctx.line.tokens.at(i).column;
  }
  return e;
}

}  // namespace eevdf::trace::detail
