// Tests that a campaign's result depends on its seed and trace count only: the same
// seed gives the same tally and digest with 1 and 2 threads, and two shards together
// run exactly the traces of the unsharded run (their tallies merge to its tally).
// Also that the faithful model shows no violation but known findings in 200 traces.
#include <catch2/catch.hpp>

#include "runner/campaign.h"

using namespace eevdf;

namespace {

runner::Options small(std::uint64_t traces) {
  runner::Options o;
  o.seed = 42;
  o.traces_max = traces;
  o.seconds_max = 0;
  o.generator = runner::default_generator_options();
  return o;
}

}  // namespace

TEST_CASE("one and two jobs give the same result and digest") {
  runner::Options o = small(300);
  REQUIRE(runner::validate(o).empty());
  const runner::Result one = runner::run_campaign(o);
  o.jobs = 2;
  const runner::Result two = runner::run_campaign(o);
  CHECK(one.tally.traces == 300);
  CHECK(one.tally == two.tally);
  CHECK(one.digest == two.digest);
  o.seed = 43;  // and the digest does see the seed
  CHECK(runner::run_campaign(o).digest != one.digest);
}

TEST_CASE("shards 0/2 and 1/2 together run exactly the unsharded traces") {
  runner::Options o = small(200);
  const runner::Result all = runner::run_campaign(o);
  runner::Options s0 = o, s1 = o;
  s0.shard_count = s1.shard_count = 2;
  s1.shard_index = 1;
  std::vector<std::uint64_t> i0 = runner::shard_indices(s0), i1 = runner::shard_indices(s1);
  CHECK(i0.size() + i1.size() == 200);
  for (std::uint64_t k : i0) CHECK(k % 2 == 0);
  for (std::uint64_t k : i1) CHECK(k % 2 == 1);
  runner::Tally merged = runner::run_campaign(s0).tally;
  merged.merge(runner::run_campaign(s1).tally);
  CHECK(merged == all.tally);
}

TEST_CASE("a time budget alone runs a prefix of the campaign") {
  runner::Options o = small(0);
  o.seconds_max = 0.3;
  o.jobs = 2;
  const runner::Result timed = runner::run_campaign(o);
  REQUIRE(timed.tally.traces > 0);
  CHECK(timed.stopped_because == "time");
  runner::Options counted = small(timed.tally.traces);
  CHECK(runner::run_campaign(counted).digest == timed.digest);
}

TEST_CASE("the faithful model: no violation but known findings in 200 traces") {
  runner::Options o = small(200);
  o.seed = 1;
  const runner::Result r = runner::run_campaign(o);
  CHECK(r.tally.traces == 200);
  CHECK(r.tally.internal_error.empty());
  CHECK(r.tally.violations.empty());
  CHECK(runner::failures(r, false).empty());
}

TEST_CASE("validate rejects bad shards and unimplemented injections") {
  runner::Options o = small(10);
  o.shard_index = 2;
  o.shard_count = 2;
  CHECK_FALSE(runner::validate(o).empty());
  o = small(10);
  o.generator.injections = {"stale_min_slice"};
  CHECK_FALSE(runner::validate(o).empty());
}
