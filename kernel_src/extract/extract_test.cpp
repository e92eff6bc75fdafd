// ksrc_extract on a small source tree of our own (written by the test, no kernel text):
// a function whose type sits on the line above its name, a renamed one, a multi-line
// macro, a top-level macro invocation; and the loud failures, naming the item, when
// a function is missing or defined twice.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>  // WEXITSTATUS
#include <unistd.h>    // getpid

namespace {

namespace fs = std::filesystem;

// One directory per test case and process: ctest runs the cases in parallel.
fs::path kRoot;

void use_root(const std::string& name) {
  kRoot = fs::temp_directory_path() / ("ksrc_extract_test_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(kRoot);
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the extractor on `list`; its exit code, the output in `out`, stderr in `err`.
int extract(const std::string& list, std::string& out, std::string& err) {
  write(kRoot / "list.txt", list);
  const std::string command = std::string(KSRC_EXTRACT) + " " + (kRoot / "src").string() + " " +
                              (kRoot / "list.txt").string() + " " + (kRoot / "out.c").string() + " 2> " +
                              (kRoot / "err.txt").string() + " > /dev/null";
  fs::remove(kRoot / "out.c");
  const int status = std::system(command.c_str());
  out = fs::exists(kRoot / "out.c") ? read(kRoot / "out.c") : "";
  err = read(kRoot / "err.txt");
  return WEXITSTATUS(status);
}

const char* kSource =
    "/* a comment with a brace { and twice(x) { */\n"
    "#define TWICE(x) \\\n"
    "  ((x) + (x))\n"
    "\n"
    "static int\n"
    "twice(int x)\n"
    "{\n"
    "  if (x) { return TWICE(x); }\n"
    "  return 0;\n"
    "}\n"
    "\n"
    "static int once(int x) { return twice(x) / 2; }\n"
    "DECLARE_THING(static, thing_cb, once);\n"
    "#ifdef A\n"
    "static int dup(void) { return 1; }\n"
    "#else\n"
    "static int dup(void) { return 2; }\n"
    "#endif\n";

}  // namespace

TEST_CASE("ksrc_extract copies named items in list order", "[kernel_src][extract]") {
  use_root("copies");
  write(kRoot / "src" / "a.c", kSource);
  std::string out, err;
  REQUIRE(extract("file a.c\nmacro TWICE\nfunc once as real_once\nfunc twice\nstmt DECLARE_THING thing_cb\n", out,
                  err) == 0);
  CHECK(out.find("#define TWICE(x) \\\n  ((x) + (x))\n") != std::string::npos);
  CHECK(out.find("static int\ntwice(int x)\n{\n  if (x) { return TWICE(x); }\n  return 0;\n}") != std::string::npos);
  CHECK(out.find("static int real_once(int x) { return twice(x) / 2; }") != std::string::npos);
  CHECK(out.find("DECLARE_THING(static, thing_cb, once);") != std::string::npos);
  CHECK(out.find("#line 5 \"a.c\"") != std::string::npos);  // twice's type line
  CHECK(out.find("real_once") < out.find("twice(int x)"));  // the list's order
  CHECK(out.find("a comment") == std::string::npos);
}

TEST_CASE("ksrc_extract fails loudly naming the item", "[kernel_src][extract]") {
  use_root("fails");
  write(kRoot / "src" / "a.c", kSource);
  std::string out, err;
  CHECK(extract("file a.c\nfunc twice\nfunc thrice\n", out, err) == 1);
  CHECK(err.find("list.txt:3: ksrc_extract: function `thrice` not found in a.c") != std::string::npos);
  CHECK(out.empty());
  CHECK(extract("file a.c\nfunc dup\n", out, err) == 1);
  CHECK(err.find("function `dup` is defined 2 times in a.c") != std::string::npos);
  CHECK(extract("func twice\n", out, err) == 1);
  CHECK(err.find("no `file` directive") != std::string::npos);
  CHECK(extract("file missing.c\n", out, err) == 1);
  CHECK(err.find("cannot read") != std::string::npos);
}
