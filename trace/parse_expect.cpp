// The grammar of state queries: `expect <query> <subject> <value>` (docs/TRACE_FORMAT.md,
// Expectations). Trace-wide `expect violation|clean` belong to the header parser.
#include "base/assert.h"
#include <limits>

#include "trace/line.h"
#include "trace/units.h"

namespace eevdf::trace::detail {
namespace {

constexpr std::int64_t kCountMax = 1'000'000'000;

RationalText rational(const Context& ctx, const Token& t, bool allow_decimal, const char* what) {
  const RationalParse r = parse_rational(t.text, allow_decimal);
  if (!r.ok) ctx.fail_at(t, std::string("expected ") + what + ", found `" + shown(t.text) + "`");
  return {r.numerator, r.denominator};
}

void parse_measure(const Context& ctx, Expect& x) {
  const Token& name = ctx.token(2, "a measure name");
  if (!Vocabulary::contains(ctx.vocab.measures, name.text))
    ctx.fail_at(name, "`" + shown(name.text) + "` is not a measure", did_you_mean(name.text, ctx.vocab.measures));
  x.measure = name.text;
  const Token& op = ctx.token(3, "a comparison (< <= == >= >)");
  const int index = index_of(kOpNames, op.text);
  if (index < 0) ctx.fail_at(op, "expected a comparison (< <= == >= >), found `" + shown(op.text) + "`");
  x.op = static_cast<CompareOp>(index);
  const Token& value = ctx.token(4, "a number");
  const DurationParse d = parse_duration(value.text);
  const bool has_unit = !value.text.empty() && value.text.back() == 's';
  x.rational = has_unit && d.error == DurationError::none
                   ? RationalText{std::to_string(d.ns), "1"}
                   : rational(ctx, value, true, "a number (integer, decimal, p/q or a duration)");
  ctx.expect_end(5);
}

void parse_value(const Context& ctx, Expect& x, const Token& v) {
  constexpr auto s64_min = std::numeric_limits<std::int64_t>::min();
  constexpr auto s64_max = std::numeric_limits<std::int64_t>::max();
  switch (x.query) {
    case Query::curr:
      x.value = v.text == "idle" ? 0 : ctx.task_id(v);
      return;
    case Query::state: {
      const int index = index_of(kStateNames, v.text);
      if (index < 0) ctx.fail_at(v, "unknown task state `" + shown(v.text) + "`", did_you_mean(v.text, kStateNames));
      x.value = index;
      return;
    }
    case Query::cpu: x.value = ctx.cpu(v); return;
    case Query::eligible:
    case Query::protected_: x.value = ctx.yes_no(v) ? 1 : 0; return;
    case Query::lag: x.value = ctx.integer(v, s64_min, s64_max, "a lag (an integer)"); return;
    case Query::ideal_lag: x.rational = rational(ctx, v, false, "an exact lag p/q"); return;
    case Query::deadline_rel: x.rational = rational(ctx, v, false, "an integer or p/q"); return;
    case Query::slice:
    case Query::sum_exec: {
      const std::uint64_t ns = ctx.duration(v);
      if (ns > static_cast<std::uint64_t>(s64_max)) ctx.fail_at(v, "duration too large for a query");
      x.value = static_cast<std::int64_t>(ns);
      return;
    }
    case Query::weight: x.value = ctx.integer(v, 1, kCountMax, "a weight"); return;
    case Query::nr_running:
    case Query::nr_runnable:
    case Query::nr_iowait:
    case Query::nr_iowait_acct: x.value = ctx.integer(v, 0, kCountMax, "a count"); return;
    case Query::measure: EEVDF_ASSERT(false, "measures have their own grammar"); return;
  }
}

}  // namespace

Expect parse_expect(const Context& ctx) {
  Expect x;
  x.line = ctx.line.number;
  const Token& q = ctx.token(1, "a query (curr, state, lag, nr_iowait, ...)");
  const int index = index_of(kQueryNames, q.text);
  if (index < 0) ctx.fail_at(q, "unknown query `" + shown(q.text) + "`", did_you_mean(q.text, kQueryNames));
  x.query = static_cast<Query>(index);
  if (x.query == Query::measure) {
    parse_measure(ctx, x);
    return x;
  }
  const bool about_cpu = x.query == Query::curr || x.query == Query::nr_running ||
                         x.query == Query::nr_runnable || x.query == Query::nr_iowait ||
                         x.query == Query::nr_iowait_acct;
  const Token& subject = ctx.token(2, about_cpu ? "a CPU number" : "a task id");
  x.subject = about_cpu ? ctx.cpu(subject) : ctx.task_id(subject);
  parse_value(ctx, x, ctx.token(3, "the expected value"));
  ctx.expect_end(4);
  return x;
}

}  // namespace eevdf::trace::detail
