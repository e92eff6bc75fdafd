// Internal to the parser: one statement's tokens with their columns, and the
// helpers every grammar rule uses to read a token or fail at its column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/error.h"
#include "trace/trace.h"
#include "trace/vocabulary.h"

namespace eevdf::trace::detail {

// Bounds the memory one line may take, so that random bytes cannot exhaust memory.
inline constexpr std::size_t kLineBytesMax = 64 * 1024;
// Beyond this a topology is no machine the kernel's sched domains model; it also
// bounds per-CPU arrays a fuzzed header could ask for.
inline constexpr int kCpusMax = 4096;
// TICK_NSEC must stay >= 10 us; real kernels use HZ in 100..1000.
inline constexpr int kHzMax = 100000;
// sysctl_sched_base_slice is an unsigned int and the scaling multiplies by up to 8.
inline constexpr std::uint64_t kBaseSliceNsMax = 0xFFFF'FFFFull / 8;
inline constexpr std::int64_t kTaskIdMax = 1'000'000'000;

struct Token {
  std::string text;
  int column = 0;
};

struct Line {
  int number = 0;
  std::vector<Token> tokens;
  std::string comment;  // text after '#', without it
  bool empty() const { return tokens.empty(); }
};

// Splits one physical line into tokens; a '#' starts a comment.
Line tokenize(std::string_view text, int number);

// Printable form of a token for messages (control bytes escaped).
std::string shown(std::string_view text);

// The state a statement's grammar needs: where we are, what the header declared.
struct Context {
  const std::string& file;
  const Vocabulary& vocab;
  const Header& header;
  const Line& line;

  [[noreturn]] void fail(int column, const std::string& message, std::string hint = {}) const;
  [[noreturn]] void fail_at(const Token& t, const std::string& message, std::string hint = {}) const {
    fail(t.column, message, std::move(hint));
  }
  // The token after the last one, for "expected X" at the end of the line.
  int end_column() const;
  const Token& token(std::size_t i, const char* expected) const;
  void expect_end(std::size_t count) const;

  int task_id(const Token& t) const;       // a declared task
  int cpu(const Token& t) const;           // 0 .. ncpus-1
  std::uint64_t duration(const Token& t) const;
  std::int64_t integer(const Token& t, std::int64_t lo, std::int64_t hi, const char* what) const;
  bool yes_no(const Token& t) const;
};

// key=value split; nullopt when the token has no '=' (a positional word).
struct Option {
  std::string key;
  std::string value;
  int value_column = 0;
};
std::optional<Option> split_option(const Token& t);

Event parse_event(const Context& ctx);
Expect parse_expect(const Context& ctx);  // `expect <query> ...`, not violation/clean

}  // namespace eevdf::trace::detail
