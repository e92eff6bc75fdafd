// A file the build embedded in the program (cmake/embed.cmake).
#pragma once

#include <string_view>

namespace eevdf {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository
  std::string_view text;
};

}  // namespace eevdf
