// Streaming trace reader: the header first, then one event or expectation at a time,
// so that a trace of any length replays in constant memory.
#pragma once

#include <istream>   // the input
#include <memory>    // the parser state behind a narrow header
#include <optional>  // end of input
#include <string>    // file name
#include <vector>    // query conjunctions

#include "trace/trace.h"
#include "trace/vocabulary.h"

namespace eevdf::trace {

class TraceReader {
 public:
  // `file` names the input in error messages. Every method throws TraceError on bad
  // input; after an error the reader is spent.
  TraceReader(std::istream& in, std::string file, const Vocabulary& vocab);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // Reads the header on first use: everything before the first event.
  const Header& header();
  // The next event or state query; nullopt at the end of the input.
  std::optional<BodyStatement> next();
  const std::string& file() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Whole-trace helpers for tests, generators and shrinkers (they hold a trace anyway).
Trace parse_trace(std::istream& in, const std::string& file, const Vocabulary& vocab);
Trace parse_trace_text(const std::string& text, const std::string& file, const Vocabulary& vocab);

// Queries outside a trace (explore's --reach): `QUERY SUBJECT VALUE`, the words of an
// `expect` line, joined by `and`; `Q S == V` and `task T STATE` are also read. The
// subjects are the header's tasks and CPUs. Throws TraceError naming `file`, line 1
// and the column in `text`; measures and ideal.lag are refused (not one state's).
std::vector<Expect> parse_query_conjunction(const std::string& text, const Header& header, const Vocabulary& vocab,
                                            const std::string& file);

}  // namespace eevdf::trace
