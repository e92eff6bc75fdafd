// Tests the failure path end to end: a run with the injected bug iowait_dec_new_rq
// on a small topology finds an iowait_accounting violation, the shrunk trace's saved
// text parses, replays to exactly the expected violation (exit 0 with its `expect
// violation`), and fails without that line; the same seeds are clean without the bug.
#include <catch2/catch.hpp>

#include <sstream>

#include "runner/campaign.h"
#include "runner/saved_trace.h"
#include "replay/replay.h"

using namespace eevdf;

namespace {

runner::Options iowait_run(bool inject) {
  runner::Options o;
  o.seed = 7;
  o.traces_max = 300;
  o.seconds_max = 0;
  o.generator = runner::default_generator_options();
  o.generator.topology.sockets = 1;
  o.generator.topology.cores_per_socket = 8;
  if (inject) o.generator.injections = {"iowait_dec_new_rq"};
  return o;
}

replay::Outcome replay_text(const std::string& text) {
  std::istringstream in(text);
  std::ostringstream out, err;
  return replay::replay(in, "saved.trace", replay::Options{}, out, err);
}

}  // namespace

TEST_CASE("iowait_dec_new_rq is found, shrunk and saved as a replayable trace") {
  const runner::Options o = iowait_run(true);
  REQUIRE(runner::validate(o).empty());
  const runner::Result r = runner::run_campaign(o);
  REQUIRE(r.tally.first_failure.count("iowait_accounting") == 1);
  const runner::FirstViolation v = r.tally.first_failure.at("iowait_accounting");
  const runner::Shrunk s = runner::shrink_failure(o, v, 20);
  CHECK(s.stats.events_after <= s.stats.events_before);
  CHECK(s.stats.events_after <= 30);
  const std::string text = runner::saved_trace_text(s.trace, v, o.seed, "eevdf-check run --seed 7");
  CHECK(text.find("expect violation iowait_accounting") != std::string::npos);
  CHECK(text.find("inject iowait_dec_new_rq") != std::string::npos);  // self-contained
  CHECK(text.find("# Found by `eevdf-check run`") == 0);
  CHECK(replay_text(text) == replay::Outcome::clean);  // the expected violation happened
  std::string bare = text;
  bare.erase(bare.find("expect violation iowait_accounting\n"), 35);
  CHECK(replay_text(bare) == replay::Outcome::failed);
  CHECK(runner::saved_trace_name("iowait_accounting", text, 0).size() == std::string("iowait_accounting-").size() + 14);
  CHECK(runner::saved_trace_name("p", text, 1) != runner::saved_trace_name("p", text, 0));
}

TEST_CASE("the same traces are clean without the injection") {
  const runner::Result r = runner::run_campaign(iowait_run(false));
  CHECK(r.tally.violations.count("iowait_accounting") == 0);
}
