// See failure_runqueue.h.
#include "runner/failure_runqueue.h"

#include <optional>

#include "model/arith_kernel.h"
#include "properties/kernel_warn.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "replay/runqueue_dump_model-inl.h"
#include "shrinkers/candidate_replay.h"  // with_profile
#include "trace/error.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_lockstep.h"
#include "replay/kernel_src_tree_run.h"
#include "replay/kernel_tree.h"
#include "replay/runqueue_dump_kernel_src.h"
#endif

namespace eevdf::runner {
namespace {

constexpr const char* kFile = "<shrunk>";

// The first violation of one property that is no consequence.
class FirstOf final : public properties::Sink {
 public:
  explicit FirstOf(const std::string& property) : property_(property) {}
  void violation(const properties::Violation& v) override {
    if (!found && !v.consequence && v.property == property_) found = v;
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}
  std::optional<properties::Violation> found;

 private:
  const std::string& property_;
};

template <class P>
std::vector<replay::RunqueueDump> on_reference(const trace::Trace& t, const std::string& property) {
  FirstOf sink(property);
  replay::CheckedRun<model::KernelArith, P> run(replay::make_config(t.header, replay::Options{}, kFile),
                                               replay::make_task_specs(t.header), sink,
                                               properties::Selection{{property}, {}});
  const trace::Event* last = nullptr;
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;
    if (!run.apply(*e).empty()) return {};
    last = e;
    if (sink.found || run.halted()) break;
  }
  if (!sink.found && !run.halted()) run.finish();
  if (!sink.found) return {};
  const auto& m = run.machine();
  const int cpu = replay::report_cpu(sink.found->cpu, sink.found->task, last, [&](int id) {
    const int p = m.task_index(id);
    return p < 0 ? -1 : m.tasks()[static_cast<std::size_t>(p)].cpu;
  });
  if (cpu < 0) return {};
  return {replay::runqueue_dump(m, cpu)};
}

#ifdef EEVDF_HAVE_KERNEL_SRC
// A tree judged alone: its runqueue after the first violation of `property`.
std::vector<replay::RunqueueDump> on_tree(const trace::Trace& t, const std::string& property) {
  FirstOf sink(property);
  replay::KernelSrcTreeRun run(replay::make_config(t.header, replay::Options{}, kFile), replay::make_task_specs(t.header),
                               &sink, properties::Selection{{property}, {}});
  const trace::Event* last = nullptr;
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;
    if (!run.oops().empty() || !run.apply(*e).empty()) break;
    last = e;
    for (const properties::Violation& v : run.take_kernel_warns()) sink.violation(v);
    if (sink.found) break;
  }
  if (!sink.found && run.oops().empty()) run.finish();
  if (!run.oops().empty() || !sink.found) return {};
  const kernel_src::Machine& k = run.kernel_src();
  const int cpu = replay::report_cpu(sink.found->cpu, sink.found->task, last, [&](int id) {
    const int p = k.task_index(id);
    return p < 0 ? -1 : k.task(p).cpu;
  });
  if (cpu < 0) return {};
  return {replay::runqueue_dump(k, cpu)};
}

std::vector<replay::RunqueueDump> on_kernel_src(const trace::Trace& t, const std::string& property) {
  if (replay::tree_judged_alone()) return on_tree(t, property);
  FirstOf sink(property);
  replay::KernelSrcLockstep lock(replay::make_config(t.header, replay::Options{}, kFile),
                                 replay::make_task_specs(t.header), &sink, properties::Selection{{property}, {}});
  const bool difference = property == "kernel_matches_reference";
  const trace::Event* last = nullptr;
  for (const trace::BodyStatement& s : t.body) {
    const trace::Event* e = std::get_if<trace::Event>(&s);
    if (e == nullptr) continue;
    if (!lock.agree() || !lock.apply(*e).empty()) break;
    last = e;
    for (const properties::Violation& v : lock.take_kernel_warns()) sink.violation(v);
    if (sink.found || (difference && !lock.difference().empty())) break;
  }
  if (!lock.oops().empty()) return {};  // the state the real code died in is no runqueue to read
  if (difference && !lock.difference().empty()) {
    const kernel_src::Machine& k = lock.kernel_src();
    for (int cpu = 0; cpu < k.ncpus(); ++cpu) {
      replay::RunqueueDump a = replay::runqueue_dump(k, cpu), b = replay::runqueue_dump(lock.reference().machine(), cpu);
      if (!replay::first_runqueue_difference(a, b, "kernel-src", "reference").empty()) return {a, b};
    }
    sink.found = properties::Violation{};  // a difference outside the runqueues: the event's CPU
  }
  if (!sink.found) return {};
  const kernel_src::Machine& k = lock.kernel_src();
  const int cpu = replay::report_cpu(sink.found->cpu, sink.found->task, last, [&](int id) {
    const int p = k.task_index(id);
    return p < 0 ? -1 : k.task(p).cpu;
  });
  if (cpu < 0) return {};
  std::vector<replay::RunqueueDump> out{replay::runqueue_dump(k, cpu)};
  if (difference) out.push_back(replay::runqueue_dump(lock.reference().machine(), cpu));
  return out;
}
#endif

}  // namespace

std::vector<replay::RunqueueDump> failure_runqueues(const trace::Trace& shrunk, const FirstViolation& v,
                                                    bool kernel_src) {
  if (v.property == "fast_matches_reference" || v.property == "ideal_tracks_kernel") return {};
  try {
#ifdef EEVDF_HAVE_KERNEL_SRC
    if (kernel_src) return on_kernel_src(shrunk, v.property);
#else
    (void)kernel_src;
#endif
    return shrinkers::with_profile(shrunk.header,
                                   [&]<class P>() { return on_reference<P>(shrunk, v.property); });
  } catch (const trace::TraceError&) {
    return {};
  } catch (const KernelWarn&) {
    return {};
  }
}

}  // namespace eevdf::runner
