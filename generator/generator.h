// A generator of random traces that are valid by construction: it runs the kernel-
// arithmetic reference model alongside, so every event it emits is legal in the
// state the model is in (docs/TRACE_FORMAT.md, the verb-by-state table).
#pragma once

#include <array>       // verb weights
#include <cstdint>     // seeds, counts
#include <memory>      // the generator state
#include <optional>    // end of the trace
#include <string>      // feature and injection names
#include <utility>     // feature settings
#include <vector>      // feature and injection lists

#include "generator/oracle.h"
#include "generator/prng.h"

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
  // The share of drawn ticks that tick every CPU (`tick all`); the others tick one
  // running task's CPU. The physical ticks (a CPU with >= 2 queued, every TICK_NSEC)
  // are `tick <cpu>` lines regardless.
  Ratio tick_all_cpus{1, 10};
  int hz = 0;                          // 0: drawn (1000, 250 or 100)
  std::uint64_t gap_max_ns = 0;        // longest ordinary gap between events; 0: TICK_NSEC
  // Per trace, draw a feature set (NEXT_BUDDY and RUN_TO_PARITY_WAKEUP on in some
  // traces, a few NO_ switches): `run` turns it on; `gen` keeps the profile defaults.
  bool random_features = false;
  // Settings written in every header after the drawn ones, so they win (--features).
  std::vector<std::pair<std::string, bool>> features;
  // Historical bugs switched on in every header (--inject), so a saved trace is
  // self-contained.
  std::vector<std::string> injections;
  // The share of traces in steady mode: forks of always-runnable tasks and ticks of
  // every CPU each TICK_NSEC, nothing leaving (the catalogue's steady stretch for
  // lag_bound_steady). {0, 1}: never.
  Ratio steady{0, 1};
  // The semantics profile the traces are valid under (`kernel` header; validity
  // depends on the model's decisions): "6.18" (default, no header line) or "6.12".
  std::string profile = "6.18";
  // When set, the traces are valid on what it makes (a kernel tree's kernel-src model)
  // instead of on the reference of `profile`, which then names the header's profile only.
  OracleFactory oracle;
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
  // Whether this trace is in steady mode (Options::steady).
  bool steady() const;
  // PRNG draws so far: part of `run`'s digest (a divergence shows as a different count).
  std::uint64_t draws() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The whole trace in memory (tests, shrinkers).
trace::Trace generate_trace(std::uint64_t seed, const Options& options);

}  // namespace eevdf::generator
