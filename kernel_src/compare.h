// kernel_matches_reference (docs/PROPERTIES.md): the reference model's `kernel 6.12`
// profile in kernel arithmetic against kernel-src, field by field. Absolute virtual
// times are compared modulo 2^64 (the reference keeps them unwrapped).
#pragma once

#include <string>

#include "kernel_src/machine.h"
#include "model/arith_kernel.h"
#include "model/machine.h"

namespace eevdf::kernel_src {

using Reference612 = model::Machine<model::KernelArith, model::profile_6_12>;

// The first field that differs, as "task 3: deadline: reference X, kernel-src Y";
// empty when every state field and every decision view agrees.
std::string first_difference(const Reference612& ref, const Machine& k);

}  // namespace eevdf::kernel_src
