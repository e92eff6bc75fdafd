// The query dispatch asserts instead of answering a query it was not written for:
// a query about a queued task other than the listed ones is a defect of the
// dispatch (exit 3), never a deadline comparison in disguise.
#include <catch2/catch.hpp>

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "replay/apply_event.h"
#include "replay/model_config.h"
#include "replay/query-inl.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace r = eevdf::replay;

TEST_CASE("a query the dispatch does not route asserts", "[query]") {
  const eevdf::trace::Trace t = eevdf::trace::parse_trace_text(
      "eevdf-trace 1\ntopology 1x1\ntask 1\n@0 fork 1 cpu=0\n", "test", r::vocabulary());
  eevdf::model::Machine<eevdf::model::KernelArith> m(r::make_config(t.header, r::Options{}, "test"),
                                                     r::make_task_specs(t.header));
  REQUIRE(r::apply_event(m, std::get<eevdf::trace::Event>(t.body.at(0))).empty());
  eevdf::trace::Expect x;
  x.subject = 1;
  x.query = eevdf::trace::Query::deadline_rel;
  CHECK_NOTHROW(r::evaluate_queued(m, m.tasks().at(0), x));
  x.query = eevdf::trace::Query::nr_running;  // a CPU query: never routed here
  CHECK_THROWS_AS(r::evaluate_queued(m, m.tasks().at(0), x), eevdf::InternalError);
  x.subject = 0;
  x.query = eevdf::trace::Query::lag;  // a task query: never routed to evaluate_cpu
  CHECK_THROWS_AS(r::evaluate_cpu(m, x), eevdf::InternalError);
}
