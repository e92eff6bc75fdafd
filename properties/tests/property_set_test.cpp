// The static fan-out (property_set.h): the set calls each adopted property at the
// hooks its class overrides, in the order of its classes, and refuses a class it does
// not list, a second property of one class, or one out of order.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "properties/property_set.h"
#include "properties/tests/harness.h"

namespace {

using K = eevdf::model::KernelArith;
using P18 = eevdf::model::profile_6_18;
using eevdf::properties::Env;
using eevdf::properties::Property;

// Two recording properties: `First` at before_event and picked, `Second` at
// before_event only; each appends its letter to the log at each call.
class First final : public Property<K, P18> {
 public:
  First(Env<K, P18>& env, std::string& log) : Property<K, P18>(env), log_(log) {}
  std::string_view name() const override { return "first"; }
  void before_event(const eevdf::trace::Event&) override { log_ += 'a'; }
  void picked(const eevdf::model::rq<K>&, const eevdf::model::sched_entity<K>*, bool) override { log_ += 'A'; }

 private:
  std::string& log_;
};
class Second final : public Property<K, P18> {
 public:
  Second(Env<K, P18>& env, std::string& log) : Property<K, P18>(env), log_(log) {}
  std::string_view name() const override { return "second"; }
  void before_event(const eevdf::trace::Event&) override { log_ += 'b'; }

 private:
  std::string& log_;
};
class Unlisted final : public Property<K, P18> {
 public:
  using Property<K, P18>::Property;
  std::string_view name() const override { return "unlisted"; }
};

using Set = eevdf::properties::PropertySet<K, P18, First, Second>;

struct Fixture {
  eevdf::properties::testing::Harness<K> harness{eevdf::properties::testing::kThree, {"sums_consistent"}};
  Env<K, P18> env{harness.run->machine(), harness.sink};
  std::string log;
  First first{env, log};
  Second second{env, log};
};

}  // namespace

TEST_CASE("a PropertySet calls its properties in class order, at their own hooks", "[properties][set]") {
  Fixture f;
  Set set(f.env);
  CHECK(set.empty());
  REQUIRE(set.adopt(&f.first));
  REQUIRE(set.adopt(&f.second));
  CHECK(!set.empty());
  // Its mask is the union of its classes' hooks.
  using eevdf::properties::Hook;
  using eevdf::properties::hook_bit;
  CHECK(set.hooks() == (hook_bit(Hook::before_event) | hook_bit(Hook::picked)));
  const eevdf::trace::Event e = eevdf::properties::testing::tick_event();
  set.before_event(e);
  set.picked(f.harness.rq(0), nullptr, false);
  set.after_event(e);  // neither overrides it
  CHECK(f.log == "abA");
}

TEST_CASE("a PropertySet calls only the classes it adopted", "[properties][set]") {
  Fixture f;
  Set set(f.env);
  REQUIRE(set.adopt(&f.second));
  set.before_event(eevdf::properties::testing::tick_event());
  set.picked(f.harness.rq(0), nullptr, false);
  CHECK(f.log == "b");
}

TEST_CASE("a PropertySet refuses an unlisted class, a second of a class, or the wrong order", "[properties][set]") {
  Fixture f;
  Unlisted unlisted(f.env);
  Set set(f.env);
  CHECK(!set.adopt(&unlisted));
  REQUIRE(set.adopt(&f.second));
  CHECK_THROWS_AS(set.adopt(&f.first), eevdf::InternalError);  // First comes before Second
  Second again(f.env, f.log);
  CHECK_THROWS_AS(set.adopt(&again), eevdf::InternalError);
}
