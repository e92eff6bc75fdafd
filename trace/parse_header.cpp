// Header statements, in the order docs/TRACE_FORMAT.md fixes; see parse_header.h.
#include "trace/parse_header.h"

#include <array>
#include <algorithm>
#include "base/assert.h"
#include <cctype>

#include "trace/units.h"

namespace eevdf::trace::detail {
namespace {

// Order of the header; the last four may repeat.
constexpr std::array<const char*, 10> kKeywords{"eevdf-trace", "kernel",   "arith",  "topology", "hz",
                                                "base_slice",  "features", "inject", "task",     "expect"};
constexpr int kFirstRepeatable = 6;

int rank_of(const std::string& word) { return index_of(kKeywords, word); }

std::string order_text() {
  std::string out;
  for (const char* k : kKeywords) out += std::string(out.empty() ? "" : ", ") + k;
  return out;
}

// A header word that must be one of `names`, with a typo hint.
void require_known(const Context& ctx, const Token& t, const std::vector<std::string>& names,
                   const char* what) {
  if (!Vocabulary::contains(names, t.text))
    ctx.fail_at(t, std::string("unknown ") + what + " `" + shown(t.text) + "`",
                did_you_mean(t.text, names));
}

}  // namespace

bool HeaderParser::is_keyword(const std::string& word) { return rank_of(word) >= 0; }

void HeaderParser::statement(const Context& ctx) {
  const Token& first = ctx.line.tokens.at(0);
  const int rank = rank_of(first.text);
  if (!started() && rank != 0)
    ctx.fail_at(first, "expected `eevdf-trace 1` as the first statement, found `" + shown(first.text) + "`");
  if (rank < 0)
    ctx.fail_at(first, "unknown header statement `" + shown(first.text) + "`",
                did_you_mean(first.text, kKeywords));
  check_order(ctx, rank);
  switch (rank) {
    case 0: return version(ctx);
    case 1: return kernel(ctx);
    case 2: return arith(ctx);
    case 3: return topology(ctx);
    case 4: return hz(ctx);
    case 5: return base_slice(ctx);
    case 6: return features(ctx);
    case 7: return inject(ctx);
    case 8: return task(ctx);
    default: return expect(ctx);
  }
}

void HeaderParser::check_order(const Context& ctx, int rank) {
  const Token& first = ctx.line.tokens[0];
  if (rank < rank_)
    ctx.fail_at(first, "`" + first.text + "` must come before `" + kKeywords[static_cast<std::size_t>(rank_)] + "`",
                "header order: " + order_text());
  if (rank == rank_ && rank < kFirstRepeatable)
    ctx.fail_at(first, "`" + first.text + "` given twice (first at line " +
                           std::to_string(first_line_[rank]) + ")");
  if (rank != rank_) first_line_[rank] = ctx.line.number;
  rank_ = rank;
}

void HeaderParser::version(const Context& ctx) {
  const Token& v = ctx.token(1, "the format version `1`");
  if (v.text != std::to_string(kFormatVersion))
    ctx.fail_at(v, "unsupported trace format version `" + shown(v.text) + "`", "this tool reads version 1");
  ctx.expect_end(2);
}

void HeaderParser::kernel(const Context& ctx) {
  const Token& p = ctx.token(1, "a profile such as `6.18`");
  require_known(ctx, p, ctx.vocab.profiles, "kernel profile");
  header_.kernel = p.text;
  ctx.expect_end(2);
}

void HeaderParser::arith(const Context& ctx) {
  const Token& a = ctx.token(1, "`kernel`, `ideal` or `both`");
  const int index = index_of(kArithNames, a.text);
  if (index < 0) ctx.fail_at(a, "expected `kernel`, `ideal` or `both`, found `" + shown(a.text) + "`");
  header_.arith = static_cast<Arith>(index);
  ctx.expect_end(2);
}

void HeaderParser::topology(const Context& ctx) {
  const Token& first = ctx.token(1, "`<sockets>x<cores>` or `sockets=.. llcs=.. cores=.. smt=..`");
  TopologySpec spec;
  if (!split_option(first)) {
    const std::size_t x = first.text.find('x');
    const Token sockets{first.text.substr(0, x == std::string::npos ? 0 : x), first.column};
    const Token cores{x == std::string::npos ? "" : first.text.substr(x + 1),
                      first.column + static_cast<int>(x) + 1};
    if (x == std::string::npos) ctx.fail_at(first, "expected `<sockets>x<cores per socket>` such as `2x64`");
    spec.sockets = static_cast<int>(ctx.integer(sockets, 1, kCpusMax, "sockets"));
    spec.cores_per_socket = static_cast<int>(ctx.integer(cores, 1, kCpusMax, "cores per socket"));
    ctx.expect_end(2);
  } else {
    spec.long_form = true;
    bool seen[4] = {};
    for (std::size_t i = 1; i < ctx.line.tokens.size(); ++i) {
      const Token& t = ctx.line.tokens[i];
      const auto o = split_option(t);
      static constexpr std::array<const char*, 4> keys{"sockets", "llcs", "cores", "smt"};
      int* fields[4] = {&spec.sockets, &spec.llcs, &spec.cores, &spec.smt};
      std::size_t k = 0;
      while (k < keys.size() && (!o || o->key != keys[k])) ++k;
      if (k == keys.size())
        ctx.fail_at(t, "expected sockets=, llcs=, cores= or smt=, found `" + shown(t.text) + "`",
                    o ? did_you_mean(o->key, keys) : std::string{});
      if (seen[k]) ctx.fail_at(t, std::string("`") + keys[k] + "=` given twice");
      seen[k] = true;
      *fields[k] = static_cast<int>(ctx.integer(Token{o->value, o->value_column}, 1, kCpusMax, keys[k]));
    }
    if (!seen[0] || !seen[1] || !seen[2])
      ctx.fail(ctx.end_column(), "the long topology form needs sockets=, llcs= and cores= (smt= defaults to 1)");
  }
  const long long ncpus = spec.long_form
                              ? static_cast<long long>(spec.sockets) * spec.llcs * spec.cores * spec.smt
                              : static_cast<long long>(spec.sockets) * spec.cores_per_socket;
  if (ncpus > kCpusMax)
    ctx.fail_at(first, "topology has " + std::to_string(ncpus) + " CPUs; at most " +
                           std::to_string(kCpusMax) + " are supported");
  header_.topology = spec;
}

void HeaderParser::hz(const Context& ctx) {
  header_.hz = static_cast<int>(ctx.integer(ctx.token(1, "a tick rate such as 1000"), 1, kHzMax, "hz"));
  ctx.expect_end(2);
}

void HeaderParser::base_slice(const Context& ctx) {
  const Token& t = ctx.token(1, "a duration such as 700000 or 0.7ms");
  const std::uint64_t ns = ctx.duration(t);
  if (ns == 0 || ns > kBaseSliceNsMax)
    ctx.fail_at(t, "base_slice must be within 1ns.." + std::to_string(kBaseSliceNsMax) + "ns",
                "the kernel keeps the scaled slice in an unsigned int");
  header_.base_slice_ns = ns;
  ctx.expect_end(2);
}

void HeaderParser::features(const Context& ctx) {
  ctx.token(1, "feature names (NAME or NO_NAME)");
  for (std::size_t i = 1; i < ctx.line.tokens.size(); ++i) {
    const Token& t = ctx.line.tokens[i];
    const bool on = !t.text.starts_with("NO_");
    const Token name{on ? t.text : t.text.substr(3), t.column + (on ? 0 : 3)};
    require_known(ctx, name, ctx.vocab.features, "feature");
    auto& list = header_.features;
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& f) { return f.first == name.text; });
    if (it == list.end()) list.emplace_back(name.text, on);
    else it->second = on;  // a later word wins
  }
}

void HeaderParser::inject(const Context& ctx) {
  const Token& t = ctx.token(1, "an injection name (see docs/INJECTIONS.md)");
  require_known(ctx, t, ctx.vocab.injections, "injection");
  for (const auto& name : header_.injections)
    if (name == t.text) ctx.fail_at(t, "injection `" + t.text + "` given twice");
  header_.injections.push_back(t.text);
  ctx.expect_end(2);
}

void HeaderParser::task(const Context& ctx) {
  const Token& id_token = ctx.token(1, "a task id");
  TaskDecl decl;
  decl.id = static_cast<int>(ctx.integer(id_token, 1, kTaskIdMax, "task id"));
  decl.line = ctx.line.number;
  if (const TaskDecl* old = header_.find_task(decl.id))
    ctx.fail_at(id_token, "task " + id_token.text + " declared twice (first at line " +
                              std::to_string(old->line) + ")");
  static constexpr std::array<const char*, 4> keys{"nice", "slice", "name", "cpu"};
  bool seen[4] = {};
  for (std::size_t i = 2; i < ctx.line.tokens.size(); ++i) {
    const Token& t = ctx.line.tokens[i];
    const auto o = split_option(t);
    std::size_t k = 0;
    while (k < keys.size() && (!o || o->key != keys[k])) ++k;
    if (k == keys.size())
      ctx.fail_at(t, "expected nice=, slice=, name= or cpu=, found `" + shown(t.text) + "`",
                  o ? did_you_mean(o->key, keys) : std::string{});
    if (seen[k]) ctx.fail_at(t, std::string("`") + keys[k] + "=` given twice");
    seen[k] = true;
    const Token value{o->value, o->value_column};
    if (k == 0) decl.nice = static_cast<int>(ctx.integer(value, -20, 19, "nice"));
    if (k == 1) decl.slice_ns = ctx.duration(value);
    if (k == 2) {
      const bool word = !o->value.empty() && std::all_of(o->value.begin(), o->value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
      if (!word) ctx.fail_at(value, "a task name is a word of letters, digits, _ - .");
      decl.name = o->value;
    }
    if (k == 3) decl.cpu = ctx.cpu(value);
  }
  header_.tasks.push_back(std::move(decl));
}

void HeaderParser::expect(const Context& ctx) {
  const Token& what = ctx.token(1, "`violation <property>`, `finding <name>`, `clean` or a query");
  if (what.text == "clean") {
    if (!header_.expect_violations.empty())
      ctx.fail_at(what, "`expect clean` contradicts `expect violation` above");
    if (!header_.expect_findings.empty()) ctx.fail_at(what, "`expect clean` contradicts `expect finding` above");
    header_.expect_clean = true;
    ctx.expect_end(2);
  } else if (what.text == "violation" || what.text == "finding") {
    const bool finding = what.text == "finding";  // a known finding, else a property
    if (header_.expect_clean) ctx.fail_at(what, "`expect " + what.text + "` contradicts `expect clean` above");
    const Token& name = ctx.token(2, finding ? "a finding name" : "a property name");
    require_known(ctx, name, finding ? ctx.vocab.findings : ctx.vocab.properties, finding ? "finding" : "property");
    (finding ? header_.expect_findings : header_.expect_violations).push_back(name.text);
    header_.expectation_lines.emplace(what.text + " " + name.text, ctx.line.number);
    ctx.expect_end(3);
  } else {
    header_.initial_expects.push_back(parse_expect(ctx));
  }
}

}  // namespace eevdf::trace::detail
