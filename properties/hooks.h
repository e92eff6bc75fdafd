// Which hooks a property class overrides, found at compile time, so that the Checker
// calls each property only at the hooks it looks at: a replay fires about a dozen
// hooks per event and most properties override two or three of them (docs/PROPERTIES.md:
// a checked replay costs at most 3x a plain one). A property made without its mask
// (Property's default) is called at every hook, as before.
#pragma once

#include <cstdint>      // the mask
#include <type_traits>  // is_same

#include "model/observer.h"

namespace eevdf::properties {

template <class A, class P>
class Property;

// One bit per hook of model::Observer the Checker fans out, plus the event boundaries.
enum class Hook : unsigned {
  lag_stored,
  placed,
  picked,
  set_next,
  protection_set,
  buddy_set,
  charged,
  wakeup_entered,
  wakeup_pick_step,
  wakeup_decided,
  wakeup_skipped,
  protection_changed,
  delay_entered,
  delay_left,
  block_completed,
  v0_moved,
  yielded,
  before_event,
  after_event_on,
  after_event,
  finish,
  count,
};

inline constexpr std::uint32_t hook_bit(Hook h) { return std::uint32_t{1} << static_cast<unsigned>(h); }
inline constexpr std::uint32_t kAllHooks = hook_bit(Hook::count) - 1;

// `&T::f` names the base's member unless T (or a class between) declares f, and then
// its type names that class: an override is a member pointer of another type.
#define EEVDF_HOOK_BIT(base, f) (std::is_same_v<decltype(&T::f), decltype(&base::f)> ? 0u : hook_bit(Hook::f))

template <class T, class A, class P>
constexpr std::uint32_t hooks_of() {
  using O = model::Observer<A>;
  using B = Property<A, P>;
  return EEVDF_HOOK_BIT(O, lag_stored) | EEVDF_HOOK_BIT(O, placed) | EEVDF_HOOK_BIT(O, picked) |
         EEVDF_HOOK_BIT(O, set_next) | EEVDF_HOOK_BIT(O, protection_set) | EEVDF_HOOK_BIT(O, buddy_set) |
         EEVDF_HOOK_BIT(O, charged) | EEVDF_HOOK_BIT(O, wakeup_entered) | EEVDF_HOOK_BIT(O, wakeup_pick_step) | EEVDF_HOOK_BIT(O, wakeup_decided) |
         EEVDF_HOOK_BIT(O, wakeup_skipped) | EEVDF_HOOK_BIT(O, protection_changed) |
         EEVDF_HOOK_BIT(O, delay_entered) | EEVDF_HOOK_BIT(O, delay_left) | EEVDF_HOOK_BIT(O, block_completed) |
         EEVDF_HOOK_BIT(O, v0_moved) | EEVDF_HOOK_BIT(O, yielded) | EEVDF_HOOK_BIT(B, before_event) | EEVDF_HOOK_BIT(B, after_event_on) |
         EEVDF_HOOK_BIT(B, after_event) |
         EEVDF_HOOK_BIT(B, finish);
}

#undef EEVDF_HOOK_BIT

}  // namespace eevdf::properties
