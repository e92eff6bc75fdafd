// Tests that the writer and the parser agree, as a RapidCheck property over random
// valid traces from gen_trace.h: parse_trace_text(to_text(t)) == t, and to_text is a
// fixed point (writing the parsed trace gives the same bytes, preamble included,
// which operator== ignores). 3000 traces per run by default; RC_PARAMS overrides
// (e.g. RC_PARAMS="max_success=100000"). A failure prints the trace's text as a C
// literal and the RC_PARAMS that reproduce it (rc_check.h).
#include <catch2/catch.hpp>

#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/tests/gen_trace.h"
#include "trace/tests/rc_check.h"
#include "trace/writer.h"

namespace eevdf::trace {
namespace {

TEST_CASE("parse(to_text(t)) == t and to_text is a fixed point", "[roundtrip][property]") {
  testing::check("trace_round_trip", 3000, [] {
    const Vocabulary& vocab = replay::vocabulary();
    const Trace t = *testgen::trace(vocab);
    const std::string text = to_text(t);
    RC_LOG() << "text: " << testing::c_literal(text) << "\n";
    Trace back;
    try {
      back = parse_trace_text(text, "roundtrip.trace", vocab);
    } catch (const TraceError& e) {
      RC_FAIL(std::string("the writer's text does not parse: ") + e.what());
    }
    RC_ASSERT(back == t);
    RC_ASSERT(to_text(back) == text);
  });
}

}  // namespace
}  // namespace eevdf::trace
