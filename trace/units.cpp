// Durations and numbers of the trace format; see units.h.
#include "trace/units.h"

#include <array>
#include "base/assert.h"
#include <charconv>

namespace eevdf::trace {
namespace {

struct Unit {
  std::string_view suffix;
  std::uint64_t ns;
  int decimals;  // log10(ns)
};
// Longest suffix first so that "ns" is not read as "s".
constexpr std::array<Unit, 4> kUnits{{
    {"ns", 1, 0}, {"us", 1000, 3}, {"ms", 1000000, 6}, {"s", 1000000000, 9}}};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// value * 10^k + frac, checking every step for u64 overflow.
bool scale_add(std::uint64_t value, int k, std::uint64_t frac, std::uint64_t& out) {
  for (int i = 0; i < k; ++i)
    if (__builtin_mul_overflow(value, 10u, &value)) return false;
  return !__builtin_add_overflow(value, frac, &out);
}

}  // namespace

DurationParse parse_duration(std::string_view text) {
  const Unit* unit = nullptr;
  for (const Unit& u : kUnits) {
    if (text.size() > u.suffix.size() && text.ends_with(u.suffix) &&
        (u.suffix != "s" || !text.ends_with("ns"))) {
      unit = &u;
      break;
    }
  }
  std::string_view number = unit ? text.substr(0, text.size() - unit->suffix.size()) : text;
  const std::size_t dot = number.find('.');
  std::string_view whole = number.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : number.substr(dot + 1);
  if (!all_digits(whole) || (dot != std::string_view::npos && !all_digits(frac)))
    return {0, DurationError::syntax};
  if (dot != std::string_view::npos && unit == nullptr) return {0, DurationError::unit_needed};
  const int decimals = unit ? unit->decimals : 0;
  // Digits beyond the unit's nanosecond resolution must all be zero.
  while (frac.size() > static_cast<std::size_t>(decimals)) {
    if (frac.back() != '0') return {0, DurationError::not_whole_ns};
    frac.remove_suffix(1);
  }
  const auto whole_value = parse_uint(whole);
  if (!whole_value) return {0, DurationError::too_large};
  std::uint64_t frac_value = 0;
  if (!frac.empty() && !scale_add(*parse_uint(frac), decimals - static_cast<int>(frac.size()), 0,
                                  frac_value))
    return {0, DurationError::too_large};
  std::uint64_t ns = 0;
  if (!scale_add(*whole_value, decimals, frac_value, ns)) return {0, DurationError::too_large};
  return {ns, DurationError::none};
}

const char* duration_error_text(DurationError e) {
  switch (e) {
    case DurationError::none: return "ok";
    case DurationError::syntax: return "expected a duration such as 700000, 1.5ms or 4s";
    case DurationError::unit_needed: return "a decimal duration needs a unit (ns, us, ms, s)";
    case DurationError::not_whole_ns: return "a duration must be a whole number of nanoseconds";
    case DurationError::too_large: return "duration does not fit in 64 bits of nanoseconds";
  }
  return "?";
}

std::string format_duration(std::uint64_t ns) {
  if (ns == 0) return "0";
  const Unit* unit = &kUnits[0];
  for (const Unit& u : kUnits)
    if (ns >= u.ns) unit = &u;
  std::string out = std::to_string(ns / unit->ns);
  std::string frac = std::to_string(ns % unit->ns);
  if (unit->decimals > 0 && ns % unit->ns != 0) {
    frac.insert(0, static_cast<std::size_t>(unit->decimals) - frac.size(), '0');
    while (frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  EEVDF_ASSERT(parse_duration(out + std::string(unit->suffix)).ns == ns, out);
  return out + std::string(unit->suffix);
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  if (text.starts_with('+')) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_uint(std::string_view text) {
  std::uint64_t value = 0;
  if (!all_digits(text)) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

RationalParse parse_rational(std::string_view text, bool allow_decimal) {
  RationalParse out;
  std::string sign;
  if (text.starts_with('-')) {
    sign = "-";
    text.remove_prefix(1);
  }
  const std::size_t slash = text.find('/');
  const std::size_t dot = text.find('.');
  if (slash != std::string_view::npos) {
    std::string_view p = text.substr(0, slash), q = text.substr(slash + 1);
    if (!all_digits(p) || !all_digits(q) || q.find_first_not_of('0') == std::string_view::npos)
      return out;
    out.numerator = sign + std::string(p);
    out.denominator = std::string(q);
  } else if (dot != std::string_view::npos && allow_decimal) {
    std::string_view w = text.substr(0, dot), f = text.substr(dot + 1);
    if (!all_digits(w) || !all_digits(f)) return out;
    out.numerator = sign + std::string(w) + std::string(f);
    out.denominator = "1" + std::string(f.size(), '0');
  } else {
    if (!all_digits(text)) return out;
    out.numerator = sign + std::string(text);
    out.denominator = "1";
  }
  out.ok = true;
  return out;
}

}  // namespace eevdf::trace
