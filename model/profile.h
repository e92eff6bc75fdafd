// The seam between kernel versions (a `kernel 6.12` profile beside 6.18, docs/MODEL.md §0).
// What differs between versions — slice protection, the upkeep of the reference
// point v0, the reweight, the protection rules of update_curr, the pick and the
// wakeup check — lives in profile_ops<A, Profile, Machine>, one partial
// specialization per profile, which Machine<A, Profile> inherits. Everything else
// is shared fair.c logic. No if-branches on a version anywhere.
#pragma once

#include <string_view>  // profile names

namespace eevdf::model {

// v6.18.2 with the tree's min_slice kept exact (docs/MODEL.md §3.3).
struct profile_6_18 {
  static constexpr std::string_view name = "6.18";
};

// Debian's 6.12.117 (package linux-source-6.12): profile_6_12.h.
struct profile_6_12 {
  static constexpr std::string_view name = "6.12";
};

template <class A, class Profile, class M>
class profile_ops;  // defined per profile: profile_6_18-inl.h, ...

}  // namespace eevdf::model
