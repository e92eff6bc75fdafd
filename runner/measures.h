// What a campaign keeps of its properties beyond violations: the events at which
// each property judged (Property::evaluated) and each measure's final value per
// trace (Sink::measure), kept so that merging in any order gives the same tally.
#pragma once

#include <cstdint>  // counts, indices
#include <map>      // per property
#include <string>   // names, exact values
#include <vector>   // samples

#include "properties/checker.h"

namespace eevdf::runner {

// One trace's final value of one measure.
struct MeasureSample {
  double value = 0;           // for ordering and the percentiles
  std::string exact;          // numerator/denominator as the property gives it
  std::uint64_t index = 0;    // trace index in the campaign
  std::uint64_t seed = 0;     // that trace's seed

  bool operator==(const MeasureSample&) const = default;
};

// A measure's samples, worst (largest value) first, ties by the lower trace index:
// a total order, so the list is the same whichever thread ran which trace.
using MeasureSamples = std::vector<MeasureSample>;

MeasureSample make_sample(const std::string& numerator, const std::string& denominator, std::uint64_t index,
                          std::uint64_t seed);
void add_sample(MeasureSamples& into, MeasureSample s);
void merge_samples(MeasureSamples& into, const MeasureSamples& from);

// A measure over a campaign: its worst trace and the nearest-rank percentiles of
// the per-trace values.
struct MeasureSummary {
  std::uint64_t traces = 0;
  MeasureSample worst;
  double p50 = 0;
  double p99 = 0;
};
MeasureSummary summarize(const MeasureSamples& samples);

// Adds, per catalogued property the checker ran, the events at which it judged.
template <class A, class P>
void tally_evaluated(const properties::Checker<A, P>& checker, std::map<std::string, std::uint64_t>& evaluated);

}  // namespace eevdf::runner

#include "runner/measures-inl.h"
