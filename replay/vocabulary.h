// The names eevdf-check knows, gathered from model/ and properties/ for the parser.
#pragma once

#include "trace/vocabulary.h"

namespace eevdf::replay {

const trace::Vocabulary& vocabulary();

}  // namespace eevdf::replay
