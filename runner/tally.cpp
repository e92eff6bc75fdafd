// Merging tallies; see tally.h.
#include "runner/tally.h"

#include <tuple>

namespace eevdf::runner {
namespace {

void keep_first(std::map<std::string, FirstViolation>& into, const std::map<std::string, FirstViolation>& from) {
  for (const auto& [name, v] : from) {
    const auto it = into.find(name);
    if (it == into.end() || v.index < it->second.index) into[name] = v;
  }
}

void add_counts(std::map<std::string, std::uint64_t>& into, const std::map<std::string, std::uint64_t>& from) {
  for (const auto& [name, n] : from) into[name] += n;
}

auto key(const FirstViolation& v) {
  return std::tie(v.property, v.finding, v.index, v.seed, v.line, v.time_ns, v.cpu, v.task, v.values, v.explanation);
}

}  // namespace

void Tally::merge(const Tally& o) {
  traces += o.traces;
  events += o.events;
  draws += o.draws;
  steady_traces += o.steady_traces;
  consequences += o.consequences;
  fast_checked += o.fast_checked;
  ideal_checked += o.ideal_checked;
  ideal_events += o.ideal_events;
  ideal_explained += o.ideal_explained;
  ideal_diverged_traces += o.ideal_diverged_traces;
  add_counts(ideal_explained_by, o.ideal_explained_by);
  add_counts(violations, o.violations);
  add_counts(violating_traces, o.violating_traces);
  add_counts(findings, o.findings);
  keep_first(first_failure, o.first_failure);
  keep_first(first_finding, o.first_finding);
  add_counts(evaluated, o.evaluated);
  for (const auto& [name, samples] : o.measures) merge_samples(measures[name], samples);
  ideal_only_checked += o.ideal_only_checked;
  ideal_only_events += o.ideal_only_events;
  for (std::size_t i = 0; i < coverage.size(); ++i) coverage[i] += o.coverage[i];
  if (!o.internal_error.empty() && (internal_error.empty() || o.internal_index < internal_index)) {
    internal_error = o.internal_error;
    internal_index = o.internal_index;
  }
}

bool Tally::operator==(const Tally& o) const {
  auto same = [](const std::map<std::string, FirstViolation>& a, const std::map<std::string, FirstViolation>& b) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
      if (i->first != j->first || key(i->second) != key(j->second)) return false;
    return true;
  };
  return traces == o.traces && events == o.events && draws == o.draws && steady_traces == o.steady_traces &&
         consequences == o.consequences && fast_checked == o.fast_checked && ideal_checked == o.ideal_checked &&
         ideal_events == o.ideal_events && ideal_explained == o.ideal_explained &&
         ideal_diverged_traces == o.ideal_diverged_traces && ideal_explained_by == o.ideal_explained_by &&
         violations == o.violations && violating_traces == o.violating_traces &&
         findings == o.findings && same(first_failure, o.first_failure) && same(first_finding, o.first_finding) &&
         evaluated == o.evaluated && measures == o.measures && ideal_only_checked == o.ideal_only_checked &&
         ideal_only_events == o.ideal_only_events && coverage == o.coverage && internal_error == o.internal_error && internal_index == o.internal_index;
}

}  // namespace eevdf::runner
