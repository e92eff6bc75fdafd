// The one place the model's templates are instantiated, for both arithmetics
// (one algorithm over an arithmetic policy: a disagreement between arithmetics is a finding, never a fork of the code).
#include "model/machine.h"

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/core-inl.h"
#include "model/fair-inl.h"
#include "model/machine_copy-inl.h"

namespace eevdf::model {

template class Machine<KernelArith, profile_6_18>;
template class Machine<IdealArith, profile_6_18>;
template class Machine<KernelArith, profile_6_12>;
template class Machine<IdealArith, profile_6_12>;

}  // namespace eevdf::model
