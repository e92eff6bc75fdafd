// Shrinking the corpus bugs: each corpus/bugs trace with an injection, padded with
// noise to at least 100 events, shrinks under violates(<its expected property>) to a
// trace that still fails that property, has fewer events, at most 2 CPUs and 3
// tasks, and is 1-minimal: every neighbour (one event deleted with its dependents,
// one task deleted, the highest CPU folded into another) no longer fails. The
// neighbours come from minimality.h's own deletion and repair code, not the
// shrinker's. Every injected bug trace must be listed here.
#include <catch2/catch.hpp>

#include <algorithm>   // std::find
#include <filesystem>  // the corpus listing
#include <iostream>    // the per-trace summary line
#include <string>
#include <vector>

#include "replay/vocabulary.h"
#include "shrinkers/shrink.h"
#include "shrinkers/tests/minimality.h"
#include "shrinkers/tests/padding.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace sh = eevdf::shrinkers;
namespace st = eevdf::shrinkers::testing;
using eevdf::trace::Trace;

namespace {

// The padded input's size: the brief's ">= 100 events", with room to spare.
constexpr std::size_t kPaddedEventsMin = 100;
constexpr std::size_t kNoiseEvents = 110;

const std::vector<std::string> kInjectedBugs = {"buddy_accepts_delayed", "iowait_dec_new_rq",
                                                "parity_ignores_min_slice", "reweight_unclamped_lag",
                                                "reweight_unscaled_lag"};

// Interleaved noise if the bug survives it, else appended noise (which cannot hide
// a violation that happened before it).
Trace padded(const Trace& original, const sh::Predicate& fails, std::string& how) {
  Trace t = st::pad_interleaved(original, kNoiseEvents);
  how = "interleaved";
  if (!fails(t)) {
    t = st::pad_appended(original, kNoiseEvents);
    how = "appended";
  }
  return t;
}

void check_one_minimal(const Trace& result, const sh::Predicate& fails) {
  for (const st::Neighbour& n : st::neighbours(result)) {
    INFO(n.how << " of\n" << eevdf::trace::to_text(result) << "gives\n" << eevdf::trace::to_text(n.trace));
    CHECK_FALSE(fails(n.trace));
  }
}

void shrink_bug(const std::string& name) {
  const Trace original = st::load_corpus_trace("bugs/" + name + ".trace");
  REQUIRE_FALSE(original.header.injections.empty());
  REQUIRE_FALSE(original.header.expect_violations.empty());
  const std::string property = original.header.expect_violations.front();
  const sh::Predicate fails = sh::violates(property);
  REQUIRE(fails(original));

  std::string how;
  const Trace input = padded(original, fails, how);
  REQUIRE(st::count_events(input) >= kPaddedEventsMin);
  REQUIRE(fails(input));

  sh::Stats stats;
  const Trace result = sh::shrink(input, fails, sh::Budget{}, &stats);
  std::cout << "shrink " << name << " (" << property << ", " << how << " noise): " << stats.events_before
            << " -> " << stats.events_after << " events, " << stats.candidates << " candidates, "
            << stats.accepted << " accepted, " << stats.rounds << " rounds, stopped: " << stats.stopped_because
            << "\n";
  for (const sh::PassStats& p : stats.passes)
    std::cout << "  pass " << p.name << ": " << p.candidates << " candidates, " << p.accepted << " accepted, "
              << p.events_removed << " events removed\n";
  Trace shown = result;
  shown.header.preamble.clear();
  std::cout << eevdf::trace::to_text(shown);
  INFO("shrunk:\n" << eevdf::trace::to_text(result));
  CHECK(stats.stopped_because == "fixed point");
  CHECK(fails(result));
  CHECK(stats.events_before == st::count_events(input));
  CHECK(stats.events_after == st::count_events(result));
  CHECK(st::count_events(result) < st::count_events(input));
  CHECK(st::count_events(result) <= st::count_events(original));
  CHECK(result.body.size() == st::count_events(result));  // no Expect statements
  CHECK_FALSE(result.header.has_trace_expectations());
  for (const std::string& i : result.header.injections)
    CHECK(std::find(input.header.injections.begin(), input.header.injections.end(), i) !=
          input.header.injections.end());
  CHECK(st::cpu_count(result) <= 2);
  CHECK(st::task_count(result) <= 3);
  check_one_minimal(result, fails);

  // Faithful as text: written and read back, it fails the same way.
  const Trace reread = eevdf::trace::parse_trace_text(eevdf::trace::to_text(result), name, eevdf::replay::vocabulary());
  CHECK(fails(reread));
  // Deterministic: the same input gives the same output.
  CHECK(eevdf::trace::to_text(sh::shrink(input, fails, sh::Budget{}, nullptr)) == eevdf::trace::to_text(result));
}

}  // namespace

TEST_CASE("every injected corpus bug has a shrink test", "[shrinkers][corpus]") {
  const std::filesystem::path dir = std::filesystem::path(EEVDF_SOURCE_DIR) / "corpus" / "bugs";
  std::size_t injected = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".trace") continue;
    const Trace t = st::load_corpus_trace("bugs/" + entry.path().filename().string());
    if (t.header.injections.empty()) continue;
    ++injected;
    const std::string stem = entry.path().stem().string();
    INFO(stem);
    CHECK(std::find(kInjectedBugs.begin(), kInjectedBugs.end(), stem) != kInjectedBugs.end());
  }
  CHECK(injected == kInjectedBugs.size());
}

TEST_CASE("shrink buddy_accepts_delayed", "[shrinkers][corpus]") { shrink_bug("buddy_accepts_delayed"); }
TEST_CASE("shrink iowait_dec_new_rq", "[shrinkers][corpus]") { shrink_bug("iowait_dec_new_rq"); }
TEST_CASE("shrink parity_ignores_min_slice", "[shrinkers][corpus]") { shrink_bug("parity_ignores_min_slice"); }
TEST_CASE("shrink reweight_unclamped_lag", "[shrinkers][corpus]") { shrink_bug("reweight_unclamped_lag"); }
TEST_CASE("shrink reweight_unscaled_lag", "[shrinkers][corpus]") { shrink_bug("reweight_unscaled_lag"); }
