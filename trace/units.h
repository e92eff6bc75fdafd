// Numbers and durations as the trace format writes them (docs/TRACE_FORMAT.md, lexical
// rules): integers in ns, or decimals with a unit suffix ns/us/ms/s.
#pragma once

#include <cstdint>      // std::uint64_t, std::int64_t
#include <optional>     // parse results
#include <string>       // formatted output
#include <string_view>  // tokens

namespace eevdf::trace {

// Why a duration failed to parse; the parser turns it into a located message.
enum class DurationError { none, syntax, unit_needed, not_whole_ns, too_large };

struct DurationParse {
  std::uint64_t ns = 0;
  DurationError error = DurationError::none;
};

// `1.5ms` -> 1500000; a plain integer is ns; a fraction of a ns is an error.
DurationParse parse_duration(std::string_view text);
const char* duration_error_text(DurationError);

// Canonical form: the largest unit that is <= the value, trailing zeros trimmed
// (1500000 -> "1.5ms", 999 -> "999ns", 0 -> "0").
std::string format_duration(std::uint64_t ns);

// Decimal integers with overflow detection (std::from_chars, no locale).
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<std::uint64_t> parse_uint(std::string_view text);

// `-3/4`, `12`, `1.25` -> an exact p/q text pair with q > 0 (digits only, not reduced).
struct RationalParse {
  bool ok = false;
  std::string numerator;
  std::string denominator;
};
RationalParse parse_rational(std::string_view text, bool allow_decimal);

}  // namespace eevdf::trace
