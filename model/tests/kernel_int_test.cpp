// Tests model/kernel_int.h: the kernel bit helpers fls() and ilog2() on their edges, and
// the deliberate u64 truncation of a 128-bit value. Expected values are worked by hand in
// the comments (binary expansions), never taken from running the code. This file also
// refuses to build with NDEBUG, because the model's assertions must stay on in tests.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/kernel_int.h"

#ifdef NDEBUG
#error "assertions must stay on in tests (they are the model's pre- and postconditions): build with -UNDEBUG"
#endif

namespace m = eevdf::model;

TEST_CASE("fls is the 1-based index of the top set bit", "[kernel_int]") {
  CHECK(m::fls(0) == 0);            // no set bit
  CHECK(m::fls(1) == 1);            // bit 0
  CHECK(m::fls(2) == 2);            // 10b
  CHECK(m::fls(18) == 5);           // 10010b: top bit 4, 1-based 5
  CHECK(m::fls(68) == 7);           // 1000100b: top bit 6, 1-based 7
  CHECK(m::fls(0x8000'0000U) == 32);  // bit 31
  CHECK(m::fls(0xFFFF'FFFFU) == 32);
}

TEST_CASE("ilog2 floors log2", "[kernel_int]") {
  CHECK(m::ilog2(1) == 0);
  CHECK(m::ilog2(2) == 1);
  CHECK(m::ilog2(3) == 1);  // 11b
  CHECK(m::ilog2(4) == 2);
  CHECK(m::ilog2(7) == 2);  // 111b
  CHECK(m::ilog2(8) == 3);
  CHECK(m::ilog2(0xFFFF'FFFFU) == 31);
}

TEST_CASE("truncate_u64 keeps the low 64 bits", "[kernel_int]") {
  // (2^64 + 5) truncates to 5; 2^100 + 2^63 truncates to 2^63.
  const m::u128 two_64 = m::u128{1} << 64;
  CHECK(m::truncate_u64(two_64 + 5) == 5U);
  CHECK(m::truncate_u64((m::u128{1} << 100) + (m::u128{1} << 63)) == (std::uint64_t{1} << 63));
  CHECK(m::truncate_u64(two_64 - 1) == UINT64_MAX);
}

TEST_CASE("checked casts keep in-range values", "[kernel_int]") {
  CHECK(m::to_size(0) == 0U);
  CHECK(m::to_size(39) == 39U);
  CHECK(m::to_u32(4096) == 4096U);
  CHECK(m::narrow_u32(0xFFFF'FFFFULL) == 0xFFFF'FFFFU);
}
