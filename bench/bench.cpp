// The benchmark loop; see bench.h. Each model replays the same in-memory events
// from a fresh state; the best of the repetitions is kept.
#include "bench/bench.h"

#include <time.h>  // clock_gettime

#include <algorithm>
#include <functional>
#include <type_traits>

#include "base/assert.h"
#include "model/arith_ideal.h"
#include "model/arith_kernel.h"
#include "model/fast/fast_machine.h"
#include "replay/checked_run.h"
#include "replay/ideal_diff.h"
#ifdef EEVDF_HAVE_KERNEL_SRC
#include "kernel_src/machine.h"
#include "replay/apply_event_kernel_src.h"
#include "replay/kernel_src_mirror.h"
#endif
#include "replay/model_config.h"
#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace eevdf::bench {
namespace {

// The thread's CPU time, not the wall clock: one model replays on one thread, and
// CPU time does not count the time other processes of a shared machine take from
// it, so the ratios of one run stay stable under load.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

template <class A>
inline constexpr bool brute_kernel = std::is_same_v<A, model::KernelArith>;

double seconds_of(const std::function<void()>& work) {
  const double start = thread_cpu_seconds();
  work();
  return thread_cpu_seconds() - start;
}

double best_of(int repetitions, const std::function<void()>& work) {
  double best = 0;
  for (int i = 0; i < repetitions; ++i) {
    const double s = seconds_of(work);
    if (i == 0 || s < best) best = s;
  }
  return best;
}

std::vector<trace::Event> events_of(const trace::Trace& t) {
  std::vector<trace::Event> events;
  for (const auto& s : t.body)
    if (const auto* e = std::get_if<trace::Event>(&s)) events.push_back(*e);
  return events;
}

// One model of a table measured side by side with the others (run_trace).
struct Measured {
  const char* model;
  std::uint64_t count;
  std::function<void()> work;
};

// A sink that only counts: the benchmark measures checking, not printing.
struct CountingSink final : properties::Sink {
  std::uint64_t violations = 0;
  void violation(const properties::Violation&) override { ++violations; }
  void measure(std::string_view, const std::string&, const std::string&) override {}
};

// Replays up to n events; returns how many applied. The traces are generated
// against the kernel arithmetic, so the ideal one may take another decision (a
// rounding tie) and meet an event illegal in its state: it stops there. A plain
// replay reports nothing, so it leaves the overflow logs alone (they grow only by
// overflows): clearing all 128 of them per event cost 7% of the replay, a cost
// no user of a plain replay pays and which would flatter every ratio against it.
template <class A>
std::uint64_t replay_plain(const trace::Header& h, const std::vector<trace::Event>& events, std::uint64_t n) {
  model::Machine<A> m(replay::make_config(h, {}, "bench"), replay::make_task_specs(h));
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string reason = replay::apply_event(m, events[i]);
    if (!reason.empty()) {
      EEVDF_ASSERT(!brute_kernel<A>, "a benchmark trace must be valid in the kernel arithmetic: " + reason);
      return i;
    }
  }
  return n;
}

// The fast model on all n events; like the reference's, its overflow counters are
// left alone.
template <bool Simd>
void replay_fast(const trace::Header& h, const std::vector<trace::Event>& events, std::uint64_t n) {
  model::fast::FastMachine<Simd> m(replay::make_config(h, {}, "bench"), replay::make_task_specs(h));
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string reason = replay::apply_event(m, events[i]);
    EEVDF_ASSERT(reason.empty(), "a benchmark trace must be valid in the fast model: " + reason);
  }
}

template <class A, class P = model::profile_6_18>
void replay_checked(const trace::Header& h, const std::vector<trace::Event>& events, std::uint64_t n,
                    const std::vector<std::string>& skip) {
  CountingSink sink;
  replay::CheckedRun<A, P> run(replay::make_config(h, {}, "bench"), replay::make_task_specs(h), sink, {{}, skip});
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string reason = run.apply(events[i]);
    EEVDF_ASSERT(reason.empty(), "a benchmark trace must be valid: " + reason);
  }
}

// A `kernel 6.12` trace through the reference's 6.12 profile, or through kernel-src
// (the real fair.c) when the build has it.
std::uint64_t replay_6_12(const trace::Header& h, const std::vector<trace::Event>& events, std::uint64_t n) {
  model::Machine<model::KernelArith, model::profile_6_12> m(replay::make_config(h, {}, "bench"),
                                                            replay::make_task_specs(h));
  for (std::uint64_t i = 0; i < n; ++i) {
    EEVDF_ASSERT(replay::apply_event(m, events[i]).empty(), "a benchmark trace must be valid");
  }
  return n;
}

// ideal_tracks_kernel: both arithmetics in lockstep on n events (replay/ideal_diff.h).
replay::IdealDiffStats replay_lockstep(const trace::Header& h, const std::vector<trace::Event>& events,
                                       std::uint64_t n) {
  replay::IdealDiff<model::profile_6_18> diff(replay::make_config(h, {}, "bench"), replay::make_task_specs(h));
  for (std::uint64_t i = 0; i < n; ++i)
    EEVDF_ASSERT(diff.apply(events[i]).empty(), "a benchmark trace must be valid in the kernel arithmetic");
  EEVDF_ASSERT(diff.stats().unexplained == 0, "ideal_tracks_kernel violated on a benchmark trace");
  return diff.stats();
}

#ifdef EEVDF_HAVE_KERNEL_SRC
std::uint64_t replay_kernel_src(const trace::Header& h, const std::vector<trace::Event>& events, std::uint64_t n) {
  kernel_src::Machine m(replay::make_config(h, {}, "bench"), replay::make_task_specs(h));
  for (std::uint64_t i = 0; i < n; ++i) {
    if (const std::string why = replay::apply_event(m, events[i]); !why.empty())
      throw InvalidOnKernelSrc("line " + std::to_string(events[i].line) + ": kernel-src refuses the event: " + why);
  }
  return n;
}

// The properties judged on the real code: kernel-src with its mirror and the checks
// kernel-src judges (replay/kernel_src_mirror.h), without the reference.
std::uint64_t replay_kernel_src_checked(const trace::Header& h, const std::vector<trace::Event>& events,
                                        std::uint64_t n, const std::vector<std::string>& skip) {
  const model::Config config = replay::make_config(h, {}, "bench");
  const std::vector<model::TaskSpec> specs = replay::make_task_specs(h);
  CountingSink sink;
  kernel_src::Machine m(config, specs);
  replay::KernelSrcMirror mirror(config, specs, m, sink, {{}, skip});
  for (std::uint64_t i = 0; i < n; ++i) {
    mirror.before(events[i]);
    if (const std::string why = replay::apply_event(m, events[i]); !why.empty())
      throw InvalidOnKernelSrc("line " + std::to_string(events[i].line) + ": kernel-src refuses the event: " + why);
    mirror.after(events[i]);
  }
  mirror.finish();
  return n;
}
#endif

}  // namespace

TraceResult run_trace(const std::string& name, const std::string& text, const Options& o) {
  TraceResult r;
  r.name = name;
  trace::Trace t;
  r.parse_seconds = seconds_of([&] { t = trace::parse_trace_text(text, name, replay::vocabulary()); });
  const std::vector<trace::Event> events = events_of(t);
  const std::uint64_t n = events.size();
  const std::uint64_t n_ideal = std::min<std::uint64_t>(n, o.ideal_events_max);
  r.events = n;
  const auto wanted = [&](const char* model) {
    return o.models.empty() || std::find(o.models.begin(), o.models.end(), model) != o.models.end();
  };
  // The models of one table run in turns, one replay each per round, and each keeps
  // its best round: a ratio then compares runs made minutes apart at most, not a
  // quiet spell of the machine against a busy one (on a shared virtual machine even
  // the thread's CPU time varies by a third from minute to minute).
  std::vector<Measured> side_by_side;
  const auto measure = [&](const char* model, std::uint64_t count, std::function<void()> work) {
    if (wanted(model)) side_by_side.push_back({model, count, std::move(work)});
  };
  const auto run_side_by_side = [&] {
    for (const Measured& m : side_by_side) r.models.push_back({m.model, m.count, 0});
    const std::size_t first = r.models.size() - side_by_side.size();
    for (int round = 0; round < o.repetitions; ++round)
      for (std::size_t i = 0; i < side_by_side.size(); ++i) {
        const double s = seconds_of(side_by_side[i].work);
        double& best = r.models[first + i].seconds;
        if (round == 0 || s < best) best = s;
      }
  };
  if (t.header.kernel.value_or("6.18") == "6.12") {  // a 6.12 trace: the 6.12 reference and the real code
    measure("kernel-6.12", n, [&] { replay_6_12(t.header, events, n); });
    measure("kernel-6.12+checks", n,
            [&] { replay_checked<model::KernelArith, model::profile_6_12>(t.header, events, n, o.skip); });
#ifdef EEVDF_HAVE_KERNEL_SRC
    measure("kernel-src", n, [&] { replay_kernel_src(t.header, events, n); });
    measure("kernel-src+checks", n, [&] { replay_kernel_src_checked(t.header, events, n, o.skip); });
#endif
    run_side_by_side();
    return r;
  }
  measure("kernel", n, [&] { replay_plain<model::KernelArith>(t.header, events, n); });
  measure("fast-scalar", n, [&] { replay_fast<false>(t.header, events, n); });
  if (model::fast::simd_runs_here())  // else its column shows "-" (bench_command.cpp says why)
    measure("fast-simd", n, [&] { replay_fast<true>(t.header, events, n); });
  measure("kernel+checks", n, [&] { replay_checked<model::KernelArith>(t.header, events, n, o.skip); });
  run_side_by_side();
  if (!wanted("ideal")) return r;
  std::uint64_t applied = 0;
  const double ideal_s =
      best_of(o.repetitions, [&] { applied = replay_plain<model::IdealArith>(t.header, events, n_ideal); });
  r.models.push_back({"ideal", applied, ideal_s});
  // The kernel reference on the same prefix, for a like-for-like ratio.
  r.models.push_back({"kernel-prefix", applied,
                      best_of(o.repetitions, [&] { replay_plain<model::KernelArith>(t.header, events, applied); })});
  replay::IdealDiffStats lockstep;
  r.models.push_back({"ideal-lockstep", n_ideal,
                      best_of(o.repetitions, [&] { lockstep = replay_lockstep(t.header, events, n_ideal); })});
  r.lockstep_explained = lockstep.explained;
  r.lockstep_tainted_cpus = lockstep.tainted_cpus;
  return r;
}

}  // namespace eevdf::bench
