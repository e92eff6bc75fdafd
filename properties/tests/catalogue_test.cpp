// The catalogue (properties/catalogue.h) against the code: for every property, each
// (profile, arithmetic) where the catalogue says it is judged is one where the code
// judges it, and no other. The per-event checks are asked of the registry (a checker
// built with that one property selected); the whole-system ones of the replay
// engines (a two-task trace of each profile replayed in the mode that judges them).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "properties/judging.h"
#include "properties/kernel_src_judged.h"
#include "properties/kernel_warn.h"
#include "properties/registry.h"
#include "properties/tests/harness.h"
#include "replay/replay.h"

namespace p = eevdf::properties;
using eevdf::model::IdealArith;
using eevdf::model::KernelArith;
using eevdf::properties::testing::Harness;

namespace {

std::string two_tasks_of(std::string_view profile) {
  return std::string("eevdf-trace 1\n") + (profile == "6.12" ? "kernel 6.12\n" : "") +
         "topology 1x1\ntask 1\ntask 2\n@0 fork 1\n@0 fork 2\n@1ms tick 0\n";
}

// Whether the registry adds a per-event check of `name` in arithmetic A, profile P.
template <class A, class P>
bool registry_runs(const std::string& name) {
  Harness<A, P> h(two_tasks_of(P::name), {name});
  return !h.run->checker().empty();
}

// Whether the engine the catalogue names for a system property (judged_by: the
// replay flag) replays a `profile` trace, rather than refusing it as bad input.
bool engine_runs(std::string_view judged_by, std::string_view profile) {
  eevdf::replay::Options o;
  o.diff_ideal = judged_by == "--diff=ideal";
  o.diff_kernel_src = judged_by == "--diff=kernel-src";
  REQUIRE((o.diff_ideal || o.diff_kernel_src || judged_by == "--diff"));
  std::istringstream in(two_tasks_of(profile));
  std::ostringstream out, err;
  const auto outcome = judged_by == "--diff" ? eevdf::replay::replay_diff(in, "t.trace", o, out, err)
                                             : eevdf::replay::replay(in, "t.trace", o, out, err);
  INFO(out.str() << err.str());
  REQUIRE(outcome != eevdf::replay::Outcome::internal);
  return outcome != eevdf::replay::Outcome::bad_input;
}

}  // namespace

TEST_CASE("each property is judged exactly where the catalogue says", "[properties][catalogue]") {
  for (const p::PropertyInfo& info : p::kCatalogue) {
    const std::string name(info.name);
    CAPTURE(name);
    CHECK((info.exact_in == p::Exact::system) == !info.judged_by.empty());
    if (info.exact_in == p::Exact::system) {
      if (info.judged_by == "tests") continue;  // judged by tests of the whole tool, not by a replay
      if (info.judged_by == "--diff=kernel-src" && !eevdf::replay::have_kernel_src()) continue;
      CHECK(engine_runs(info.judged_by, "6.18") == p::applies_to(info, "6.18"));
      CHECK(engine_runs(info.judged_by, "6.12") == p::applies_to(info, "6.12"));
      continue;
    }
    if (name == p::kKernelWarn) {
      // Not a checker's property: the replay driver (replay::CheckedRun) reports the
      // conditions the model meets under every selection, profile and arithmetic
      // (tests/CMakeLists.txt, cli.replay_kernel_warn*).
      CHECK((info.exact_in == p::Exact::both && info.profiles == p::Profiles::both));
      continue;
    }
    using eevdf::model::profile_6_12;
    using eevdf::model::profile_6_18;
    CHECK(registry_runs<KernelArith, profile_6_18>(name) == (p::applies_to(info, "6.18") && p::runs_in(info, true)));
    CHECK(registry_runs<IdealArith, profile_6_18>(name) == (p::applies_to(info, "6.18") && p::runs_in(info, false)));
    CHECK(registry_runs<KernelArith, profile_6_12>(name) == (p::applies_to(info, "6.12") && p::runs_in(info, true)));
    CHECK(registry_runs<IdealArith, profile_6_12>(name) == (p::applies_to(info, "6.12") && p::runs_in(info, false)));
  }
}

TEST_CASE("every 6.12 kernel-arithmetic property is either judged on kernel-src or names what it needs",
          "[properties][catalogue]") {
  p::Judging alone;  // kernel-src without the reference in lockstep
  alone.profile = "6.12";
  alone.kernel_src = true;
  p::Judging lockstep = alone;  // the default tree: the rest on the reference
  lockstep.reference_lockstep = true;
  for (const p::PropertyInfo& info : p::kCatalogue) {
    if (info.exact_in == p::Exact::system || !p::runs_in(info, true)) continue;
    const std::string name(info.name);
    CAPTURE(name);
    const bool judged = p::judged_on_kernel_src(name);
    const bool gap = !p::kernel_src_gap(name).empty();
    CHECK(judged != gap);  // exactly one of the two tables
    if (!p::applies_to(info, "6.12")) continue;
    const std::string why = p::unjudged(name, alone, p::Asker::replay);
    CHECK(why.empty() == judged);
    if (!judged) CHECK(why.find(std::string(p::kernel_src_gap(name))) != std::string::npos);
    CHECK(p::unjudged(name, lockstep, p::Asker::replay).empty());
  }
}
