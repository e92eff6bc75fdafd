// The harness's sources as the build embedded them (cmake/embed.cmake): what a
// tree built at run time (tree_build.h) compiles with its extracted code.
#pragma once

#include <vector>

#include "base/embedded_file.h"

namespace eevdf::kernel_src {

using eevdf::EmbeddedFile;  // path: kernel_src/harness.c, ...

const std::vector<EmbeddedFile>& embedded_sources();

}  // namespace eevdf::kernel_src
