// INVARIANTS.md: slice protection and rescheduling (wakeup_preempt_rule,
// lone_no_resched, slice_sane, min_slice_exact, slice_protection). (Being written;
// registered through register_protection.)
#pragma once

#include "properties/registry_table.h"

namespace eevdf::properties {

template <class A>
void register_protection(Table<A>& /*table*/) {}

}  // namespace eevdf::properties
