// The ideal arithmetic (§17.1): exact rationals, no rounding anywhere. vruntime
// advances by delta*1024/w exactly, V is the exact weighted mean, the placement
// inflation and the reweight scaling are exact. Nothing overflows.
#pragma once

#include <boost/multiprecision/gmp.hpp>  // mpq_rational: the GMP back end (~7x cpp_rational)

#include <cstdint>      // std::uint64_t
#include <string>       // to_string
#include <string_view>  // expression names

#include "model/overflow.h"
#include "model/weights.h"

namespace eevdf::model {

struct IdealArith {
  using value = boost::multiprecision::mpq_rational;
  static constexpr std::string_view name = "ideal";

  static value from_u64(std::uint64_t x) { return value(x); }
  static value from_s64(std::int64_t x) { return value(x); }
  static value s64(const value& exact, OverflowLog&, std::string_view) { return exact; }
  static value mul(const value& a, const value& b, OverflowLog&, std::string_view) { return a * b; }
  static value add(const value& a, const value& b, OverflowLog&, std::string_view) { return a + b; }

  // delta * NICE_0_LOAD / weight = delta * 1024 / scale_load_down(weight), exactly.
  static value calc_delta_fair(std::uint64_t delta, const load_weight& lw, OverflowLog&) {
    return value(delta) * value(NICE_0_LOAD) / value(lw.weight);
  }
  static value div_s64(const value& a, const value& b, OverflowLog&, std::string_view) { return a / b; }
  static value floor_div(const value& avg, const value& load, OverflowLog&) { return avg / load; }
  static value half(const value& vslice) { return vslice / 2; }
  static bool before(const value& a, const value& b, OverflowLog&, std::string_view) { return a < b; }
  static std::string to_string(const value& v) { return v.str(); }
};

}  // namespace eevdf::model
