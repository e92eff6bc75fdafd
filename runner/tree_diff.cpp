// See tree_diff.h.
#include "runner/tree_diff.h"

#include "runner/kernel_src_diff.h"
#include "runner/options.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include <atomic>
#include <thread>
#include <vector>

#include "base/assert.h"
#include "replay/implementation_lockstep.h"
#include "replay/model_config.h"
#include "shrinkers/implementations_differ.h"
#include "trace/error.h"
#include "trace/writer.h"
#endif

namespace eevdf::runner {

generator::Options tree_diff_generator_options(const TreeDiffOptions& options) {
  generator::Options o = kernel_src_generator_options(default_generator_options());
  o.profile = options.profile;
  o.oracle = options.oracle;
  return o;
}

#ifdef EEVDF_HAVE_KERNEL_SRC

namespace {

struct TraceDiff {
  std::uint64_t events = 0;
  bool differ = false;
  bool overflow = false;
  bool crash = false;
  bool refused = false;
  bool stale_augment = false;
  FirstDifference first;
};

TraceDiff diff_trace(const generator::Options& o, std::uint64_t index, std::uint64_t seed,
                     const replay::ImplementationFactory& a, const replay::ImplementationFactory& b) {
  generator::Generator gen(seed, o);
  replay::ImplementationLockstep lock(a, b, replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                                      replay::make_task_specs(gen.header()));
  TraceDiff out;
  int line = 0;
  while (lock.going()) {
    const auto e = gen.next();
    if (!e) break;
    if (!lock.apply(*e).empty()) {  // A refused what the generator drew (its model's legality): nothing more to compare
      out.refused = true;
      break;
    }
    ++out.events;
    line = e->line;
  }
  out.overflow = lock.overflow_stop();
  out.crash = !lock.stop().empty() && !out.overflow;
  out.stale_augment = lock.a_augment_stale();
  if (!lock.difference().empty()) {
    out.differ = true;
    out.first = {index, seed, line, lock.difference()};
  }
  return out;
}

}  // namespace

TreeDiffResult run_tree_diff(const TreeDiffOptions& options, const replay::ImplementationFactory& a,
                             const replay::ImplementationFactory& b) {
  const generator::Options o = tree_diff_generator_options(options);
  std::vector<TraceDiff> per_trace(options.traces);
  std::atomic<std::uint64_t> next{0};
  const auto work = [&] {
    for (std::uint64_t i = next++; i < options.traces; i = next++)
      per_trace[i] = diff_trace(o, i, trace_seed(options.seed, i), a, b);
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < options.jobs; ++j) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  TreeDiffResult r;  // folded in index order: the same for any number of threads
  for (const TraceDiff& t : per_trace) {
    ++r.traces;
    r.events += t.events;
    r.overflow_stops += t.overflow ? 1 : 0;
    r.crash_stops += t.crash ? 1 : 0;
    r.refused_stops += t.refused ? 1 : 0;
    if (!t.differ) continue;
    ++r.differing_traces;
    r.differing_after_stale_augment += t.stale_augment ? 1 : 0;
    if (!r.first) r.first = t.first;
  }
  return r;
}

DifferenceReport replay_difference(const trace::Trace& t, const std::string& file,
                                   const replay::ImplementationFactory& a, const replay::ImplementationFactory& b) {
  replay::ImplementationLockstep lock(a, b, replay::make_config(t.header, replay::Options{}, file),
                                      replay::make_task_specs(t.header));
  DifferenceReport r;
  const trace::Event* last = nullptr;
  for (const trace::BodyStatement& s : t.body) {
    if (!lock.going()) break;
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;
    if (const std::string reason = lock.apply(*e); !reason.empty())
      throw trace::TraceError({file, e->line, e->column}, "A refuses the event: " + reason);
    ++r.events;
    last = e;
  }
  r.stop = lock.stop();
  r.differ = !lock.difference().empty();
  if (!r.differ) return r;
  r.difference = lock.difference();
  r.line = last != nullptr ? last->line : 0;
  r.event = last != nullptr ? trace::format_event(*last) : "";
  r.cpu = lock.difference_cpu();
  if (r.cpu < 0 && last != nullptr) {
    if (last->cpu) r.cpu = *last->cpu;
    else if (last->task != 0)
      for (int p = 0; p < lock.a().ntasks(); ++p)
        if (lock.a().task(p).id == last->task) r.cpu = lock.a().task(p).cpu;
  }
  if (r.cpu < 0) r.cpu = 0;
  r.a = lock.a().runqueue(r.cpu);
  r.b = lock.b().runqueue(r.cpu);
  return r;
}

ShrunkDifference shrink_difference(const TreeDiffOptions& options, const FirstDifference& first,
                                   const replay::ImplementationFactory& a, const replay::ImplementationFactory& b,
                                   double seconds_max) {
  const trace::Trace failing = generator::generate_trace(first.seed, tree_diff_generator_options(options));
  ShrunkDifference out;
  shrinkers::Budget budget;
  budget.seconds_max = seconds_max;
  out.trace = shrinkers::shrink(failing, shrinkers::implementations_differ_target(a, b), budget, &out.stats);
  return out;
}

#endif

}  // namespace eevdf::runner
