// fast_matches_reference: generated traces over every topology shape, random feature
// sets, unphysical gaps and injections, run through the reference and both builds of
// the fast model, compared after every event (replay/fast_diff.h); and a test that
// the comparison can fail, naming the first differing field. The full campaign is
// `eevdf-check diff-campaign --seed 1 --traces 100000` (docs/FAST_MODEL.md).
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "model/fast/tests/first_mismatch.h"
#include "generator/generator.h"
#include "replay/apply_event.h"
#include "replay/fast_diff.h"
#include "replay/model_config.h"
#include "runner/diff_campaign.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

namespace {

using eevdf::replay::FastDiff;

using eevdf::model::fast::testing::first_mismatch;

}  // namespace

TEST_CASE("the fast model matches the reference on generated traces", "[fast][generated]") {
  eevdf::trace::testing::check("fast-matches-reference", 500, [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    // The campaign's knobs (shape, tasks, length, unphysical gaps, an injection).
    const eevdf::generator::Options o = eevdf::runner::diff_trace_options(seed);
    for (const std::string& found : {first_mismatch<false>(seed, o), first_mismatch<true>(seed, o)}) {
      if (found.empty()) continue;
      RC_LOG() << "generator seed " << seed << ": " << found << "\n"
               << eevdf::trace::to_text(eevdf::generator::generate_trace(seed, o));
      RC_FAIL("the fast model differs from the reference");
    }
  });
}

TEST_CASE("the differential names the first differing field", "[fast]") {
  eevdf::model::Config config;
  config.topology = *eevdf::model::Topology::short_form(1, 1).topology;
  const std::vector<eevdf::model::TaskSpec> specs{{1, 0, 0, -1}, {2, 0, 0, -1}};
  eevdf::model::Machine<eevdf::model::KernelArith> reference(config, specs);
  eevdf::model::fast::FastMachine<true> fast(config, specs);
  for (int p : {0, 1}) {
    REQUIRE(reference.fork(0, p, -1).empty());
    REQUIRE(fast.fork(0, p, -1).empty());
  }
  CHECK_FALSE(eevdf::replay::compare_state(reference, fast).has_value());
  // Task 1 runs, task 2 is queued on CPU 0. Renicing task 2 in the fast model only
  // changes CPU 0's load first (the CPUs are compared before the tasks).
  REQUIRE(fast.renice(0, 1, 5).empty());
  const auto m = eevdf::replay::compare_state(reference, fast);
  REQUIRE(m.has_value());
  CHECK(m->field == "cpu 0 load_weight");
  CHECK(m->reference == std::to_string(2 * (1024 << 10)));
  CHECK(m->fast == std::to_string((1024 + 335) << 10));
}

// An overflow only one model reports is a difference (fast_matches_reference): the
// comparison stops without a verdict only where both report it in the same event.
TEST_CASE("an overflow one model misses is a mismatch", "[fast][overflow]") {
  using Step = FastDiff<false>::Step;
  CHECK(FastDiff<false>::overflow_step(true, false) == Step::mismatch);
  CHECK(FastDiff<false>::overflow_step(false, true) == Step::mismatch);
  CHECK(FastDiff<false>::overflow_step(true, true) == Step::overflow);
  CHECK(FastDiff<false>::overflow_step(false, false) == Step::same);
  CHECK(FastDiff<true>::overflow_step(true, false) == FastDiff<true>::Step::mismatch);
}
