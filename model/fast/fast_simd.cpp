// The fast model built with the 4-lane scans (this file is compiled with AVX2):
// its one instantiation (docs/FAST_MODEL.md).
#include "model/fast/fast_machine.h"

#include "model/fast/fast_core-inl.h"
#include "model/fast/fast_fair-inl.h"

namespace eevdf::model::fast {

template class FastMachine<true>;

}  // namespace eevdf::model::fast
