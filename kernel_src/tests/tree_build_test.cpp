// Trees built at run time (tree_build.h), on copies of the default tree the build
// unpacked: a copy builds and runs like the built-in tree, an identical copy comes
// from the cache, a changed line makes a new build whose behaviour changes, and a tree
// that cannot be built is an error at the tree's file and line.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>  // getpid

#include "kernel_src/tree_build.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/model_config.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace {

namespace fs = std::filesystem;
using eevdf::kernel_src::load_tree;
using eevdf::kernel_src::TreeError;

// One cache and one set of copies per test process (ctest runs cases in parallel),
// removed when it exits.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("tree_build_test_" + std::to_string(getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    setenv("EEVDF_CHECK_CACHE", (dir / "cache").c_str(), 1);
  }
  ~Scratch() { fs::remove_all(dir); }
};

fs::path scratch() {
  static const Scratch s;
  return s.dir;
}

fs::path copy_of_default(const std::string& name) {
  const fs::path to = scratch() / name;
  fs::remove_all(to);
  fs::copy(KSRC_DEFAULT_TREE, to, fs::copy_options::recursive);
  return to;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replaces the first `from` after `anchor` in the copy's fair.c.
void edit_fair(const fs::path& tree, const std::string& anchor, const std::string& from, const std::string& to) {
  const fs::path fair = tree / "kernel/sched/fair.c";
  std::string text = read(fair);
  const std::size_t at = text.find(from, text.find(anchor));
  REQUIRE(text.find(anchor) != std::string::npos);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(fair) << text;
}

// Two nice-0 tasks forked on CPU 0, then a tick at 1 ms: which task runs afterwards (by
// id). Task 1 has used its 0.75 ms slice (one CPU: the base slice unscaled), so
// update_deadline renews it and asks to reschedule; task 2, placed at V = 0 with half
// a slice to its deadline, is eligible and earlier: it runs.
int runner_after(const eevdf::kernel_src::Tree& tree) {
  const eevdf::trace::Trace t = eevdf::trace::parse_trace_text(
      "eevdf-trace 1\nkernel 6.12\ntopology 1x1\nhz 1000\ntask 1\ntask 2\n"
      "@0 fork 1 cpu=0\n@0 fork 2 cpu=0\n@1ms tick 0\n",
      "<test>", eevdf::replay::vocabulary());
  const eevdf::model::Config config = eevdf::replay::make_config(t.header, {}, "<test>");
  eevdf::kernel_src::Machine m(config, eevdf::replay::make_task_specs(t.header), tree.api);
  for (const auto& statement : t.body)
    REQUIRE(eevdf::replay::apply_event(m, std::get<eevdf::trace::Event>(statement)).empty());
  const int curr = m.curr_index(0);
  return curr < 0 ? 0 : m.extra(curr).id;
}

}  // namespace

TEST_CASE("a copy of the default tree builds, runs like the built-in one, and is cached", "[tree_build]") {
  const auto& first = load_tree(copy_of_default("same-a").string());
  CHECK_FALSE(first.from_cache);
  CHECK(first.version.rfind("6.12.", 0) == 0);
  CHECK(fs::exists(first.library));
  const auto& second = load_tree(copy_of_default("same-b").string());  // the same text elsewhere
  CHECK(second.from_cache);
  CHECK(second.hash == first.hash);
  const eevdf::kernel_src::Tree built_in;  // no api: the default tree built into the program
  CHECK(runner_after(first) == runner_after(built_in));
}

TEST_CASE("a changed line of fair.c is a new build with its own behaviour", "[tree_build]") {
  const auto& plain = load_tree(copy_of_default("plain").string());
  const fs::path mutated = copy_of_default("mutated");
  // update_deadline with its comparison flipped: a slice that has ended is not
  // renewed and asks for nothing, so task 1 keeps the CPU.
  edit_fair(mutated, "static bool update_deadline(", "if ((s64)(se->vruntime - se->deadline) < 0)",
            "if ((s64)(se->vruntime - se->deadline) >= 0)");
  const auto& changed = load_tree(mutated.string());
  CHECK(changed.hash != plain.hash);
  CHECK_FALSE(changed.from_cache);
  CHECK(runner_after(plain) == 2);
  CHECK(runner_after(changed) == 1);
}

TEST_CASE("a tree that cannot be built is an error at its file and line", "[tree_build]") {
  SECTION("a missing file") {
    const fs::path tree = copy_of_default("missing");
    fs::remove(tree / "kernel/sched/fair.c");
    try {
      load_tree(tree.string());
      FAIL("no error");
    } catch (const TreeError& e) {
      CHECK(e.where == (tree / "kernel/sched/fair.c").string());
    }
  }
  SECTION("code the shim cannot compile") {
    const fs::path tree = copy_of_default("broken");
    edit_fair(tree, "s64 entity_key(struct cfs_rq", "{", "{ int broken = no_such_kernel_symbol;");
    try {
      load_tree(tree.string());
      FAIL("no error");
    } catch (const TreeError& e) {
      CHECK(e.where.rfind((tree / "kernel/sched/fair.c").string() + ":", 0) == 0);
      CHECK(e.message.find("`entity_key`") != std::string::npos);
      CHECK(e.message.find("no_such_kernel_symbol") != std::string::npos);
    }
  }
}
