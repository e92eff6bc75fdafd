// A generator of random traces that are valid by construction: it runs the kernel-
// arithmetic reference model alongside, so every event it emits is legal in the
// state the model is in (TRACE_FORMAT.md, the verb-by-state table).
#pragma once

#include <array>       // verb weights
#include <cstdint>     // seeds, counts
#include <memory>      // the generator state
#include <optional>    // end of the trace

#include "trace/trace.h"

namespace eevdf::generator {

struct Options {
  trace::TopologySpec topology{};      // default 2x64
  int tasks_min = 2;
  int tasks_max = 16;
  int busy_cpus_max = 8;               // CPUs the tasks are spread over
  std::uint64_t events_min = 50;
  std::uint64_t events_max = 500;
  // Relative weights per verb, indexed by trace::Verb; all zero: drawn per trace
  // (swarm testing: some verbs off, the others with very different weights).
  std::array<std::uint32_t, 9> verb_weights{};
  bool unphysical = false;             // allow long tick-less gaps with >= 2 queued
  int hz = 0;                          // 0: drawn (1000, 250 or 100)
  std::uint64_t gap_max_ns = 0;        // longest ordinary gap between events; 0: TICK_NSEC
};

// A pull generator: the header first, then one event at a time. The same (seed,
// options) gives the same trace on every machine.
class Generator {
 public:
  Generator(std::uint64_t seed, const Options& options);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  const trace::Header& header() const;
  // The next event, already applied to the generator's model; nullopt at the end.
  std::optional<trace::Event> next();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The whole trace in memory (tests, shrinkers).
trace::Trace generate_trace(std::uint64_t seed, const Options& options);

}  // namespace eevdf::generator
