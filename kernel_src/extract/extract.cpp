// ksrc_extract: the build-time extraction of the default tree (closure.h): reads the
// tree's EEVDF files and the repository's shim and harness, writes the extracted C
// file and the detected shape. Run on the installed Debian kernel source; nothing it
// reads enters the repository.
//
// Usage: ksrc_extract <tree root> <repository kernel_src dir> <out.c> <out config.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "kernel_src/extract/closure.h"
#include "kernel_src/extract/tree_files.h"

namespace {

using namespace eevdf::kernel_src::extract;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

Source source(const std::string& root, std::string_view rel) {
  Source s{std::string(rel), {}};
  if (!read_file(root + "/" + s.path, s.text)) throw Error{root + "/" + s.path, "cannot read"};
  return s;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream o(path, std::ios::binary);
  o << text;
  return static_cast<bool>(o);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: ksrc_extract <tree root> <repository kernel_src dir> <out.c> <out config.h>\n";
    return 2;
  }
  const std::string tree = argv[1], repo = argv[2];
  try {
    Request r;
    for (std::string_view f : kTreeFiles) r.kernel.push_back(source(tree, f));
    for (std::string_view f : kTreeHeaders) r.headers.push_back(source(tree, f));
    for (std::string_view f : kShimFiles) r.boundary.push_back(source(repo, f));
    r.harness = source(repo, kHarnessFile);
    const Result x = extract(r);
    if (!write_file(argv[3], x.c_text) || !write_file(argv[4], x.config_h)) {
      std::cerr << "ksrc_extract: cannot write " << argv[3] << " or " << argv[4] << "\n";
      return 1;
    }
    std::cout << "ksrc_extract: " << x.functions.size() << " functions from " << tree << "\n";
  } catch (const Error& e) {
    std::cerr << e.where << ": ksrc_extract: " << e.message << "\n";
    return 1;
  }
  return 0;
}
