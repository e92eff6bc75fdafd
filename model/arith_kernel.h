// The kernel arithmetic (docs/MODEL.md §1, §17.2): the kernel's integer formulas and
// rounding, bit for bit, with every 64-bit overflow detected.
//
// Values are exact 128-bit integers. Each kernel operation takes 64-bit operands, so
// its exact result fits in 128 bits: computing it there and comparing with the s64
// the kernel keeps is the same check as computing in unbounded integers, at a
// fraction of the cost of Boost.Multiprecision. Absolute virtual times (vruntime,
// deadline, v0) are kept unwrapped: they equal the kernel's u64 values modulo 2^64,
// which is all the kernel ever looks at, and they let `key = v - v0` be checked.
#pragma once

#include <cstdint>      // std::int64_t, std::uint64_t
#include <string>       // to_string
#include <string_view>  // expression names

#include "model/calc_delta.h"
#include "model/kernel_int.h"
#include "model/overflow.h"
#include "model/weights.h"

namespace eevdf::model {

struct KernelArith {
  using value = s128;
  static constexpr std::string_view name = "kernel";

  static value from_u64(std::uint64_t x) { return x; }
  static value from_s64(std::int64_t x) { return x; }

  // The kernel's (s64) of an exact result: reported when it does not fit, and then
  // the two's-complement wrap the kernel would compute.
  static value s64(value exact, OverflowLog& log, std::string_view expression) {
    if (fits_s64(exact)) return exact;
    log.report(expression, exact);
    return wrap_s64(exact);
  }
  static value mul(value a, value b, OverflowLog& log, std::string_view expression) {
    return s64(a * b, log, expression);
  }
  static value add(value a, value b, OverflowLog& log, std::string_view expression) {
    return s64(a + b, log, expression);
  }

  // §1.3 calc_delta_fair; reported when __calc_delta's result was cut to 64 bits.
  static value calc_delta_fair(std::uint64_t delta, const load_weight& lw, OverflowLog& log) {
    if (lw.weight != NICE_0_LOAD && !calc_delta_fits_u64(delta, NICE_0_LOAD, lw))
      log.report("__calc_delta result exceeds u64", static_cast<value>(delta));
    return model::calc_delta_fair(delta, lw);
  }

  // §1.1 div_s64: truncation toward zero, with an s32 divisor.
  static value div_s64(value dividend, value divisor, OverflowLog& log, std::string_view expression) {
    if (divisor > INT32_MAX || divisor < INT32_MIN) {
      log.report(expression, divisor);
      divisor = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<u128>(divisor)));
    }
    if (divisor == 0) {  // the kernel would take a divide error here
      log.report("division by zero after the s32 truncation", divisor);
      return dividend;
    }
    return s64(dividend / divisor, log, expression);  // truncates toward zero, as div_s64
  }

  // §4.1 avg_vruntime: floor(avg / load), written as the kernel does ("left bias").
  static value floor_div(value avg, value load, OverflowLog& log) {
    if (avg < 0) avg = s64(avg - (load - 1), log, "avg - (load - 1) in avg_vruntime");
    return div_s64(avg, load, log, "load as div_s64 divisor in avg_vruntime");
  }

  // §6.1 step 6: vslice /= 2 on a u64.
  static value half(value vslice) { return vslice / 2; }

  // §1.1: a < b  <=>  (s64)(a - b) < 0.
  static bool before(value a, value b, OverflowLog& log, std::string_view expression) {
    return s64(a - b, log, expression) < 0;
  }

  // The high word is the sign of the low one: two comparisons against the s64 range
  // cost GCC many more instructions on __int128.
  static bool fits_s64(value v) {
    return static_cast<value>(static_cast<std::int64_t>(static_cast<std::uint64_t>(static_cast<u128>(v)))) == v;
  }
  static value wrap_s64(value v) {
    const auto low = static_cast<std::uint64_t>(static_cast<u128>(v));
    return static_cast<std::int64_t>(low);  // two's complement (C++20)
  }
  static std::string to_string(value v);
};

inline std::string KernelArith::to_string(value v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  u128 magnitude = negative ? -static_cast<u128>(v) : static_cast<u128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

}  // namespace eevdf::model
