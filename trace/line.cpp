// Tokens and the shared token readers of the parser; see line.h.
#include "trace/line.h"

#include "base/assert.h"

#include "trace/units.h"

namespace eevdf::trace::detail {

Line tokenize(std::string_view text, int number) {
  Line line;
  line.number = number;
  const std::size_t hash = text.find('#');
  if (hash != std::string_view::npos) {
    line.comment = std::string(text.substr(hash + 1));
    text = text.substr(0, hash);
  }
  std::size_t i = 0;
  while (i < text.size()) {
    const auto blank = [&](std::size_t k) { return text[k] == ' ' || text[k] == '\t' || text[k] == '\r'; };
    while (i < text.size() && blank(i)) ++i;
    const std::size_t start = i;
    while (i < text.size() && !blank(i)) ++i;
    if (i > start)
      line.tokens.push_back({std::string(text.substr(start, i - start)), static_cast<int>(start) + 1});
  }
  return line;
}

std::string shown(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void Context::fail(int column, const std::string& message, std::string hint) const {
  throw TraceError({file, line.number, column}, message, std::move(hint));
}

int Context::end_column() const {
  if (line.tokens.empty()) return 1;
  const Token& last = line.tokens.back();
  return last.column + static_cast<int>(last.text.size()) + 1;
}

const Token& Context::token(std::size_t i, const char* expected) const {
  if (i >= line.tokens.size()) fail(end_column(), std::string("expected ") + expected);
  return line.tokens[i];
}

void Context::expect_end(std::size_t count) const {
  if (line.tokens.size() > count)
    fail_at(line.tokens[count], "unexpected `" + shown(line.tokens[count].text) + "`",
            "nothing more belongs on this line");
}

int Context::task_id(const Token& t) const {
  const auto id = parse_int(t.text);
  if (!id || *id < 1 || *id > kTaskIdMax)
    fail_at(t, "expected a task id (a positive integer), found `" + shown(t.text) + "`");
  if (header.find_task(static_cast<int>(*id)) == nullptr)
    fail_at(t, "task " + t.text + " is not declared",
            "declare it in the header: `task " + t.text + "`");
  return static_cast<int>(*id);
}

int Context::cpu(const Token& t) const {
  const int ncpus = header.topology_or_default().ncpus();
  const auto c = parse_int(t.text);
  if (!c) fail_at(t, "expected a CPU number, found `" + shown(t.text) + "`");
  if (*c < 0 || *c >= ncpus)
    fail_at(t, "CPU " + t.text + " is out of range",
            "this topology has CPUs 0.." + std::to_string(ncpus - 1));
  return static_cast<int>(*c);
}

std::uint64_t Context::duration(const Token& t) const {
  const DurationParse d = parse_duration(t.text);
  if (d.error != DurationError::none)
    fail_at(t, std::string(duration_error_text(d.error)) + ", found `" + shown(t.text) + "`");
  return d.ns;
}

std::int64_t Context::integer(const Token& t, std::int64_t lo, std::int64_t hi, const char* what) const {
  EEVDF_ASSERT(lo <= hi, "empty range");
  const auto v = parse_int(t.text);
  if (!v) fail_at(t, std::string("expected ") + what + ", found `" + shown(t.text) + "`");
  if (*v < lo || *v > hi)
    fail_at(t, std::string(what) + " " + t.text + " is out of range " + std::to_string(lo) + ".." +
                   std::to_string(hi));
  return *v;
}

bool Context::yes_no(const Token& t) const {
  if (t.text == "yes") return true;
  if (t.text == "no") return false;
  fail_at(t, "expected `yes` or `no`, found `" + shown(t.text) + "`");
}

std::optional<Option> split_option(const Token& t) {
  const std::size_t eq = t.text.find('=');
  if (eq == std::string::npos) return std::nullopt;
  return Option{t.text.substr(0, eq), t.text.substr(eq + 1), t.column + static_cast<int>(eq) + 1};
}

}  // namespace eevdf::trace::detail
