// The additive result of traces: counts that sum, first failures that keep the
// lowest trace index. Merging tallies in any order gives the same tally, which is
// what makes a run's result independent of --jobs.
#pragma once

#include <cstdint>  // counts
#include <map>      // per property, ordered (never unordered: output must not depend on hash order)
#include <string>   // names

#include "runner/coverage.h"
#include "runner/measures.h"

namespace eevdf::runner {

// The first violation of a property (or of a known finding) in a run.
struct FirstViolation {
  std::string property;
  std::string finding;  // the known finding it matches, or empty
  std::uint64_t index = 0;  // trace index in the campaign
  std::uint64_t seed = 0;   // that trace's seed
  int line = 0;             // event number in the generated trace (1-based)
  std::uint64_t time_ns = 0;
  int cpu = -1;
  int task = 0;
  std::string values;
  std::string explanation;
};

struct Tally {
  std::uint64_t traces = 0;
  std::uint64_t events = 0;
  std::uint64_t draws = 0;          // PRNG draws of the generator
  std::uint64_t steady_traces = 0;
  std::uint64_t consequences = 0;   // violations on a runqueue after its no_overflow
  std::uint64_t fast_checked = 0;   // traces cross-checked against the fast model (--diff-every)
  std::uint64_t ideal_checked = 0;  // traces run in both arithmetics (--ideal-every)
  std::uint64_t ideal_events = 0;   // their events
  std::uint64_t ideal_explained = 0;  // explained divergences (rounding ties) in them
  std::uint64_t ideal_diverged_traces = 0;  // traces with at least one
  std::map<std::string, std::uint64_t> ideal_explained_by;  // decision -> explained divergences
  std::map<std::string, std::uint64_t> violations;        // property -> count (findings apart)
  std::map<std::string, std::uint64_t> violating_traces;  // property -> traces
  std::map<std::string, std::uint64_t> findings;          // finding -> count
  std::map<std::string, FirstViolation> first_failure;    // property -> lowest index
  std::map<std::string, FirstViolation> first_finding;    // finding -> lowest index
  std::map<std::string, std::uint64_t> evaluated;  // property -> events at which it judged
  std::map<std::string, MeasureSamples> measures;  // measure -> per-trace final values
  std::uint64_t ideal_only_checked = 0;  // traces replayed in the ideal arithmetic (--steady-every)
  std::uint64_t ideal_only_events = 0;   // their events
  ProbeCounts coverage{};
  std::string internal_error;        // the first trace the tool itself failed on
  std::uint64_t internal_index = 0;

  void merge(const Tally& other);
  bool operator==(const Tally& other) const;
};

}  // namespace eevdf::runner
