// Pass 3, fewer CPUs; see reduce_cpus.h.
#include "shrinkers/reduce_cpus.h"

#include <algorithm>  // std::find
#include <set>        // CPUs named

#include "base/assert.h"
#include "model/tunables.h"

namespace eevdf::shrinkers {
namespace {

int ncpus_of(const Work& w) { return w.header.topology_or_default().ncpus(); }

// The CPUs the trace depends on, ascending: those it names, and CPU 0 when a fork
// falls back to it (no `cpu=` on the fork or the declaration).
std::vector<int> cpus_named(const Work& w) {
  std::set<int> used;
  for (const trace::TaskDecl& d : w.header.tasks)
    if (d.cpu) used.insert(*d.cpu);
  for (const trace::Event& e : w.events) {
    if (e.cpu) used.insert(*e.cpu);
    if (e.verb == trace::Verb::fork && !e.cpu) {
      const trace::TaskDecl* d = w.header.find_task(e.task);
      if (d == nullptr || !d->cpu) used.insert(0);
    }
  }
  return {used.begin(), used.end()};
}

// Tries `folded`, then the same with the compensating base slice. True iff accepted
// (`w` is then the accepted trace).
bool try_fold(Search& search, Work& w, Work folded, PassStats& stats) {
  const auto compensated = compensating_base_slice(w.header, ncpus_of(folded));
  Work candidate = folded;
  if (search.accepts(candidate, stats)) {
    w = std::move(candidate);
    return true;
  }
  if (!compensated || *compensated == folded.header.base_slice_ns || search.spent()) return false;
  folded.header.base_slice_ns = *compensated;
  if (!search.accepts(folded, stats)) return false;
  w = std::move(folded);
  return true;
}

std::vector<int> identity(int ncpus) {
  std::vector<int> map(static_cast<std::size_t>(ncpus));
  for (int c = 0; c < ncpus; ++c) map[static_cast<std::size_t>(c)] = c;
  return map;
}

// Step 3: a CPU into a lower one, the highest CPU first, then the next lower ones;
// the CPUs above the folded one shift down, so the machine has one CPU fewer. True
// iff one fold was accepted.
bool fold_one(Search& search, Work& w, PassStats& stats) {
  const int n = ncpus_of(w);
  const std::vector<int> named = cpus_named(w);
  for (int h = n - 1; h >= 1 && !search.spent(); --h) {
    const bool h_named = std::find(named.begin(), named.end(), h) != named.end();
    for (int c = 0; c < h && !search.spent(); ++c) {
      std::vector<int> map = identity(n);
      map[static_cast<std::size_t>(h)] = c;
      for (int x = h + 1; x < n; ++x) map[static_cast<std::size_t>(x)] = x - 1;
      if (try_fold(search, w, fold_cpus(w, map, n - 1), stats)) return true;
      if (!h_named) break;  // an unnamed CPU folds the same into any other
    }
  }
  return false;
}

}  // namespace

Work fold_cpus(const Work& w, const std::vector<int>& map, int ncpus) {
  EEVDF_ASSERT(ncpus >= 1, "a machine has a CPU");
  EEVDF_ASSERT(map.size() == static_cast<std::size_t>(ncpus_of(w)), "the map covers every CPU");
  const auto mapped = [&](int c) {
    const int to = map.at(static_cast<std::size_t>(c));
    EEVDF_ASSERT(to >= 0 && to < ncpus, "a fold stays on the new machine");
    return to;
  };
  Work out = w;
  out.header.topology = trace::TopologySpec{false, 1, ncpus, 8, 8, 1};
  for (trace::TaskDecl& d : out.header.tasks)
    if (d.cpu) d.cpu = mapped(*d.cpu);
  for (trace::Event& e : out.events)
    if (e.cpu) e.cpu = mapped(*e.cpu);
  return out;
}

std::optional<std::optional<std::uint64_t>> compensating_base_slice(const trace::Header& header, int ncpus) {
  const std::uint64_t normalized = header.base_slice_ns.value_or(model::NORMALIZED_BASE_SLICE_6_18_NS);
  const std::uint64_t scaled = model::sched_base_slice(normalized, header.topology_or_default().ncpus());
  const std::uint64_t factor = model::get_update_sysctl_factor(ncpus);
  if (scaled % factor != 0) return std::nullopt;
  const std::uint64_t wanted = scaled / factor;
  if (wanted < 1 || wanted > model::NORMALIZED_BASE_SLICE_MAX_NS) return std::nullopt;
  if (wanted == model::NORMALIZED_BASE_SLICE_6_18_NS) return std::optional<std::uint64_t>{};
  return std::optional<std::uint64_t>{wanted};
}

bool reduce_cpus_pass(Search& search, Work& w, PassStats& stats) {
  const int ncpus_before = ncpus_of(w);
  if (ncpus_before > 1 && try_fold(search, w, fold_cpus(w, std::vector<int>(static_cast<std::size_t>(ncpus_before), 0), 1), stats))
    return true;
  const std::vector<int> named = cpus_named(w);
  const int k = named.empty() ? 1 : static_cast<int>(named.size());
  bool progress = false;
  if (!search.spent() && (k != ncpus_before || (!named.empty() && named.back() != k - 1))) {
    std::vector<int> map(static_cast<std::size_t>(ncpus_before), 0);
    for (int i = 0; i < static_cast<int>(named.size()); ++i) map[static_cast<std::size_t>(named[static_cast<std::size_t>(i)])] = i;
    progress = try_fold(search, w, fold_cpus(w, map, k), stats);
  }
  // Each accepted fold removes a CPU: at most ncpus folds.
  for (int step = 0; step < ncpus_before && ncpus_of(w) > 1 && !search.spent(); ++step) {
    if (!fold_one(search, w, stats)) break;
    progress = true;
  }
  EEVDF_ASSERT(ncpus_of(w) <= ncpus_before, "the pass never adds a CPU");
  EEVDF_ASSERT(progress || ncpus_of(w) == ncpus_before, "a CPU count changes only by an accepted fold");
  return progress;
}

}  // namespace eevdf::shrinkers
