// RapidCheck generators of random, syntactically valid traces (docs/TRACE_FORMAT.md).
//
// "Valid" here means what the parser and trace::StaticRules can judge: the header
// in order with every line drawn (kernel, arith, both topology forms, hz,
// base_slice, features, inject, task, trace-wide and initial expects), events at
// non-decreasing times naming declared tasks and CPUs in range, every verb and every
// query, names from the given Vocabulary. Model-dependent validity (is the task
// running?) is not attempted: a replay may still reject these traces.
//
// Swarm style (untuned variety reaches rare interleavings): each trace first draws which verbs and queries are on,
// so some traces are all ticks and others have no migrate at all.
//
// The generated values are exactly what the parser would produce for the written
// text (fields a form does not use keep their defaults), so that
// parse_trace_text(to_text(t)) == t is a fair property. Shrinking comes from
// rc::gen::exec: fewer statements, smaller numbers.
#pragma once

#include <rapidcheck.h>

#include <cstdint>  // times
#include <ostream>  // showValue
#include <vector>   // bodies

#include "trace/trace.h"
#include "trace/vocabulary.h"

namespace eevdf::trace::testgen {

// A whole trace: header(vocab), then body(header, vocab).
rc::Gen<Trace> trace(const Vocabulary& vocab);

// A header drawing every header line at random (each optional one present or not).
// The last three (features, inject, the trace-wide expects) need names: features,
// injections and properties come from `vocab`.
rc::Gen<Header> header(const Vocabulary& vocab);

// Events and state queries at non-decreasing times from `time_min_ns`, naming the
// tasks and CPUs `header` declares. At most `statements_max` statements.
rc::Gen<std::vector<BodyStatement>> body(const Header& header, const Vocabulary& vocab,
                                         std::uint64_t time_min_ns, int statements_max);

// One event with the given verb at `time_ns`. Verbs that need a task (fork, wake,
// migrate, renice, setslice) need `header` to declare one.
rc::Gen<Event> event(const Header& header, Verb verb, std::uint64_t time_ns);

// One state query of the given kind. Task queries need a declared task.
rc::Gen<Expect> expect(const Header& header, const Vocabulary& vocab, Query query);

// A duration in ns, biased to values whose canonical text uses every unit
// (0, ns, us, ms, s, up to 2^64-1).
rc::Gen<std::uint64_t> duration_ns();

// Decimal digits (1..`digits_max`, leading zeros allowed) for RationalText.
rc::Gen<std::string> digits(int digits_max);

}  // namespace eevdf::trace::testgen

namespace eevdf::trace {

// How RapidCheck shows a drawn value in a counterexample: as trace text (writer.h),
// found by argument-dependent lookup.
void showValue(const Trace& trace, std::ostream& os);
void showValue(const Header& header, std::ostream& os);
void showValue(const Event& event, std::ostream& os);
void showValue(const Expect& expect, std::ostream& os);

}  // namespace eevdf::trace
