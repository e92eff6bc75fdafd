// The mutant generator (mutants.h) on C snippets of our own: which tokens are sites
// (C's look-alikes are not), the stable ids, the mutated text with its probes, and the
// one-line diff.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kernel_src/mutate/mutants.h"

namespace {

using namespace eevdf::kernel_src::mutate;

std::vector<std::string> ids(const std::vector<Mutant>& ms, Operator op) {
  std::vector<std::string> out;
  for (const Mutant& m : ms)
    if (m.op == op) out.push_back(m.id());
  return out;
}

const Mutant& find(const std::vector<Mutant>& ms, const std::string& id) {
  const auto it = std::find_if(ms.begin(), ms.end(), [&](const Mutant& m) { return m.id() == id; });
  REQUIRE(it != ms.end());
  return *it;
}

}  // namespace

TEST_CASE("relational sites: not ->, <<, >>= or <= look-alikes", "[mutate]") {
  const std::string f =
      "static int f(struct s *p, int a)\n"
      "{\n"
      "  a <<= 1;\n"
      "  if (p->x < a)\n"
      "    return p->y >> 2;\n"
      "  return a <= p->z;\n"
      "}\n";
  const std::vector<Mutant> ms = mutants_of("f", f);
  CHECK(ids(ms, Operator::ROR) == std::vector<std::string>{"f/ROR/1/<=", "f/ROR/1/>", "f/ROR/1/>=", "f/ROR/1/==",
                                                           "f/ROR/1/!=", "f/ROR/2/<", "f/ROR/2/>", "f/ROR/2/>=",
                                                           "f/ROR/2/==", "f/ROR/2/!="});
  CHECK(ids(ms, Operator::SHR) == std::vector<std::string>{"f/SHR/1/>>=", "f/SHR/2/<<"});
}

TEST_CASE("arithmetic sites are binary uses only", "[mutate]") {
  const std::string f =
      "static long g(struct s *p, long a)\n"
      "{\n"
      "  struct s *q = p;\n"
      "  long b = -a + (long)*p->v;\n"   // unary minus, a cast's dereference: one site, the +
      "  b -= a * q->w;\n"                // -= and * are sites
      "  return (b) - a % 3;\n"           // - after a parenthesised operand, %
      "}\n";
  const std::vector<Mutant> ms = mutants_of("g", f);
  CHECK(ids(ms, Operator::AOR) ==
        std::vector<std::string>{"g/AOR/1/-", "g/AOR/2/+=", "g/AOR/3//", "g/AOR/4/+", "g/AOR/5//"});
}

TEST_CASE("constants, conditions, deletions and max/min", "[mutate]") {
  const std::string f =
      "static void h(struct s *p)\n"
      "{\n"
      "  u64 x = max(p->a, 2);\n"
      "  while (x)\n"
      "    x = x - 1;\n"
      "  p->a = min_t(u64, x, p->b);\n"
      "  p->min_vruntime = 0;\n"  // a member, not the function
      "}\n";
  const std::vector<Mutant> ms = mutants_of("h", f);
  CHECK(ids(ms, Operator::CRP) == std::vector<std::string>{"h/CRP/1/+1", "h/CRP/1/-1", "h/CRP/2/+1", "h/CRP/2/-1",
                                                           "h/CRP/3/+1", "h/CRP/3/-1"});
  CHECK(ids(ms, Operator::COND) == std::vector<std::string>{"h/COND/1/!", "h/COND/1/true", "h/COND/1/false"});
  CHECK(ids(ms, Operator::SDL) == std::vector<std::string>{"h/SDL/1/del", "h/SDL/2/del", "h/SDL/3/del"});
  CHECK(ids(ms, Operator::MMS) == std::vector<std::string>{"h/MMS/1/min", "h/MMS/2/max_t"});
}

TEST_CASE("no sites in declarators, for heads' declarations, or inactive preprocessor branches", "[mutate]") {
  const std::string f =
      "static int k(int n)\n"
      "{\n"
      "  int a[4], *b;\n"
      "#ifdef CONFIG_SMP\n"
      "  n = n + 1;\n"
      "#endif\n"
      "  for (int i = 0; i < n; i++)\n"
      "    a[0] = i;\n"
      "  return 0;\n"
      "}\n";
  const std::vector<Mutant> ms = mutants_of("k", f);
  CHECK(ids(ms, Operator::AOR).empty());
  CHECK(ids(ms, Operator::ROR).size() == 5);                               // i < n
  CHECK(ids(ms, Operator::CRP) == std::vector<std::string>{"k/CRP/1/+1", "k/CRP/1/-1", "k/CRP/2/+1", "k/CRP/2/-1"});
  CHECK(ids(ms, Operator::SDL) == std::vector<std::string>{"k/SDL/1/del"});  // a[0] = i; not the return
}

TEST_CASE("the mutated copy carries its probe where the statement executes", "[mutate]") {
  const std::string f =
      "static int m(int a, int b)\n"
      "{\n"
      "  if (a < b)\n"
      "    a = a + b;\n"
      "  else if (b)\n"
      "    return b;\n"
      "  return a;\n"
      "}\n";
  const std::vector<Mutant> ms = mutants_of("m", f);
  CHECK(apply(f, find(ms, "m/ROR/1/>="), "HIT()").find("if (HIT(), a >= b)") != std::string::npos);
  CHECK(apply(f, find(ms, "m/AOR/1/-"), "HIT()").find("    { HIT(); a = a - b; }\n  else if") != std::string::npos);
  CHECK(apply(f, find(ms, "m/SDL/1/del"), "HIT()").find("    { HIT(); ; }\n  else if") != std::string::npos);
  CHECK(apply(f, find(ms, "m/COND/2/!"), "HIT()").find("else if (HIT(), !(b))") != std::string::npos);
  CHECK(one_line_diff(f, find(ms, "m/ROR/1/>=")) == "if (a < b) => if (a >= b)");
}

TEST_CASE("code we cannot walk gives no mutants rather than wrong ones", "[mutate]") {
  CHECK(mutants_of("bad", "static int bad(void)\n{\n  if a < b) return 1;\n}\n").empty());
}
