// The harness's sources as the build embedded them (embed.cmake): what a tree built at
// run time (tree_build.h) compiles with its extracted code.
#pragma once

#include <string_view>
#include <vector>

namespace eevdf::kernel_src {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository: kernel_src/harness.c, ...
  std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_sources();

}  // namespace eevdf::kernel_src
