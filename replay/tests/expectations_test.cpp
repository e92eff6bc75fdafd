// Trace-wide expectations: what a replay refuses to judge (replay/judged.h), the
// engines corpus check plans per header, and `expect finding` (ViolationLog with
// replay/finding_conditions.h).
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "model/config.h"
#include "properties/findings.h"
#include "replay/finding_conditions.h"
#include "replay/judged.h"
#include "replay/replay.h"
#include "replay/violations.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"

namespace {

namespace r = eevdf::replay;
using eevdf::trace::Header;

Header header_of(const std::string& text) { return eevdf::trace::parse_trace_text(text, "t.trace", r::vocabulary()).header; }

std::string refusal(const r::Options& o, const Header& h, eevdf::trace::Arith arith) {
  try {
    r::require_judged(o, h, arith, "t.trace");
  } catch (const eevdf::trace::TraceError& e) {
    return e.what();
  }
  return "";
}

r::Outcome replay_text(const std::string& text, std::string& report, const r::Options& o = {}) {
  std::istringstream in(text);
  std::ostringstream out, err;
  const r::Outcome outcome = r::replay(in, "t.trace", o, out, err);
  report = out.str() + err.str();
  return outcome;
}

eevdf::properties::Violation violation(std::string_view property, std::string_view finding = {}) {
  eevdf::properties::Violation v;
  v.property = property;
  v.finding = finding;
  return v;
}

constexpr std::string_view kSteady = "lag_bound_steady";
constexpr std::string_view kOffGrid = eevdf::properties::known_finding("lag-bound-steady-off-tick-grid");

}  // namespace

TEST_CASE("a property the replay does not judge is refused with what to add", "[replay][judged]") {
  const Header plain = header_of("eevdf-trace 1\n");
  r::Options o;
  o.check = {"lag_bound_steady"};  // exact in the ideal arithmetic only
  CHECK_THAT(refusal(o, plain, eevdf::trace::Arith::kernel), Catch::Contains("--arith=ideal"));
  CHECK(refusal(o, plain, eevdf::trace::Arith::ideal).empty());
  CHECK(refusal(o, plain, eevdf::trace::Arith::both).empty());
  o.check = {"no_overflow"};  // exact in the kernel arithmetic only
  CHECK_THAT(refusal(o, plain, eevdf::trace::Arith::ideal), Catch::Contains("--arith=kernel"));
  o.check = {"deterministic"};
  CHECK_THAT(refusal(o, plain, eevdf::trace::Arith::kernel), Catch::Contains("test suite"));
  o.check = {"fast_matches_reference"};
  CHECK_THAT(refusal(o, plain, eevdf::trace::Arith::kernel), Catch::Contains("--diff"));
  o.diff = true;
  CHECK(refusal(o, plain, eevdf::trace::Arith::kernel).empty());
  o.check = {"no_overflow"};  // the differential judges only its own property
  CHECK_THAT(refusal(o, plain, eevdf::trace::Arith::kernel), Catch::Contains("not judged"));
}

TEST_CASE("an expectation the replay cannot judge is refused, not passed", "[replay][judged]") {
  const Header k612 = header_of("eevdf-trace 1\nkernel 6.12\nexpect violation kernel_matches_reference\n");
  CHECK_THAT(refusal({}, k612, eevdf::trace::Arith::kernel), Catch::Contains("--model=kernel-src"));
  r::Options on_kernel_src;
  on_kernel_src.model = r::Model::kernel_src;
  CHECK(refusal(on_kernel_src, k612, eevdf::trace::Arith::kernel).empty());
  r::Options elsewhere;  // corpus check's plan: another replay of the trace judges it
  elsewhere.judged_elsewhere = {"kernel_matches_reference"};
  CHECK(refusal(elsewhere, k612, eevdf::trace::Arith::kernel).empty());
  const Header steady = header_of("eevdf-trace 1\narith kernel\nexpect finding lag-bound-steady-off-tick-grid\n");
  CHECK_THAT(refusal({}, steady, eevdf::trace::Arith::kernel), Catch::Contains("--arith=ideal"));
  // The whole replay: exit 2 and the message, in either arithmetic's refusal.
  std::string report;
  CHECK(replay_text("eevdf-trace 1\nkernel 6.12\nexpect violation kernel_matches_reference\n@0 tick 0\n", report) ==
        r::Outcome::bad_input);
  CHECK_THAT(report, Catch::Contains("kernel_matches_reference: not judged"));
}

TEST_CASE("corpus check plans the engines a header needs", "[replay][judged]") {
  const auto plan = [](const std::string& text, bool kernel_src) { return r::plan_replays(header_of(text), kernel_src); };
  const auto kmr = plan("eevdf-trace 1\nkernel 6.12\nexpect finding kernel-src-null-pick-after-overflow\n", true);
  REQUIRE(kmr.size() == 1);
  CHECK(kmr[0].options.model == r::Model::kernel_src);
  CHECK(kmr[0].missing.empty());
  const auto without = plan("eevdf-trace 1\nkernel 6.12\nexpect violation kernel_matches_reference\n", false);
  REQUIRE(without.size() == 1);
  CHECK_THAT(without[0].missing, Catch::Contains("kernel-src"));
  const auto itk = plan("eevdf-trace 1\nexpect violation ideal_tracks_kernel\n", true);
  REQUIRE(itk.size() == 2);
  CHECK(itk[0].options.judged_elsewhere == std::vector<std::string>{"ideal_tracks_kernel"});
  CHECK(itk[1].options.diff_ideal);
  const auto steady = plan("eevdf-trace 1\nexpect violation lag_bound_steady\nexpect violation no_overflow\n", true);
  REQUIRE(steady.size() == 1);
  CHECK(steady[0].options.arith == eevdf::trace::Arith::both);
  const auto ideal = plan("eevdf-trace 1\nexpect finding lag-bound-steady-off-tick-grid\n", true);
  CHECK(ideal.at(0).options.arith == eevdf::trace::Arith::ideal);
}

TEST_CASE("expect finding: the tagged failure and nothing else", "[replay][finding]") {
  const Header h = header_of("eevdf-trace 1\narith ideal\nexpect finding lag-bound-steady-off-tick-grid\n");
  const auto judging = [] {
    eevdf::properties::Judging j;
    j.kernel_arith = false;
    j.ideal_arith = true;
    return j;
  };
  const auto holds = [&](const std::function<void(r::ViolationLog&)>& feed, std::string& why) {
    std::ostringstream out, summary;
    const std::string file = "t.trace";  // the log keeps a reference
    r::ViolationLog log(file, h, false, out);
    log.judging(judging());
    feed(log);
    const eevdf::model::Config config;
    const r::FindingCauses causes;
    const auto missing = [&](std::string_view f) {
      return r::finding_missing(f, {log.tagged(), [](std::string_view, std::string&, std::string&) { return false; },
                                    causes, config});
    };
    const bool ok = log.expectations_hold(summary, missing);
    why = summary.str();
    return ok;
  };
  std::string why;
  CHECK(holds([](r::ViolationLog& log) { log.violation(violation(kSteady, kOffGrid)); }, why));
  // Beyond the condition: the property's violation without the finding's tag.
  CHECK_FALSE(holds(
      [](r::ViolationLog& log) {
        log.violation(violation(kSteady, kOffGrid));
        log.violation(violation(kSteady));
      },
      why));
  CHECK_THAT(why, Catch::Contains("beyond the finding lag-bound-steady-off-tick-grid"));
  // Another property failing beside it.
  CHECK_FALSE(holds(
      [](r::ViolationLog& log) {
        log.violation(violation(kSteady, kOffGrid));
        log.violation(violation("pick_eligible"));
      },
      why));
  CHECK_THAT(why, Catch::Contains("unexpected violation of pick_eligible"));
  // The finding absent.
  CHECK_FALSE(holds([](r::ViolationLog&) {}, why));
  CHECK_THAT(why, Catch::Contains("expected the finding lag-bound-steady-off-tick-grid"));
}

TEST_CASE("every finding has its condition in code", "[replay][finding]") {
  const eevdf::model::Config config;
  const r::FindingCauses causes;
  const std::map<std::string, std::uint64_t> none;
  for (const auto& f : eevdf::properties::kFindings) {
    INFO(f.name);
    const std::string why = r::finding_missing(
        f.name, {none, [](std::string_view, std::string&, std::string&) { return false; }, causes, config});
    CHECK_FALSE(why.empty());  // nothing occurred: each condition says what is missing
  }
}
