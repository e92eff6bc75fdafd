// One model instance with the property checker installed: the unit that replay, the
// tests and (later) `run` drive event by event.
#pragma once

#include <algorithm>   // sort, unique, adjacent_find
#include <cstdint>     // counts
#include <functional>  // not_equal_to
#include <memory>      // probes
#include <set>         // overflowed CPUs
#include <string>      // illegal-event reasons
#include <utility>     // forwarding
#include <vector>      // specs

#include "base/kernel_warn.h"
#include "properties/kernel_warn.h"
#include "properties/registry.h"
#include "replay/apply_event.h"

namespace eevdf::replay {

// P: the kernel profile (model/profile.h); the checks run in their P forms.
template <class A, class P = model::profile_6_18>
class CheckedRun {
 public:
  CheckedRun(const model::Config& config, const std::vector<model::TaskSpec>& specs, properties::Sink& sink,
             const properties::Selection& selection)
      : m_(config, specs), env_(m_, sink), checker_(env_) {
    properties::add_properties(checker_, env_, selection);
    if (!checker_.empty()) m_.set_observer(&checker_);
  }
  CheckedRun(const CheckedRun&) = delete;
  CheckedRun& operator=(const CheckedRun&) = delete;

  // Makes this run's state `o`'s, between events: the model, the Env and every
  // property's memory, so that the next event here is judged as it would be there.
  // `o` is a run of the same config, tasks and selection (explore's snapshots).
  void copy_state_from(const CheckedRun& o) {
    m_.copy_state_from(o.m_);
    env_.copy_state_from(o.env_);
    checker_.copy_state_from(o.checker_);
    last_ = o.last_;
    last_checked_ = o.last_checked_;
    applied_ = o.applied_;
    overflowed_ = o.overflowed_;
    halted_ = o.halted_;
    kernel_warns_ = o.kernel_warns_;
  }

  // Adds an observer that counts without judging (a coverage probe); it is built
  // from this run's Env, like the properties.
  template <class Probe, class... Args>
  void add_probe(Args&&... args) {
    checker_.add(properties::make_property<Probe>(env_, std::forward<Args>(args)...));
    m_.set_observer(&checker_);
  }

  // Puts `front` between the model and the checker (a recorder: kernel_src/hooks.h);
  // it must pass every hook on to checker_observer().
  void set_front_observer(model::Observer<A>* front) { m_.set_observer(front); }
  model::Observer<A>* checker_observer() { return &checker_; }

  // Applies `e` with the checks around it; the reason when `e` is illegal (the
  // model is then unchanged and nothing was checked after it). The kernel warnings
  // the model met are reported as kernel_warn first; one the model cannot go past
  // (KernelWarn) halts the run: later events are ignored (halted()).
  std::string apply(const trace::Event& e) {
    if (halted_) return "";
    env_.line = e.line;
    env_.now = e.time_ns;
    env_.event = &e;
    env_.touched.clear();
    add_touched(e);
    checker_.before_event(e);
    std::string reason;
    try {
      reason = apply_event(m_, e);
    } catch (const KernelWarn& w) {
      halted_ = true;
      ++kernel_warns_;
      env_.sink.violation(properties::kernel_warn_violation(w.check(), e.line, e.time_ns, -1));
      env_.event = nullptr;
      return "";
    }
    if (m_.warned())
      for (const KernelWarning& w : m_.take_warnings()) {
        ++kernel_warns_;
        env_.sink.violation(properties::kernel_warn_violation(w.check, e.line, e.time_ns, w.cpu));
      }
    if (reason.empty()) {
      add_touched(e);
      sort_touched();
      checker_.after_event(e);
      last_ = e;
      last_checked_ = env_.touched;
      applied_ = true;
      for (int cpu : env_.touched) overflowed_ = overflowed_ || !m_.rqs()[static_cast<std::size_t>(cpu)].cfs.overflow.empty();
      m_.clear_overflows(env_.touched);
    }
    env_.event = nullptr;
    return reason;
  }

  // The end of the trace: every CPU's per-CPU checks once more after the last
  // applied event (Checker::after_trace), then the checks of the whole trace; none
  // after a halt (the state is the one the kernel would have crashed in).
  void finish() {
    if (halted_) return;
    if (applied_) {
      env_.line = last_.line;
      env_.now = last_.time_ns;
      env_.event = &last_;
      checker_.after_trace(last_, last_checked_);
      env_.event = nullptr;
    }
    checker_.finish();
  }
  // Whether the model met a condition it cannot go past (a kernel_warn was reported).
  bool halted() const { return halted_; }
  // The kernel_warn reports so far.
  std::uint64_t kernel_warns() const { return kernel_warns_; }
  const model::Machine<A, P>& machine() const { return m_; }
  const properties::Checker<A, P>& checker() const { return checker_; }
  // Whether the model reported an s64 overflow in any event so far (whether or not
  // no_overflow is checked).
  bool overflowed() const { return overflowed_; }
  // The CPUs past an s64 overflow that no_overflow reported, until they empty (Env).
  const std::set<int>& overflowed_cpus() const { return env_.overflowed; }

 private:
  // The CPUs an event can change: its task's (called before and after the event),
  // its `cpu=`, and for `tick all` every busy CPU.
  void add_touched(const trace::Event& e) {
    if (e.task != 0) env_.touched.push_back(m_.tasks().at(static_cast<std::size_t>(env_.task_index(e.task))).cpu);
    if (e.cpu) env_.touched.push_back(*e.cpu);
    if (e.all_cpus)
      for (const auto& rq : m_.rqs())
        if (rq.curr != nullptr) env_.touched.push_back(rq.cpu);
  }

  // Ascending, each CPU once. Most events name one CPU several times: that case
  // without a sort. A `tick all` names every busy CPU twice (before and after):
  // marked per CPU and read back in order, instead of sorting them all.
  void sort_touched() {
    auto& cpus = env_.touched;
    if (std::adjacent_find(cpus.begin(), cpus.end(), std::not_equal_to<>()) == cpus.end()) {
      if (cpus.size() > 1) cpus.resize(1);
      return;
    }
    if (cpus.size() > kSortedCpusMax) {
      marks_.assign(m_.rqs().size(), 0);
      for (const int cpu : cpus) marks_[static_cast<std::size_t>(cpu)] = 1;
      cpus.clear();
      for (std::size_t c = 0; c < marks_.size(); ++c)
        if (marks_[c] != 0) cpus.push_back(static_cast<int>(c));
      return;
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  }
  static constexpr std::size_t kSortedCpusMax = 16;  // beyond: marks (a pass over all CPUs)

  model::Machine<A, P> m_;
  properties::Env<A, P> env_;
  properties::Checker<A, P> checker_;
  std::vector<char> marks_;  // sort_touched's, per CPU
  trace::Event last_;               // the last applied event
  std::vector<int> last_checked_;   // the CPUs checked after it
  bool applied_ = false;
  bool overflowed_ = false;
  bool halted_ = false;
  std::uint64_t kernel_warns_ = 0;
};

}  // namespace eevdf::replay
