// The fingerprint of a state (explore/canonical.h): equal for states that differ by a
// shift of time, by a permutation of tasks declared alike or of CPUs (under
// symmetry), or in fields the model never reads again; different as soon as
// something the model reads differs. Each pair of states is built by two traces.
#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "explore/canonical-inl.h"
#include "replay/apply_event.h"
#include "replay/model_config.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace {

using eevdf::model::KernelArith;
using eevdf::model::profile_6_18;
using Machine = eevdf::model::Machine<KernelArith, profile_6_18>;

const std::string kHeader = "eevdf-trace 1\ntopology 1x2\ntask 1\ntask 2\n";

// The fingerprints of the state after `events`, without and with symmetry.
std::pair<std::uint64_t, std::uint64_t> fingerprints(const std::string& events) {
  const auto t = eevdf::trace::parse_trace_text(kHeader + events, "test", eevdf::replay::vocabulary());
  Machine m(eevdf::replay::make_config(t.header, {}, "test"), eevdf::replay::make_task_specs(t.header));
  for (const auto& s : t.body)
    if (const auto* e = std::get_if<eevdf::trace::Event>(&s)) REQUIRE(eevdf::replay::apply_event(m, *e).empty());
  const eevdf::explore::Canonical<profile_6_18> c(eevdf::replay::make_task_specs(t.header), true);
  return {c.fingerprint(m, false), c.fingerprint(m, true)};
}

}  // namespace

TEST_CASE("a shift of time leaves the fingerprint", "[canonical]") {
  CHECK(fingerprints("@0 fork 1\n@0 fork 2\n@1ms tick 0\n") ==
        fingerprints("@5ms fork 1\n@5ms fork 2\n@6ms tick 0\n"));
}

TEST_CASE("permuted tasks and CPUs share a fingerprint under symmetry only", "[canonical]") {
  const auto a = fingerprints("@0 fork 1 cpu=0\n@0 fork 2 cpu=1\n@1ms tick 0\n");
  const auto b = fingerprints("@0 fork 2 cpu=1\n@0 fork 1 cpu=0\n@1ms tick 0\n");
  const auto tasks_swapped = fingerprints("@0 fork 2 cpu=0\n@0 fork 1 cpu=1\n@1ms tick 0\n");
  const auto cpus_swapped = fingerprints("@0 fork 1 cpu=1\n@0 fork 2 cpu=0\n@1ms tick 1\n");
  CHECK(a == b);  // the same state, forked in another order
  CHECK(tasks_swapped.first != a.first);
  CHECK(tasks_swapped.second == a.second);
  CHECK(cpus_swapped.first != a.first);
  CHECK(cpus_swapped.second == a.second);
}

// A lone task that ran 1 ms or 2 ms before a sleep and a wake is placed alike: only
// its sum_exec_runtime, which the model never reads, differs.
TEST_CASE("fields the model never reads again are left out", "[canonical]") {
  CHECK(fingerprints("@0 fork 1\n@1ms sleep 1\n@1ms wake 1\n") == fingerprints("@0 fork 1\n@2ms sleep 1\n@2ms wake 1\n"));
}

TEST_CASE("what the model reads is in the fingerprint", "[canonical]") {
  const auto base = fingerprints("@0 fork 1\n@0 fork 2\n@1ms tick 0\n");
  CHECK(fingerprints("@0 fork 1\n@0 fork 2\n@2ms tick 0\n").second != base.second);  // the lags and curr's run
  CHECK(fingerprints("@0 fork 1\n@0 sleep 1 io\n").second != fingerprints("@0 fork 1\n@0 sleep 1\n").second);
  CHECK(fingerprints("@0 fork 1\n@0 sleep 1 io\n").second !=
        fingerprints("@0 fork 1\n@0 sleep 1 io=noacct\n").second);  // nr_iowait_acct
  CHECK(fingerprints("@0 fork 1\n@0 fork 2\n@1ms renice 2 5\n").second != base.second);  // a weight
  CHECK(fingerprints("@0 fork 1\n").second != fingerprints("@0 fork 1\n@0 exit 1\n").second);
  // The tasks still new are part of the state: one exited is not one unforked.
  CHECK(fingerprints("@0 fork 1\n@0 exit 1\n").second != fingerprints("").second);
}
