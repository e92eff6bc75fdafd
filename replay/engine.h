// The seam between the replay driver and a model: events in, expectations judged.
// Until the reference model exists, the only engine checks nothing that depends on
// the model's decisions and says so.
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
  // Applies one event; throws trace::TraceError when it is illegal in the model's state.
  virtual void apply(const trace::Event& event) = 0;
  // Judges one state query against the state after the last event.
  virtual void expect(const trace::Expect& expectation) = 0;
  // Prints the closing report and says how the replay ended.
  virtual Outcome finish(std::uint64_t events, std::ostream& out) = 0;
};

std::unique_ptr<Engine> make_engine(const trace::Header& header, const Options& options,
                                    const std::string& file);

}  // namespace eevdf::replay
