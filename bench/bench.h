// Benchmarks of the models on fixed traces (docs/BENCHMARKS.md): events per second
// of pre-parsed events, the models of a table measured in turns in one run. Speed is
// measured here, never by timed tests.
#pragma once

#include <stdexcept>  // InvalidOnKernelSrc

#include <cstdint>  // counts
#include <string>   // names
#include <vector>   // results

#include "trace/trace.h"

namespace eevdf::bench {

struct Measurement {
  std::string model;          // "kernel", "ideal", "kernel+checks", ...
  std::uint64_t events = 0;   // events replayed (the ideal reference: a prefix)
  double seconds = 0;         // best of the repetitions
  double events_per_s() const { return seconds > 0 ? static_cast<double>(events) / seconds : 0; }
};

struct TraceResult {
  std::string name;
  std::uint64_t events = 0;
  double parse_seconds = 0;
  std::vector<Measurement> models;
  // ideal_tracks_kernel's lockstep ("ideal-lockstep", on the ideal prefix's length):
  // its explained divergences and the CPUs it stopped comparing.
  std::uint64_t lockstep_explained = 0;
  std::uint64_t lockstep_tainted_cpus = 0;
};

struct Options {
  int repetitions = 3;                     // rounds; each model keeps its least disturbed run
  std::uint64_t ideal_events_max = 10000;  // exact rationals grow: a prefix only
  std::vector<std::string> models;         // only these (profiling); empty: all
  std::vector<std::string> skip;           // kernel+checks without these properties
};

// Parses `text` once, then measures every model on the pre-parsed events.
// A trace kernel-src refuses at an event: with `--kernel-tree` the tree decides what is
// legal, and a trace drawn for the reference need not be legal there (bad input).
struct InvalidOnKernelSrc : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TraceResult run_trace(const std::string& name, const std::string& text, const Options& options);

}  // namespace eevdf::bench
