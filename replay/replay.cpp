// The replay driver: stream the trace, apply the model-independent rules, hand
// events to the engine, evaluate expectations. See replay.h.
#include "replay/replay.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/assert.h"
#include "replay/engine.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/static_rules.h"

namespace eevdf::replay {
namespace {

Outcome run(trace::TraceReader& reader, const Options& options, std::ostream& out) {
  const trace::Header& header = reader.header();
  std::unique_ptr<Engine> engine = make_engine(header, options, reader.file());
  trace::StaticRules rules(reader.file());
  for (const trace::Expect& x : header.initial_expects) engine->expect(x);
  std::uint64_t events = 0;
  while (auto statement = reader.next()) {
    if (const trace::Event* e = std::get_if<trace::Event>(&*statement)) {
      rules.check(*e);
      engine->apply(*e);
      ++events;
    } else {
      engine->expect(std::get<trace::Expect>(*statement));
    }
  }
  return engine->finish(events, out);
}

}  // namespace

Outcome replay(std::istream& in, const std::string& file, const Options& options, std::ostream& out,
               std::ostream& err) {
  try {
    trace::TraceReader reader(in, file, vocabulary());
    return run(reader, options, out);
  } catch (const trace::TraceError& e) {
    err << e.what() << "\n";
    return Outcome::bad_input;
  } catch (const InternalError& e) {
    err << file << ": " << e.what() << "\n";
    return Outcome::internal;
  }
}

Outcome worst(Outcome a, Outcome b) { return std::max(a, b); }

}  // namespace eevdf::replay
