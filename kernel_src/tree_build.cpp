// The run-time build of a kernel tree (tree_build.h).
#include "kernel_src/tree_build.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>  // getpid

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include "kernel_src/embedded_sources.h"
#include "kernel_src/extract/closure.h"
#include "kernel_src/extract/tree_files.h"

namespace eevdf::kernel_src {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TreeError{path.string(), "cannot read it (is this a kernel tree?)"};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream o(path, std::ios::binary);
  o << text;
  if (!o) throw TreeError{path.string(), "cannot write it"};
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// FNV-1a, 64 bits: the cache key (not a security boundary: the cache is the user's).
struct Hash {
  std::uint64_t h = 14695981039346656037ull;
  void add(std::string_view s) {
    for (char ch : s) {
      h ^= static_cast<unsigned char>(ch);
      h *= 1099511628211ull;
    }
    h ^= 0xff;  // a separator: ("ab","c") and ("a","bc") differ
    h *= 1099511628211ull;
  }
  std::string hex() const { return fmt::format("{:016x}", h); }
};

// The release in the tree's top Makefile: VERSION.PATCHLEVEL.SUBLEVEL plus EXTRAVERSION.
std::string release_of(const fs::path& dir) {
  std::ifstream in(dir / "Makefile");
  std::map<std::string, std::string> v;
  std::string line;
  for (int n = 0; n < 20 && std::getline(in, line); ++n) {
    static const std::regex assign(R"(^\s*(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)\s*$)");
    std::smatch m;
    if (std::regex_match(line, m, assign)) v[m[1]] = m[2];
  }
  if (v.count("VERSION") == 0) return "unknown release";
  std::string r = v["VERSION"] + "." + v["PATCHLEVEL"];
  if (!v["SUBLEVEL"].empty() && v["SUBLEVEL"] != "0") r += "." + v["SUBLEVEL"];
  return r + v["EXTRAVERSION"];
}

std::string compiler() {
  const char* cc = std::getenv("CC");
  return cc != nullptr && *cc != '\0' ? cc : "cc";
}

// The first line of `cc --version`: a new compiler is a new build.
std::string compiler_identity(const std::string& cc) {
  std::string out;
  if (FILE* p = popen((quote(cc) + " --version 2>/dev/null").c_str(), "r")) {
    char buf[256];
    if (fgets(buf, sizeof buf, p) != nullptr) out = buf;
    pclose(p);
  }
  if (out.empty())
    throw TreeError{cc, "no C compiler: building a kernel tree needs one (install gcc, as ci/setup does, or set CC)"};
  return out;
}

const char* const kCompileFlags =
    "-std=gnu11 -O2 -fPIC -shared -fvisibility=hidden -fwrapv -fno-strict-aliasing -w";

// The first error of a failed compile, named by the tree's file and line (#line maps
// the extracted code back), and the function it is in.
TreeError compile_error(const fs::path& tree, const std::string& log, const fs::path& log_path) {
  static const std::regex error_line(R"((^|\n)([^:\n]+):(\d+):\d+: error: ([^\n]*))");
  static const std::regex in_function(R"(In function (?:‘|'|`)([A-Za-z_0-9]+)(?:’|'|`))");
  std::smatch m;
  if (!std::regex_search(log, m, error_line))
    return TreeError{tree.string(), "the C compiler failed (log: " + log_path.string() + ")"};
  std::string file = m[2];
  std::string function;
  const std::string before = log.substr(0, static_cast<std::size_t>(m.position(0)));
  for (auto it = std::sregex_iterator(before.begin(), before.end(), in_function); it != std::sregex_iterator(); ++it)
    function = (*it)[1];
  const bool in_tree = file.rfind("kernel/", 0) == 0 || file.rfind("lib/", 0) == 0 || file.rfind("include/", 0) == 0;
  return TreeError{(in_tree ? (tree / file).string() : file) + ":" + m[3].str(),
                   fmt::format("kernel-src cannot compile {}: {} — the harness or its shim (kernel_src/shim/) "
                               "does not provide what this code uses (compiler log: {})",
                               function.empty() ? std::string("this tree's code") : "`" + function + "`",
                               m[4].str(), log_path.string())};
}

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Tree>> trees;  // by canonical directory
  std::atomic<const Tree*> selected{nullptr};
};

Registry& registry() {
  static Registry r;
  return r;
}

// `rewrite`: the mutant schemata's (mutate/schemata.h), or none. A failed compile's
// log goes to `failed_log` when given.
Tree build(const fs::path& dir, const extract::Rewriter& rewrite = {}, std::string* failed_log = nullptr) {
  if (!fs::is_directory(dir)) throw TreeError{dir.string(), "not a directory"};
  extract::Request request;
  for (std::string_view f : extract::kTreeFiles) request.kernel.push_back({std::string(f), read_file(dir / f)});
  for (std::string_view f : extract::kTreeHeaders) request.headers.push_back({std::string(f), read_file(dir / f)});
  std::map<std::string, std::string_view> sources;  // the harness's files, by repository path
  for (const EmbeddedFile& f : embedded_sources()) sources[std::string(f.path)] = f.text;
  for (std::string_view f : extract::kShimFiles)
    request.boundary.push_back({"kernel_src/" + std::string(f), std::string(sources.at("kernel_src/" + std::string(f)))});
  request.harness = {"kernel_src/harness.c", std::string(sources.at("kernel_src/harness.c"))};
  request.rewrite = rewrite;

  extract::Result x;
  try {
    x = extract::extract(request);
  } catch (const extract::Error& e) {
    throw TreeError{(dir / e.where).string(), e.message};
  }
  Tree tree;
  tree.dir = dir.string();
  tree.version = release_of(dir);
  const std::string version_h = fmt::format("#define KSRC_KERNEL_VERSION \"{}\"\n", tree.version);
  const std::string cc = compiler();
  Hash h;
  h.add(kCompileFlags);
  h.add(compiler_identity(cc));
  h.add(x.c_text);
  h.add(x.config_h);
  h.add(version_h);
  if (rewrite) h.add("mutant schemata");
  for (const auto& [path, text] : sources) {
    h.add(path);
    h.add(text);
  }
  tree.hash = h.hex();
  const fs::path cached = fs::path(cache_root()) / "kernel-src" / tree.hash;
  tree.library = (cached / "libksrc.so").string();
  tree.from_cache = fs::exists(tree.library);
  if (tree.from_cache) return tree;

  // Compile in a private directory, then publish it whole: a concurrent run sees the
  // build complete or not at all.
  const fs::path work = cached.string() + fmt::format(".tmp{}", getpid());
  fs::remove_all(work);
  const fs::path src = work / "src";
  write_file(src / "fair_extract.c", x.c_text);
  write_file(src / "ksrc_config.h", x.config_h);
  write_file(src / "ksrc_version.h", version_h);
  for (const auto& [path, text] : sources) write_file(src / path, text);
  const fs::path log = work / "compile.log";
  const std::string command = fmt::format("{} {} -I {} -o {} {} > {} 2>&1", quote(cc), kCompileFlags,
                                          quote(src.string()), quote((work / "libksrc.so").string()),
                                          quote((src / "kernel_src/harness.c").string()), quote(log.string()));
  if (std::system(command.c_str()) != 0) {
    const fs::path failed = fs::path(cache_root()) / "kernel-src" / ("failed-" + tree.hash);
    fs::remove_all(failed);
    fs::rename(work, failed);
    if (failed_log != nullptr) *failed_log = read_file(failed / "compile.log");
    throw compile_error(dir, read_file(failed / "compile.log"), failed / "compile.log");
  }
  std::error_code ec;
  fs::rename(work, cached, ec);  // lost a race: the other build is the same build
  if (ec) fs::remove_all(work);
  return tree;
}

void load(Tree& tree) {
  void* handle = dlopen(tree.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw TreeError{tree.library, std::string("cannot load it: ") + dlerror()};
  using Get = const c::ksrc_api* (*)();
  auto get = reinterpret_cast<Get>(dlsym(handle, "ksrc_get_api"));
  if (get == nullptr || get()->abi != KSRC_ABI)
    throw TreeError{tree.library, "not a kernel-src build of this version of eevdf-check"};
  tree.api = get();  // the library stays loaded for the process
}

}  // namespace

std::string cache_root() {
  if (const char* c = std::getenv("EEVDF_CHECK_CACHE"); c != nullptr && *c != '\0') return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0')
    return (fs::path(x) / "eevdf-check").string();
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr ? home : "/tmp") / ".cache" / "eevdf-check").string();
}

const Tree& load_tree(const std::string& dir) {
  Registry& r = registry();
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(dir, ec);
  const std::string key = ec ? dir : canonical.string();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (auto it = r.trees.find(key); it != r.trees.end()) return *it->second;
  auto tree = std::make_unique<Tree>(build(ec ? fs::path(dir) : canonical));
  tree->dir = dir;
  load(*tree);
  return *r.trees.emplace(key, std::move(tree)).first->second;
}

MutantTree load_mutant_tree(const std::string& dir, const mutate::Selection& selection) {
  static const std::regex mutant_error(std::string(mutate::kMutantFilePrefix) + R"((\d+):\d+:\d+: error)");
  MutantTree out;
  mutate::Selection chosen = selection;
  // A mutant that does not compile is left out and the rest built again.
  for (int attempt = 0;; ++attempt) {
    mutate::Schemata schemata(chosen);
    std::string log;
    try {
      out.tree = build(fs::path(dir), schemata.rewriter(), &log);
      out.mutants = schemata.mutants();
      break;
    } catch (const TreeError&) {
      std::set<std::string> failed;
      for (auto it = std::sregex_iterator(log.begin(), log.end(), mutant_error); it != std::sregex_iterator(); ++it) {
        const std::size_t n = std::stoul((*it)[1]);
        if (n >= 1 && n <= schemata.mutants().size()) failed.insert(schemata.mutants()[n - 1].id);
      }
      if (failed.empty() || attempt == 8) throw;
      for (const std::string& id : failed) {
        chosen.excluded.insert(id);
        out.stillborn.push_back(id);
      }
    }
  }
  out.tree.dir = dir;
  load(out.tree);
  return out;
}

const c::ksrc_api* selected_api() {
  const Tree* t = registry().selected.load();
  return t != nullptr ? t->api : c::ksrc_get_api();
}

void select_tree(const Tree& tree) { registry().selected.store(&tree); }

std::string selected_version() {
  const Tree* t = registry().selected.load();
  return t != nullptr ? t->version : c::ksrc_get_api()->kernel_version;
}

std::string selected_dir() {
  const Tree* t = registry().selected.load();
  return t != nullptr ? t->dir : std::string();
}

}  // namespace eevdf::kernel_src
