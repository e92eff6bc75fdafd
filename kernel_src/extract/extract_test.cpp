// The closure extraction (closure.h) on small sources of our own (no kernel text):
// what the harness reaches is extracted and nothing else; the shim's names stop the
// closure; a function the harness defines wraps the tree's; preprocessor conditions
// choose our configuration's definition; a name defined twice under it is an error
// naming file and line; the shape facts (arity, fields, a union) are detected.
#include <catch2/catch.hpp>

#include <string>

#include "kernel_src/extract/closure.h"

namespace {

using namespace eevdf::kernel_src::extract;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Request request(const std::string& tree, const std::string& harness, const std::string& shim = "") {
  Request r;
  r.kernel.push_back({"kernel/sched/fair.c", tree});
  r.boundary.push_back({"shim/kernel.h", shim});
  r.harness = {"harness.c", harness};
  return r;
}

const char* kTree =
    "/* used(x) { in a comment */\n"
    "#define TWICE(x) \\\n"
    "  ((x) + (x))\n"
    "static int\n"
    "leaf(int x)\n"
    "{\n"
    "  return TWICE(x);\n"
    "}\n"
    "static int unused(int x) { return x; }\n"
    "#ifdef CONFIG_SMP\n"
    "static int middle(struct s *p, int y) { return p->smp_only + leaf(y); }\n"
    "#else\n"
    "static int middle(struct s *p, int y) { return p->count + leaf(y) + stub(y); }\n"
    "#endif\n"
    "#ifdef CONFIG_64BIT\n"
    "static long wide(void) { return 64; }\n"
    "#else\n"
    "static long wide(void) { return 32; }\n"
    "#endif\n"
    "int entry(struct s *p) { return middle(p, 1) + (int)wide(); }\n"
    "static int stub(int y) { return y; }\n";

}  // namespace

TEST_CASE("the closure extracts what the harness reaches, under our configuration", "[ksrc_extract]") {
  const Result r = extract(request(kTree, "int ksrc_entry(struct s *p) { return entry(p); }\n",
                                   "static inline int stub(int y) { return 0; }\n"));
  CHECK(r.functions == std::vector<std::string>{"entry", "leaf", "middle", "wide"});
  CHECK(has(r.c_text, "#define TWICE(x)"));
  CHECK(has(r.c_text, "p->count + leaf(y)"));     // the !CONFIG_SMP definition
  CHECK_FALSE(has(r.c_text, "smp_only"));
  CHECK(has(r.c_text, "return 64;"));             // CONFIG_64BIT
  CHECK_FALSE(has(r.c_text, "return 32;"));
  CHECK_FALSE(has(r.c_text, "unused"));
  CHECK_FALSE(has(r.c_text, "return y;"));        // stub: the shim's
  CHECK(has(r.c_text, "static int\nleaf(int x);"));  // a prototype before the items
  CHECK(has(r.c_text, "#line 4 \"kernel/sched/fair.c\""));
  CHECK(has(r.config_h, "#define KSRC_NARGS_middle 2\n"));
  CHECK(has(r.config_h, "#define KSRC_NARGS_wide 0\n"));
  CHECK(has(r.config_h, "#define KSRC_HAS_entry 1\n"));
  CHECK(has(r.config_h, "#define KSRC_FIELD_count 1\n"));
}

TEST_CASE("a function the harness defines wraps the tree's, renamed", "[ksrc_extract]") {
  const Result r = extract(request(kTree,
                                   "static int leaf(int x) { return ksrc_real_leaf(x) + 1; }\n"
                                   "int ksrc_entry(struct s *p) { return entry(p); }\n",
                                   "static inline int stub(int y) { return 0; }\n"));
  CHECK(r.wrapped == std::vector<std::string>{"leaf"});
  CHECK(has(r.c_text, "ksrc_real_leaf(int x)\n{"));
  CHECK(has(r.c_text, "static int\nleaf(int x);"));  // the wrapper's prototype
  CHECK_FALSE(has(r.c_text, "static int\nleaf(int x)\n{"));
}

TEST_CASE("a top-level macro invocation is extracted when a name it defines is used", "[ksrc_extract]") {
  const char* tree =
      "#define DECLARE_CB(name, fn) static int name(void) { return fn(); }\n"
      "static int base(void) { return 7; }\n"
      "DECLARE_CB(my_cb, base);\n"
      "int entry(void) { return my_cb(); }\n";
  const Result r = extract(request(tree, "int ksrc_entry(void) { return entry(); }\n"));
  CHECK(has(r.c_text, "DECLARE_CB(my_cb, base);"));
  CHECK(has(r.c_text, "static int base(void)"));
  CHECK(has(r.c_text, "#define DECLARE_CB"));
}

TEST_CASE("a name defined twice under our configuration is an error naming file and line", "[ksrc_extract]") {
  const char* tree =
      "static int twice(void) { return 1; }\n"
      "\n"
      "static int twice(void) { return 2; }\n"
      "int entry(void) { return twice(); }\n";
  try {
    extract(request(tree, "int ksrc_entry(void) { return entry(); }\n"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.where == "kernel/sched/fair.c:3");
    CHECK(has(e.message, "`twice` is defined 2 times"));
  }
}

TEST_CASE("a union of vlag and vprot in struct sched_entity is detected", "[ksrc_extract]") {
  Request r = request("int entry(void) { return 0; }\n", "int ksrc_entry(void) { return entry(); }\n");
  r.headers.push_back({"include/linux/sched.h", "struct sched_entity {\n  u64 vruntime;\n  union {\n    s64 vlag;\n"
                                                "    u64 vprot;\n  };\n};\n"});
  CHECK(has(extract(r).config_h, "#define KSRC_SE_VPROT_IN_VLAG 1\n"));
  r.headers.back().text = "struct sched_entity {\n  s64 vlag;\n  u64 vprot;\n};\n";
  CHECK_FALSE(has(extract(r).config_h, "KSRC_SE_VPROT_IN_VLAG"));
}

TEST_CASE("where a pick tests PICK_BUDDY, and whether that test reads protect, is detected", "[ksrc_extract]") {
  const std::string harness = "int ksrc_entry(struct c *c) { return !!pick(c, 1); }\n";
  // The test itself, not the comment or another if, decides.
  const std::string guarded =
      "/* if (sched_feat(PICK_BUDDY)) in a comment */\n"
      "static struct e *pick(struct c *c, bool protect) {\n"
      "  if (c->n == 1) return c->first;\n"
      "  if (sched_feat(PICK_BUDDY) && protect &&\n"
      "      c->next) return c->next;\n"
      "  return protect ? c->curr : c->first;\n"
      "}\n";
  const Result with_protect = extract(request(guarded, harness));
  CHECK(has(with_protect.config_h, "#define KSRC_PICK_BUDDY_IN_pick 1\n"));
  CHECK(has(with_protect.config_h, "#define KSRC_PICK_BUDDY_PROTECTED 1\n"));
  const std::string always =
      "static struct e *pick(struct c *c, bool protect) {\n"
      "  if (sched_feat(PICK_BUDDY) && c->next) return c->next;\n"
      "  if (protect) return c->curr;\n"
      "  return c->first;\n"
      "}\n";
  const Result without = extract(request(always, harness));
  CHECK(has(without.config_h, "#define KSRC_PICK_BUDDY_IN_pick 1\n"));
  CHECK_FALSE(has(without.config_h, "KSRC_PICK_BUDDY_PROTECTED"));
  const Result none = extract(request("static struct e *pick(struct c *c, bool protect) { return c->first; }\n", harness));
  CHECK_FALSE(has(none.config_h, "KSRC_PICK_BUDDY"));
}

TEST_CASE("preprocessor conditions are evaluated for a 64-bit kernel with nothing else configured",
          "[ksrc_extract]") {
  CHECK(condition_holds("defined(CONFIG_64BIT)"));
  CHECK(condition_holds("BITS_PER_LONG == 64"));
  CHECK_FALSE(condition_holds("defined(CONFIG_SMP) && defined(CONFIG_64BIT)"));
  CHECK(condition_holds("!IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) || defined(CONFIG_SMP)"));
  CHECK_FALSE(condition_holds("0"));
}

TEST_CASE("a wrapper the harness defines for another shape of the function does not wrap it", "[ksrc_extract]") {
  const char* harness =
      "#if KSRC_NARGS_leaf == 2\n"
      "static int leaf(int x, int y) { return ksrc_real_leaf(x, y); }\n"
      "#endif\n"
      "int ksrc_entry(struct s *p) { return entry(p); }\n";
  const Result r = extract(request(kTree, harness, "static inline int stub(int y) { return 0; }\n"));
  CHECK(r.wrapped.empty());
  CHECK(has(r.c_text, "static int\nleaf(int x)\n{"));  // the tree's, under its own name
  CHECK(has(r.config_h, "#define KSRC_NARGS_leaf 1\n"));
}

// A patch may add data: a callbacks table whose initializer names functions, and a
// scalar. Both are taken when reached (after the prototypes they need), not otherwise.
TEST_CASE("a top-level definition with an initializer is extracted when reached", "[ksrc_extract]") {
  const char* tree =
      "static void spin(struct n *x) { x->turns++; }\n"
      "static const struct ops table = {\n"
      "  .turn = spin,\n"
      "  .twice = { 1, 2 },\n"
      "};\n"
      "static int limit[2] = { 3, 4 };\n"
      "static unsigned long unused_scalar = 7;\n"
      "int entry(struct n *x) { table.turn(x); return limit[1]; }\n";
  const Result r = extract(request(tree, "int ksrc_entry(struct n *x) { return entry(x); }\n"));
  CHECK(r.functions == std::vector<std::string>{"entry", "spin"});
  CHECK(has(r.c_text, "static const struct ops table = {\n  .turn = spin,\n  .twice = { 1, 2 },\n};"));
  CHECK(has(r.c_text, "static int limit[2] = { 3, 4 };"));
  CHECK_FALSE(has(r.c_text, "unused_scalar"));
  CHECK(r.c_text.find("static void spin(struct n *x);") < r.c_text.find("static const struct ops table"));
}
