// xoshiro256** (Blackman and Vigna) with splitmix64 seeding; see prng.h.
#include "generator/prng.h"

namespace eevdf::generator {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Prng::Prng(std::uint64_t seed) {
  for (std::uint64_t& word : s_) word = splitmix64(seed);
}

std::uint64_t Prng::split(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t x = seed ^ (index * 0xd1342543de82ef95ull);
  splitmix64(x);
  return splitmix64(x);
}

std::uint64_t Prng::next() {
  ++draws_;
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Prng::range_inclusive(std::uint64_t lo, std::uint64_t hi) {
  EEVDF_ASSERT(lo <= hi, "empty range");
  const std::uint64_t span = hi - lo;
  if (span == ~std::uint64_t{0}) return next();
  const std::uint64_t n = span + 1;
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);  // reject the biased tail
  std::uint64_t x = next();
  for (int tries = 0; x >= limit; ++tries) {
    EEVDF_ASSERT(tries < 64, "rejection sampling does not converge");  // p < 2^-64
    x = next();
  }
  return lo + x % n;
}

std::int64_t Prng::range_inclusive_signed(std::int64_t lo, std::int64_t hi) {
  EEVDF_ASSERT(lo <= hi, "empty range");
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + range_inclusive(0, span));
}

bool Prng::chance(Ratio r) {
  EEVDF_ASSERT(r.denominator > 0 && r.numerator <= r.denominator, "not a probability");
  return range_inclusive(1, r.denominator) <= r.numerator;
}

}  // namespace eevdf::generator
