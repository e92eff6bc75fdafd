// The mutant schemata (schemata.h) through the extraction, on sources of our own: only
// fair.c's functions are mutated; each mutated function's calls go through its table,
// its definition keeps the original under `(name)`, and every mutant is a copy with its
// own name, its probe and the line marker that names it.
#include <catch2/catch.hpp>

#include <string>

#include "kernel_src/extract/closure.h"
#include "kernel_src/mutate/schemata.h"

namespace {

using namespace eevdf::kernel_src;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

extract::Result extract_with(mutate::Schemata& schemata) {
  extract::Request r;
  r.kernel.push_back({"lib/rbtree.c", "static int helper(int x) { return x < 3; }\n"});
  r.kernel.push_back({"kernel/sched/fair.c",
                      "static int leaf(int x)\n{\n  return helper(x) + 1;\n}\n"
                      "int entry(int y)\n{\n  if (y > 0)\n    return leaf(y);\n  return 0;\n}\n"});
  r.harness = {"harness.c", "int ksrc_entry(int y) { return entry(y); }\n"};
  r.rewrite = schemata.rewriter();
  return extract::extract(r);
}

}  // namespace

TEST_CASE("the schemata holds every mutant of fair.c behind its function's table", "[mutate]") {
  mutate::Schemata schemata({});
  const extract::Result x = extract_with(schemata);
  // leaf: AOR + (1), CRP 1 (2). entry: COND (3), ROR > (5), CRP 0 (2), CRP 0 of the
  // return (2). helper (lib/rbtree.c): none.
  REQUIRE(schemata.mutants().size() == 3 + 12);
  CHECK(schemata.mutants()[0].id == "leaf/AOR/1/-");
  CHECK(schemata.mutants()[0].diff == "return helper(x) + 1; => return helper(x) - 1;");
  for (const mutate::Built& b : schemata.mutants()) CHECK(b.mutant.function != "helper");
  CHECK(has(x.c_text, "#define leaf(...) (*ksrc_mutants_leaf[ksrc_mutant_slot(1u, 3u)])(__VA_ARGS__)"));
  CHECK(has(x.c_text, "#define entry(...) (*ksrc_mutants_entry[ksrc_mutant_slot(4u, 12u)])(__VA_ARGS__)"));
  CHECK(has(x.c_text, "static int (leaf)(int x)"));  // the original, out of the macro's reach
  CHECK(has(x.c_text, "ksrc_mutants_leaf[] = {leaf, ksrc_mut1_leaf, ksrc_mut2_leaf, ksrc_mut3_leaf};"));
  CHECK(has(x.c_text, "#line 1 \"ksrc-mutant-1\"\nstatic int ksrc_mut1_leaf(int x)\n{\n"
                      "  { ksrc_mutant_hit(); return helper(x) - 1; }\n}"));
  CHECK_FALSE(has(x.c_text, "ksrc_mutants_helper"));
}

TEST_CASE("a selection keeps its functions and operators, and leaves the excluded out", "[mutate]") {
  mutate::Selection only;
  only.functions = {"entry"};
  only.operators = {mutate::Operator::ROR};
  only.excluded = {"entry/ROR/1/=="};
  mutate::Schemata schemata(only);
  extract_with(schemata);
  std::vector<std::string> ids;
  for (const mutate::Built& b : schemata.mutants()) ids.push_back(b.id);
  CHECK(ids == std::vector<std::string>{"entry/ROR/1/<", "entry/ROR/1/<=", "entry/ROR/1/>=", "entry/ROR/1/!="});
}
