// The canonical text of a trace: what generators and shrinkers save. Parsing the
// output gives back an equal trace (the round-trip property in trace/tests).
#pragma once

#include <ostream>  // output
#include <string>   // whole-trace text

#include "trace/trace.h"

namespace eevdf::trace {

void write_header(std::ostream& out, const Header& header);
void write_statement(std::ostream& out, const BodyStatement& statement);
std::string format_event(const Event& event);
std::string format_expect(const Expect& expect);
std::string to_text(const Trace& trace);

}  // namespace eevdf::trace
