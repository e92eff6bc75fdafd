// The fast model built scalar (this file is compiled without auto-vectorization):
// its one instantiation (docs/FAST_MODEL.md).
#include "model/fast/fast_machine.h"

#include "model/fast/fast_core-inl.h"
#include "model/fast/fast_fair-inl.h"

namespace eevdf::model::fast {

template class FastMachine<false>;

}  // namespace eevdf::model::fast
