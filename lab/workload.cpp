// The `eevdf-lab 1` reader (docs/LAB.md, "The workload format"); see workload.h.
// The settings it shares with the trace header (kernel, topology, hz, base_slice,
// features) go through the trace header's own parser, so both formats read and
// check them alike.
#include "lab/workload.h"

#include <algorithm>   // sort, find_if
#include <array>       // keyword tables
#include <cctype>      // group name characters
#include <filesystem>  // the file's stem
#include <string_view>  // lines

#include "model/tunables.h"
#include "replay/vocabulary.h"
#include "trace/line.h"
#include "trace/parse_header.h"

namespace eevdf::lab {
namespace {

using trace::detail::Context;
using trace::detail::Line;
using trace::detail::shown;
using trace::detail::Token;

constexpr int kGroupCountMax = 4096;

// Header statements besides the version line; all but `features` at most once.
constexpr std::array<const char*, 6> kSettings{"kernel", "topology", "hz", "base_slice", "features", "duration"};
constexpr int kFeaturesRank = 4;
// Program statements, in the order of Op::Kind.
constexpr std::array<const char*, 6> kOps{"run", "sleep", "wait", "wake", "yield", "renice"};
constexpr std::array<const char*, 5> kGroupKeys{"count", "nice", "slice", "cpus", "start"};

int index_of(const auto& table, const std::string& word) {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (word == table[i]) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> statement_words() {
  std::vector<std::string> words{"eevdf-lab", "group"};
  words.insert(words.end(), kSettings.begin(), kSettings.end());
  words.insert(words.end(), kOps.begin(), kOps.end());
  return words;
}

bool is_group_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// `20us` (a constant) or `10us..30us` (uniform).
Dist dist(const Context& ctx, const Token& t) {
  const std::size_t dots = t.text.find("..");
  if (dots == std::string::npos) {
    const std::uint64_t ns = ctx.duration(t);
    return {ns, ns};
  }
  const Token lo{t.text.substr(0, dots), t.column};
  const Token hi{t.text.substr(dots + 2), t.column + static_cast<int>(dots) + 2};
  const Dist d{ctx.duration(lo), ctx.duration(hi)};
  if (d.lo > d.hi)
    ctx.fail_at(t, "range `" + shown(t.text) + "` is empty", "its low end must not exceed its high end");
  return d;
}

// The optional `io` or `io=noacct` at token i; returns the index after it.
std::size_t io(const Context& ctx, std::size_t i, trace::Io& out) {
  if (i >= ctx.line.tokens.size()) return i;
  const Token& t = ctx.line.tokens[i];
  if (t.text == "io") out = trace::Io::io;
  else if (t.text == "io=noacct") out = trace::Io::noacct;
  else ctx.fail_at(t, "expected `io` or `io=noacct`, found `" + shown(t.text) + "`");
  return i + 1;
}

// `0`, `0-3`, `0,2,4-7`: ascending, without duplicates, each a CPU of the topology.
std::vector<int> cpu_list(const Context& ctx, const trace::detail::Option& o) {
  if (o.value.empty()) ctx.fail(o.value_column, "expected a CPU list such as `0`, `0-3` or `0,2,4-7`");
  std::vector<int> cpus;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = o.value.find(',', begin);
    const std::string piece = o.value.substr(begin, comma == std::string::npos ? comma : comma - begin);
    const int column = o.value_column + static_cast<int>(begin);
    const std::size_t dash = piece.find('-', 1);  // a leading '-' is a sign: ctx.cpu rejects it
    if (dash == std::string::npos) {
      cpus.push_back(ctx.cpu(Token{piece, column}));
    } else {
      const int lo = ctx.cpu(Token{piece.substr(0, dash), column});
      const int hi = ctx.cpu(Token{piece.substr(dash + 1), column + static_cast<int>(dash) + 1});
      if (lo > hi) ctx.fail(column, "CPU range `" + piece + "` is empty", "write the lower CPU first");
      for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    }
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

// A wake's group name, resolved once every group is known (forward references).
struct PendingWake {
  std::size_t group = 0;
  std::size_t op = 0;
  Token name;
  int line = 0;
};

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file), header_parser_(header_) {
    header_.topology = workload_.topology;  // the lab's default, for cpus= checks
    workload_.name = std::filesystem::path(file).stem().string();
  }

  Workload read(std::string_view text) {
    int number = 0;
    while (!text.empty()) {
      const std::size_t newline = text.find('\n');
      const std::string_view raw = text.substr(0, newline);
      text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
      ++number;
      if (raw.size() > trace::detail::kLineBytesMax)
        throw trace::TraceError({file_, number, 0}, "line longer than " +
                                                        std::to_string(trace::detail::kLineBytesMax) + " bytes");
      const Line line = trace::detail::tokenize(raw, number);
      if (line.empty()) {
        if (!started_ && raw.find_first_not_of(" \t\r") != std::string_view::npos) description(line.comment);
        continue;
      }
      statement(Context{file_, replay::vocabulary(), header_, line});
    }
    if (!started_) throw trace::TraceError({file_, number + 1, 0}, "empty workload: expected `eevdf-lab 1`");
    if (workload_.groups.empty())
      throw trace::TraceError({file_, number + 1, 0}, "the workload has no `group`",
                              "a workload needs at least one group of tasks");
    finish_group();
    resolve_wakes();
    workload_.kernel = header_.kernel;
    workload_.topology = *header_.topology;
    workload_.hz = header_.hz_or_default();
    workload_.base_slice_ns = header_.base_slice_ns;
    workload_.features = header_.features;
    return std::move(workload_);
  }

 private:
  void description(std::string comment) {
    if (!comment.empty() && comment.back() == '\r') comment.pop_back();
    if (comment.starts_with(' ')) comment.erase(0, 1);
    workload_.description.push_back(std::move(comment));
  }

  void statement(const Context& ctx) {
    const Token& first = ctx.line.tokens[0];
    if (!started_) {
      if (first.text != "eevdf-lab")
        ctx.fail_at(first, "expected `eevdf-lab 1` as the first statement, found `" + shown(first.text) + "`");
      return version(ctx);
    }
    if (first.text == "eevdf-lab") ctx.fail_at(first, "`eevdf-lab` given twice (first at line " +
                                                          std::to_string(version_line_) + ")");
    if (const int rank = index_of(kSettings, first.text); rank >= 0) return setting(ctx, rank);
    if (first.text == "group") return group(ctx);
    if (const int kind = index_of(kOps, first.text); kind >= 0) {
      if (workload_.groups.empty())
        ctx.fail_at(first, "`" + first.text + "` before any `group`",
                    "program statements belong to the group above them");
      return program_statement(ctx, static_cast<Op::Kind>(kind));
    }
    ctx.fail_at(first, "unknown statement `" + shown(first.text) + "`",
                trace::did_you_mean(first.text, statement_words()));
  }

  void version(const Context& ctx) {
    const Token& v = ctx.token(1, "the format version `1`");
    if (v.text != "1")
      ctx.fail_at(v, "unsupported workload format version `" + shown(v.text) + "`", "this tool reads version 1");
    ctx.expect_end(2);
    started_ = true;
    version_line_ = ctx.line.number;
  }

  void setting(const Context& ctx, int rank) {
    const Token& first = ctx.line.tokens[0];
    if (!workload_.groups.empty())
      ctx.fail_at(first, "header statement `" + first.text + "` after the first `group`",
                  "settings come before the groups");
    int& seen = setting_lines_[static_cast<std::size_t>(rank)];
    if (seen != 0 && rank != kFeaturesRank)
      ctx.fail_at(first, "`" + first.text + "` given twice (first at line " + std::to_string(seen) + ")");
    if (seen == 0) seen = ctx.line.number;
    switch (rank) {
      case 0: return header_parser_.kernel(ctx);
      case 1: return header_parser_.topology(ctx);
      case 2: return header_parser_.hz(ctx);
      case 3: return header_parser_.base_slice(ctx);
      case kFeaturesRank: return header_parser_.features(ctx);
      default: return duration(ctx);
    }
  }

  void duration(const Context& ctx) {
    const Token& t = ctx.token(1, "a duration such as `10s`");
    workload_.duration_ns = ctx.duration(t);
    if (workload_.duration_ns == 0) ctx.fail_at(t, "duration must be more than 0");
    ctx.expect_end(2);
  }

  void group(const Context& ctx) {
    if (!workload_.groups.empty()) finish_group();
    const Token& name = ctx.token(1, "a group name");
    if (!is_group_name(name.text))
      ctx.fail_at(name, "a group name is a word of letters, digits, _ and -, found `" + shown(name.text) + "`");
    for (const Group& g : workload_.groups)
      if (g.name == name.text)
        ctx.fail_at(name, "group `" + name.text + "` defined twice (first at line " + std::to_string(g.line) + ")");
    Group g;
    g.name = name.text;
    g.line = ctx.line.number;
    bool seen[kGroupKeys.size()] = {};
    for (std::size_t i = 2; i < ctx.line.tokens.size(); ++i) {
      const Token& t = ctx.line.tokens[i];
      const auto o = trace::detail::split_option(t);
      const int k = o ? index_of(kGroupKeys, o->key) : -1;
      if (k < 0)
        ctx.fail_at(t, "expected count=, nice=, slice=, cpus= or start=, found `" + shown(t.text) + "`",
                    o ? trace::did_you_mean(o->key, kGroupKeys) : std::string{});
      if (seen[k]) ctx.fail_at(t, std::string("`") + kGroupKeys[static_cast<std::size_t>(k)] + "=` given twice");
      seen[k] = true;
      const Token value{o->value, o->value_column};
      switch (k) {
        case 0: g.count = static_cast<int>(ctx.integer(value, 1, kGroupCountMax, "count")); break;
        case 1: g.nice = static_cast<int>(ctx.integer(value, -20, 19, "nice")); break;
        case 2: g.slice_ns = slice(ctx, value); break;
        case 3: g.cpus = cpu_list(ctx, *o); break;
        default: g.start_ns = ctx.duration(value); break;
      }
    }
    workload_.groups.push_back(std::move(g));
    group_name_columns_.push_back(name.column);
  }

  // As a trace task's slice=, but out-of-bounds values are errors, not clamped.
  static std::uint64_t slice(const Context& ctx, const Token& t) {
    const std::uint64_t ns = ctx.duration(t);
    if (ns != 0 && (ns < model::CUSTOM_SLICE_MIN_NS || ns > model::CUSTOM_SLICE_MAX_NS))
      ctx.fail_at(t, "slice " + shown(t.text) + " is out of range 0.1ms..100ms", "0 means the default slice");
    return ns;
  }

  void program_statement(const Context& ctx, Op::Kind kind) {
    Group& g = workload_.groups.back();
    Op op;
    op.kind = kind;
    op.line = ctx.line.number;
    std::size_t end = 1;
    switch (kind) {
      case Op::run:
        op.dist = dist(ctx, ctx.token(1, "a duration such as `20us` or a range such as `10us..30us`"));
        end = 2;
        break;
      case Op::sleep:
        op.dist = dist(ctx, ctx.token(1, "a duration such as `1ms` or a range such as `1ms..2ms`"));
        end = io(ctx, 2, op.io);
        break;
      case Op::wait: end = io(ctx, 1, op.io); break;
      case Op::wake: end = wake(ctx, op); break;
      case Op::yield: break;
      case Op::renice:
        op.nice = static_cast<int>(ctx.integer(ctx.token(1, "a nice value -20..19"), -20, 19, "nice"));
        end = 2;
        break;
    }
    ctx.expect_end(end);
    g.program.push_back(op);
  }

  std::size_t wake(const Context& ctx, Op& op) {
    const Token& name = ctx.token(1, "a group name");
    wakes_.push_back({workload_.groups.size() - 1, workload_.groups.back().program.size(), name, ctx.line.number});
    if (ctx.line.tokens.size() < 3) return 2;
    const Token& whom = ctx.line.tokens[2];
    if (whom.text == "all") op.whom = WakeWhom::all;
    else if (whom.text == "one") op.whom = WakeWhom::one;
    else ctx.fail_at(whom, "expected `all` or `one`, found `" + shown(whom.text) + "`");
    return 3;
  }

  // The checks that need the group's whole program.
  void finish_group() const {
    const Group& g = workload_.groups.back();
    const trace::SourceLoc at{file_, g.line, group_name_columns_.back()};
    if (g.program.empty())
      throw trace::TraceError(at, "group `" + g.name + "` has an empty program",
                              "the statements below a `group` line, such as `run 1ms`, are its program");
    const bool spends_time = std::any_of(g.program.begin(), g.program.end(), [](const Op& op) {
      return (op.kind == Op::run || op.kind == Op::sleep) && op.dist.lo >= 1;
    });
    if (!spends_time)
      throw trace::TraceError(at, "group `" + g.name +
                                      "` never spends time: give it a `run` or `sleep` of at least 1ns");
  }

  void resolve_wakes() {
    std::vector<std::string> names;
    for (const Group& g : workload_.groups) names.push_back(g.name);
    for (const PendingWake& w : wakes_) {
      const auto it = std::find(names.begin(), names.end(), w.name.text);
      if (it == names.end())
        throw trace::TraceError({file_, w.line, w.name.column}, "unknown group `" + shown(w.name.text) + "`",
                                trace::did_you_mean(w.name.text, names));
      workload_.groups[w.group].program[w.op].group = static_cast<int>(it - names.begin());
    }
  }

  const std::string& file_;
  trace::Header header_;  // the shared settings, as the trace header parser keeps them
  trace::detail::HeaderParser header_parser_;
  Workload workload_;
  bool started_ = false;
  int version_line_ = 0;
  std::array<int, kSettings.size()> setting_lines_{};  // where each setting first appeared
  std::vector<int> group_name_columns_;                // per group, for its messages
  std::vector<PendingWake> wakes_;
};

}  // namespace

Workload read_workload(const std::string& text, const std::string& file) { return Reader(file).read(text); }

}  // namespace eevdf::lab
