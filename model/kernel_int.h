// Kernel integer helpers: the checked casts and bit operations of the model, in one place
// (no bare signed/unsigned casts in model code: each one says what it may do to the value). A cast that
// would change a value fails an assertion instead of wrapping silently; a truncation the
// kernel relies on (docs/MODEL.md §1.1, §1.3) is spelled out by name.
#pragma once

#include <bit>      // std::bit_width
#include <cassert>  // assert
#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint32_t, std::uint64_t
#include <limits>   // std::numeric_limits

namespace eevdf::model {

/// Unsigned 128-bit integer for the intermediate of mul_u64_u32_shr (§1.3 step 5). A
/// GCC/Clang extension, hence `__extension__` to keep -Wpedantic quiet.
__extension__ using u128 = unsigned __int128;

/// A non-negative int as an array index (§1.2: nice + 20 indexes the weight tables).
inline std::size_t to_size(int value) {
  assert(value >= 0 && "an index is never negative");
  return static_cast<std::size_t>(value);
}

/// A non-negative int as u32 (§2: the CPU count the kernel keeps as `unsigned int`).
inline std::uint32_t to_u32(int value) {
  assert(value >= 0 && "a count is never negative");
  return static_cast<std::uint32_t>(value);
}

/// A u64 the caller knows fits in 32 bits (§1.3: the kernel's `(u32)` where no bit is lost).
inline std::uint32_t narrow_u32(std::uint64_t value) {
  assert(value <= std::numeric_limits<std::uint32_t>::max() && "value must fit u32");
  return static_cast<std::uint32_t>(value);
}

/// The kernel's `(u64)` of a 128-bit value (§1.3 step 5): keeps the low 64 bits on purpose,
/// so an oversized __calc_delta result wraps exactly as it does in the kernel.
inline std::uint64_t truncate_u64(u128 value) {
  const auto low = static_cast<std::uint64_t>(value);
  assert(static_cast<u128>(low) == (value & std::numeric_limits<std::uint64_t>::max()));
  return low;
}

/// fls(): 1-based index of the most significant set bit, 0 for 0 (§1.3 steps 2 and 4;
/// include/asm-generic/bitops/fls.h).
inline int fls(std::uint32_t x) {
  const int result = static_cast<int>(std::bit_width(x));
  assert(result >= 0 && result <= 32);
  assert((result == 0) == (x == 0) && "only 0 has no set bit");
  return result;
}

/// ilog2(): floor(log2(x)) for x > 0 (§2 base-slice factor; include/linux/log2.h).
inline int ilog2(std::uint32_t x) {
  assert(x != 0 && "ilog2(0) is undefined in the kernel");
  const int result = fls(x) - 1;
  assert(result >= 0 && result <= 31);
  return result;
}

}  // namespace eevdf::model
