// INVARIANTS.md: delayed dequeue (delayed_entry, delayed_frozen,
// delayed_completion) and the fairness bounds (lag_bound, lag_bound_steady).
// (Being written; registered through register_delayed.)
#pragma once

#include "properties/registry_table.h"

namespace eevdf::properties {

template <class A>
void register_delayed(Table<A>& /*table*/) {}

}  // namespace eevdf::properties
