// Measure samples and their summary; see measures.h.
#include "runner/measures.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>

namespace eevdf::runner {
namespace {

bool worse(const MeasureSample& a, const MeasureSample& b) {
  return a.value > b.value || (a.value == b.value && a.index < b.index);
}

// The nearest-rank percentile p (0 < p <= 100) of the values, `worst_first` sorted
// descending: rank ceil(p/100 * n) in ascending order.
double percentile(const MeasureSamples& worst_first, double p) {
  const auto n = worst_first.size();
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
  return worst_first[n - std::max<std::size_t>(rank, 1)].value;
}

}  // namespace

MeasureSample make_sample(const std::string& numerator, const std::string& denominator, std::uint64_t index,
                          std::uint64_t seed) {
  const long double num = std::strtold(numerator.c_str(), nullptr);
  const long double den = std::strtold(denominator.c_str(), nullptr);
  MeasureSample s;
  s.value = den != 0 ? static_cast<double>(num / den) : 0;
  s.exact = denominator == "1" ? numerator : numerator + "/" + denominator;
  s.index = index;
  s.seed = seed;
  return s;
}

void add_sample(MeasureSamples& into, MeasureSample s) {
  into.insert(std::upper_bound(into.begin(), into.end(), s, worse), std::move(s));
}

void merge_samples(MeasureSamples& into, const MeasureSamples& from) {
  if (from.size() <= 8) {  // one trace's: inserted in place, without copying `into`
    for (const MeasureSample& s : from) add_sample(into, s);
    return;
  }
  MeasureSamples merged;
  merged.reserve(into.size() + from.size());
  std::merge(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged), worse);
  into = std::move(merged);
}

MeasureSummary summarize(const MeasureSamples& samples) {
  MeasureSummary s;
  s.traces = samples.size();
  if (samples.empty()) return s;
  s.worst = samples.front();
  s.p50 = percentile(samples, 50);
  s.p99 = percentile(samples, 99);
  return s;
}

}  // namespace eevdf::runner
