// The seam between the replay driver and the models: events in, expectations judged,
// violations collected. engine_model.cpp implements it over the reference model.
#pragma once

#include <cstdint>  // event counts
#include <memory>   // the engine
#include <ostream>  // the closing report
#include <string>   // file name

#include "replay/replay.h"
#include "trace/trace.h"

namespace eevdf::replay {

class Engine {
 public:
  virtual ~Engine() = default;
  // Applies one event; throws trace::TraceError when it is illegal in the model's
  // state. Returns false when the replay must stop (a violation without trace-wide
  // expectations).
  virtual bool apply(const trace::Event& event) = 0;
  // Judges one state query against the state after the last event.
  virtual void expect(const trace::Expect& expectation) = 0;
  // Prints the closing report and says how the replay ended.
  virtual Outcome finish(std::uint64_t events) = 0;
};

struct EngineSetup {
  const trace::Header& header;
  const Options& options;
  trace::Arith arith;  // the arithmetic of this pass (never `both`)
  bool shadow;         // run the other arithmetic alongside, for cross queries
  const std::string& file;
  std::ostream& out;   // reports, or the dump
  std::ostream& err;   // the summary when `out` carries a dump
};

std::unique_ptr<Engine> make_engine(const EngineSetup& setup);

}  // namespace eevdf::replay
