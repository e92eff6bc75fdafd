// The coverage probes of the default campaign (`run` with its defaults: 2000 traces of
// the default generator options), asserted as FoundationDB asserts its code probes: a
// kernel path that the default campaign stops reaching (a generator change that drops
// a verb, a model change that makes a branch dead) fails here instead of shrinking the
// campaign's reach without a word.
#include <catch2/catch.hpp>

#include <string>

#include "runner/campaign.h"

using namespace eevdf;

namespace {

// `eevdf-check run --seed 1`: the CLI's defaults, the seed fixed, no time limit (so
// that a slow machine runs the same traces).
runner::Options default_campaign() {
  runner::Options o;
  o.seed = 1;
  o.traces_max = 2000;
  o.seconds_max = 0;
  o.jobs = 2;  // the result does not depend on it
  o.generator = runner::default_generator_options();
  return o;
}

// The probes that stayed at 0, by name.
std::string unreached(const runner::ProbeCounts& counts) {
  std::string out;
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (counts[i] == 0) out += (out.empty() ? "" : ", ") + std::string(runner::kProbeNames[i]);
  return out;
}

}  // namespace

TEST_CASE("the default campaign reaches every coverage probe", "[coverage]") {
  const runner::Result r = runner::run_campaign(default_campaign());
  REQUIRE(r.tally.traces == 2000);
  INFO("probes never reached: " << unreached(r.tally.coverage));
  CHECK(unreached(r.tally.coverage).empty());
}

TEST_CASE("a probe whose path the campaign no longer takes stays at 0", "[coverage]") {
  // No sleep verb: nothing blocks, so no io sleep is counted and no entity is delayed.
  runner::Options o = default_campaign();
  o.traces_max = 200;
  o.generator.verb_weights = {1, 1, 0, 1, 1, 1, 1, 1, 1};  // indexed by trace::Verb; sleep is 2
  REQUIRE(static_cast<std::size_t>(trace::Verb::sleep) == 2);
  const runner::Result r = runner::run_campaign(o);
  const std::string zero = unreached(r.tally.coverage);
  CHECK(zero.find("io sleep counted") != std::string::npos);
  CHECK(zero.find("delayed entry") != std::string::npos);
}
