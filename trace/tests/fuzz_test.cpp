// Fuzzes the trace parser with RapidCheck. Three input families:
//  1. random bytes (half from the whole byte range, half from the format's alphabet);
//  2. token soup: lines of format words, numbers at the edges of their ranges and
//     stray bytes, usually after a valid `eevdf-trace 1`, so the fuzz gets past line 1;
//  3. mutations of valid random traces (gen_trace.h): delete, insert or replace a
//     byte or a token, duplicate, swap or delete lines, truncate; 1 to 6 of them.
// Each input goes to parse_trace_text and, when it parses, its events to
// StaticRules::check. The property: the result is a trace or a trace::TraceError
// (located in the input, message non-empty), never another exception (an
// InternalError would be exit 3), a crash or a hang (the sanitize preset runs this
// too; ctest's TIMEOUT bounds a hang). An accepted input must also round-trip through
// the writer (the writer and the parser agree on everything the parser accepts).
//
// Case counts: 3000 per family by default; more with RC_PARAMS, e.g.
//   RC_PARAMS="max_success=100000" build/default/trace/tests/trace_tests "[fuzz]"
// A failure prints the input as a C literal and the RC_PARAMS that reproduce it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/static_rules.h"
#include "trace/tests/gen_trace.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

namespace eevdf::trace {
namespace {

constexpr int kCasesPerFamily = 3000;
constexpr int kMutationsMax = 6;

// Words and numbers a trace uses, the edges of every range, and bytes that matter to
// the tokenizer, so that mutations and soup reach past the first error.
const std::vector<std::string> kDictionary{
    "eevdf-trace", "1", "2", "kernel", "6.18", "6.12", "arith", "kernel", "ideal", "both", "topology", "1x2",
    "2x64", "64x64", "64x65", "4096x1", "0x0", "sockets=1", "llcs=2", "cores=3", "smt=2", "smt=0", "hz", "0",
    "100000", "100001", "base_slice", "10s", "10.000000001s", "features", "DELAY_DEQUEUE", "NO_DELAY_DEQUEUE",
    "NO_", "inject", "stale_min_slice", "task", "nice=-20", "nice=19", "nice=20", "slice=0", "slice=1.5ns",
    "name=a", "name=", "cpu=0", "cpu=1", "cpu=-1", "cpu=4096", "expect", "violation", "clean", "lag_bound",
    "iowait_visibility", "@0", "@1", "@1.5ms", "@18446744073709551615", "@18446744073709551616", "@", "@-1",
    "fork", "wake", "sleep", "tick", "migrate", "renice", "setslice", "yield", "exit", "all", "io", "io=noacct",
    "io=", "curr", "state", "eligible", "protected", "lag", "ideal.lag", "deadline_rel", "slice", "weight",
    "nr_running", "nr_runnable", "nr_iowait", "nr_iowait_acct", "sum_exec", "measure", "idle", "new",
    "running", "queued", "delayed", "blocked", "exited", "yes", "no", "<", "<=", "==", ">=", ">", "-3/4", "1/0",
    "0.5", "2.5ms", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1000000000",
    "1000000001", "=", "==", "#", "x", "\t", "\r", std::string(1, '\0'), "\xff", "\xc3\xa9"};

// The format's own characters, for random bytes that look like a trace.
const std::string kAlphabet = " \n\t@#=.x/-0123456789abcdefghijklmnopqrstuvwxyz_ABCDNOPRSTUY";

char draw_byte() {
  if (*rc::gen::arbitrary<bool>()) return static_cast<char>(*rc::gen::inRange(0, 256));
  return *rc::gen::elementOf(kAlphabet);
}

std::string draw_token() {
  if (*rc::gen::inRange(0, 8) == 0) return std::string(1, draw_byte());
  return *rc::gen::elementOf(kDictionary);
}

// Feeds one input to the parser and the static rules; returns how it ended (for the
// distribution). Fails the property on anything but a trace or a TraceError.
std::string feed(const std::string& input) {
  RC_LOG() << "input: " << testing::c_literal(input) << "\n";
  const Vocabulary& vocab = replay::vocabulary();
  const int lines = static_cast<int>(std::count(input.begin(), input.end(), '\n')) + 1;
  auto check_located = [&](const TraceError& e) {
    RC_LOG() << "error: " << e.what() << "\n";
    RC_ASSERT(e.loc().file == "fuzz.trace");
    RC_ASSERT(e.loc().line >= 1);
    RC_ASSERT(e.loc().line <= lines + 1);  // +1: "empty trace" points past the end
    RC_ASSERT(e.loc().column >= 0);
    RC_ASSERT(!e.message().empty());
    RC_ASSERT(std::string_view(e.what()).starts_with("fuzz.trace:" + std::to_string(e.loc().line)));
  };
  Trace t;
  try {
    t = parse_trace_text(input, "fuzz.trace", vocab);
  } catch (const TraceError& e) {
    check_located(e);
    return "rejected by the parser";
  } catch (const std::exception& e) {
    RC_FAIL("parse_trace_text threw something else than TraceError: " + std::string(e.what()) +
            "\ninput: " + testing::c_literal(input));
  }
  StaticRules rules("fuzz.trace");
  try {
    for (const BodyStatement& s : t.body)
      if (const Event* e = std::get_if<Event>(&s)) rules.check(*e);
  } catch (const TraceError& e) {
    check_located(e);
    return "parsed, rejected by the static rules";
  } catch (const std::exception& e) {
    RC_FAIL("StaticRules threw something else than TraceError: " + std::string(e.what()) +
            "\ninput: " + testing::c_literal(input));
  }
  // The writer and the parser agree on every accepted input.
  const std::string text = to_text(t);
  try {
    RC_ASSERT(parse_trace_text(text, "fuzz.trace", vocab) == t);
  } catch (const TraceError& e) {
    RC_FAIL("an accepted input written back does not parse: " + std::string(e.what()) + "\ninput: " +
            testing::c_literal(input) + "\nwritten: " + testing::c_literal(text));
  }
  return "accepted";
}

// One mutation of `text` at positions given as fractions of its current size, so
// that the same draws stay meaningful as shrinking shortens the text.
void mutate(std::string& text) {
  const auto at = [&](std::size_t size) {
    return size == 0 ? 0 : static_cast<std::size_t>(*rc::gen::inRange<std::uint64_t>(0, size));
  };
  // Token boundaries around a position: [begin, end) of blanks-free bytes.
  const auto token_around = [&](std::size_t p) {
    auto blank = [&](std::size_t i) { return text[i] == ' ' || text[i] == '\n' || text[i] == '\t'; };
    std::size_t b = p, e = p;
    while (b > 0 && !blank(b - 1)) --b;
    while (e < text.size() && !blank(e)) ++e;
    return std::pair{b, e};
  };
  std::vector<std::string> lines;
  const auto split = [&] {
    lines.clear();
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        lines.push_back(text.substr(start, i - start));
        start = i + 1;
      }
  };
  const auto join = [&] {
    text.clear();
    for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? "\n" : "") + lines[i];
  };
  switch (*rc::gen::inRange(0, 10)) {
    case 0: if (!text.empty()) text.erase(at(text.size()), 1); return;
    case 1: text.insert(at(text.size() + 1), 1, draw_byte()); return;
    case 2: if (!text.empty()) text[at(text.size())] = draw_byte(); return;
    case 3: {
      if (text.empty()) return;
      const auto [b, e] = token_around(at(text.size()));
      text.erase(b, e - b);
      return;
    }
    case 4: text.insert(at(text.size() + 1), " " + draw_token() + " "); return;
    case 5: {
      if (text.empty()) return;
      const auto [b, e] = token_around(at(text.size()));
      text.replace(b, e - b, draw_token());
      return;
    }
    case 6: {
      split();
      const std::size_t i = at(lines.size());
      const std::string copy = lines[i];
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), copy);
      return join();
    }
    case 7: {
      split();
      const std::size_t i = at(lines.size());
      const std::size_t j = at(lines.size());
      std::swap(lines[i], lines[j]);
      return join();
    }
    case 8: {
      split();
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at(lines.size())));
      return join();
    }
    default: text.resize(at(text.size() + 1)); return;
  }
}

void report(const std::string& outcome) { RC_TAG(outcome); }

TEST_CASE("fuzz: random bytes give a trace or a TraceError", "[fuzz][property]") {
  testing::check("fuzz_random_bytes", kCasesPerFamily, [] {
    const std::size_t size = *rc::gen::inRange<std::size_t>(0, 200);
    std::string input;
    for (std::size_t i = 0; i < size; ++i) input += draw_byte();
    report(feed(input));
  });
}

TEST_CASE("fuzz: token soup gives a trace or a TraceError", "[fuzz][property]") {
  testing::check("fuzz_token_soup", kCasesPerFamily, [] {
    std::string input = *rc::gen::inRange(0, 5) == 0 ? "" : "eevdf-trace 1\n";
    const int lines = *rc::gen::inRange(0, 12);
    for (int l = 0; l < lines; ++l) {
      const int tokens = *rc::gen::inRange(1, 6);
      for (int k = 0; k < tokens; ++k) input += (k ? " " : "") + draw_token();
      input += "\n";
    }
    report(feed(input));
  });
}

TEST_CASE("fuzz: mutated valid traces give a trace or a TraceError", "[fuzz][property]") {
  testing::check("fuzz_mutations", kCasesPerFamily, [] {
    std::string input = to_text(*testgen::trace(replay::vocabulary()));
    const int mutations = *rc::gen::inRange(1, kMutationsMax + 1);
    for (int k = 0; k < mutations; ++k) mutate(input);
    report(feed(input));
  });
}

}  // namespace
}  // namespace eevdf::trace
