// The findings registry (docs/INJECTIONS.md, Findings): every entry names a catalogued
// property and has its trace in corpus/findings/ (which ctest replays, so the trace
// itself proves the finding, `expect finding` pinning it); the steady bound's violation
// carries its entry.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "properties/catalogue.h"
#include "properties/findings.h"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool catalogued(std::string_view property) {
  for (const auto& p : eevdf::properties::kCatalogue)
    if (p.name == property) return true;
  return false;
}

// A finding's trace: in corpus/findings/, or for one that only kernel trees meet, under
// corpus/findings/trees/<release line>/ (the first line that has it).
std::string finding_trace(std::string_view name) {
  const std::string dir = std::string(EEVDF_SOURCE_DIR) + "/corpus/findings/";
  if (!eevdf::properties::met_on_kernel_trees_only(name)) return read(dir + std::string(name) + ".trace");
  for (const char* line : {"6.18", "6.19", "7.0", "7.1"})
    if (std::string text = read(dir + "trees/" + line + "/" + std::string(name) + ".trace"); !text.empty()) return text;
  return "";
}

}  // namespace

TEST_CASE("every finding names a catalogued property and has its corpus trace", "[findings]") {
  for (const auto& f : eevdf::properties::kFindings) {
    INFO("finding " << f.name);
    CHECK(catalogued(f.property));
    CHECK_FALSE(f.condition.empty());
    CHECK_FALSE(f.origin.empty());
    const std::string text = finding_trace(f.name);
    REQUIRE_FALSE(text.empty());
    // The trace says which finding it shows and pins it: its header expects that
    // finding, which its replay judges against the finding's condition
    // (replay/finding_conditions.h).
    CHECK(text.find("# Finding " + std::string(f.name)) != std::string::npos);
    CHECK(text.find("\nexpect finding " + std::string(f.name) + "\n") != std::string::npos);
  }
}

TEST_CASE("known_finding returns the registered name", "[findings]") {
  static_assert(eevdf::properties::known_finding("lag-bound-yield") == "lag-bound-yield");
  CHECK(eevdf::properties::known_finding("monotone-min-vruntime-overflow").data() ==
        eevdf::properties::kFindings[0].name.data());
}
