// INVARIANTS.md: placement and lag (placement_eligible, placement_preserves_lag,
// migration_preserves_lag, reweight_preserves_lag, lag_clamped) and
// service_conservation. (Being written; registered through register_lag.)
#pragma once

#include "properties/registry_table.h"

namespace eevdf::properties {

template <class A>
void register_lag(Table<A>& /*table*/) {}

}  // namespace eevdf::properties
