// The streaming reader: lines, the header's order rule, and the body's time order.
#include "trace/reader.h"

#include "base/assert.h"
#include <sstream>

#include "trace/line.h"
#include "trace/parse_header.h"

namespace eevdf::trace {

using detail::Line;

struct TraceReader::State {
  std::istream& in;
  std::string file;
  const Vocabulary& vocab;
  Header header;
  detail::HeaderParser header_parser;
  Line line;
  std::string raw;
  int line_number = 0;
  bool header_done = false;
  bool have_pending = false;  // `line` holds the first event, read while parsing the header
  std::uint64_t last_time_ns = 0;
  int last_time_line = 0;

  State(std::istream& i, std::string f, const Vocabulary& v)
      : in(i), file(std::move(f)), vocab(v), header_parser(header) {}

  detail::Context context() const { return {file, vocab, header, line}; }

  // Reads the next line that has tokens into `line`; false at end of input.
  bool read_line() {
    while (true) {
      raw.clear();
      if (!std::getline(in, raw)) {
        if (in.bad()) throw TraceError({file, line_number + 1, 0}, "read error");
        return false;
      }
      ++line_number;
      if (raw.size() > detail::kLineBytesMax)
        throw TraceError({file, line_number, 0},
                         "line longer than " + std::to_string(detail::kLineBytesMax) + " bytes");
      line = detail::tokenize(raw, line_number);
      if (!line.empty()) return true;
      if (!header_parser.started() && !line.comment.empty()) header.preamble.push_back(line.comment);
    }
  }

  void parse_header() {
    while (read_line()) {
      if (line.tokens[0].text.starts_with('@')) {
        if (!header_parser.started()) header_parser.statement(context());  // fails: no version line
        have_pending = true;
        break;
      }
      header_parser.statement(context());
    }
    if (!header_parser.started())
      throw TraceError({file, line_number + 1, 0}, "empty trace: expected `eevdf-trace 1`");
    header_done = true;
  }

  BodyStatement body_statement() {
    const detail::Context ctx = context();
    const std::string& first = line.tokens[0].text;
    if (first.starts_with('@')) {
      Event e = detail::parse_event(ctx);
      if (e.time_ns < last_time_ns)
        ctx.fail(line.tokens[0].column + 1,
                 "time goes backwards (the event at line " + std::to_string(last_time_line) +
                     " is later)");
      last_time_ns = e.time_ns;
      last_time_line = line.number;
      return e;
    }
    if (first == "expect") {
      const detail::Token& what = ctx.token(1, "a query");
      if (what.text == "violation" || what.text == "finding" || what.text == "clean")
        ctx.fail_at(what, "trace-wide `expect " + what.text + "` belongs in the header");
      return detail::parse_expect(ctx);
    }
    if (detail::HeaderParser::is_keyword(first))
      ctx.fail_at(line.tokens[0], "header statement `" + first + "` after the first event");
    ctx.fail_at(line.tokens[0], "unknown statement `" + detail::shown(first) + "`",
                "events start with `@<time>`");
  }
};

TraceReader::TraceReader(std::istream& in, std::string file, const Vocabulary& vocab)
    : state_(std::make_unique<State>(in, std::move(file), vocab)) {}

TraceReader::~TraceReader() = default;

const std::string& TraceReader::file() const { return state_->file; }

const Header& TraceReader::header() {
  if (!state_->header_done) state_->parse_header();
  return state_->header;
}

std::optional<BodyStatement> TraceReader::next() {
  header();
  if (state_->have_pending) {
    state_->have_pending = false;
  } else if (!state_->read_line()) {
    return std::nullopt;
  }
  return state_->body_statement();
}

Trace parse_trace(std::istream& in, const std::string& file, const Vocabulary& vocab) {
  TraceReader reader(in, file, vocab);
  Trace trace;
  trace.header = reader.header();
  while (auto s = reader.next()) trace.body.push_back(std::move(*s));
  return trace;
}

Trace parse_trace_text(const std::string& text, const std::string& file, const Vocabulary& vocab) {
  std::istringstream in(text);
  return parse_trace(in, file, vocab);
}

}  // namespace eevdf::trace
