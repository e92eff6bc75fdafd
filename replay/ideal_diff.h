// ideal_tracks_kernel (docs/PROPERTIES.md, whole system; docs/IDEAL_TRACKS_KERNEL.md): one
// trace through the kernel and the ideal arithmetic in lockstep. The kernel model is
// primary (the trace was written against it). After every event the decisions each
// model took on each CPU are compared in order; where they differ, the divergence is
// explained iff the ideal margin of that decision is within the accumulated rounding
// bound (rounding_bound.h), else it is a violation. The lags, relative deadlines,
// protections and stored lags of the CPUs the event touched are also compared with
// their bounds (numeric drift).
//
// After an explained divergence the two states legitimately differ on that CPU: the
// CPU is tainted, and so is every task that is or comes on a tainted CPU, and every
// CPU a tainted task reaches. Tainted CPUs and tasks are no longer compared; the rest
// of the machine still is. An event the ideal model refuses (it concerns a tainted
// task) is skipped there. A CPU where the kernel model overflows is tainted too.
#pragma once

#include <cstdint>  // counts
#include <memory>   // the models
#include <set>      // taint
#include <string>   // reports
#include <vector>   // specs, findings

#include "model/config.h"
#include "model/machine.h"
#include "replay/rounding_bound.h"
#include "trace/trace.h"

namespace eevdf::replay {

// One difference between the two models, explained or not.
struct IdealDivergence {
  bool explained = false;
  int line = 0;
  std::uint64_t time_ns = 0;
  int cpu = -1;
  int task = 0;             // trace id; 0: none
  std::string decision;     // what was decided, or "drift of ..."
  std::string values;       // the two decisions (or values), margin and bound
  std::string explanation;  // one line
  std::string message() const;  // "line L (t ns), CPU c, task T: decision: values: explanation"
};

struct IdealDiffStats {
  std::uint64_t events = 0;
  std::uint64_t decisions = 0;  // decisions compared (both models, untainted CPUs)
  std::uint64_t explained = 0;
  std::uint64_t unexplained = 0;
  std::uint64_t skipped_events = 0;  // refused by the ideal model (tainted tasks)
  std::uint64_t overflow_cpus = 0;   // CPUs tainted by a kernel overflow
  std::uint64_t tainted_cpus = 0;
  int first_explained_line = 0;  // 0: none
  // How tight the bound is: the largest |kernel - ideal| / bound the drift checks met
  // (lags), and the largest bound met, in ns of virtual time.
  double drift_ratio_max = 0;
  double lag_bound_max = 0;
};

template <class P>
class IdealDiff {
 public:
  IdealDiff(const model::Config& config, const std::vector<model::TaskSpec>& specs);
  IdealDiff(const IdealDiff&) = delete;
  IdealDiff& operator=(const IdealDiff&) = delete;

  // Applies `e` to both models and compares them; the kernel model's reason when it
  // refuses the event (nothing was compared then). New divergences go to found().
  std::string apply(const trace::Event& e);

  // Every divergence so far, in order (explained ones included).
  const std::vector<IdealDivergence>& found() const { return found_; }
  const IdealDiffStats& stats() const { return stats_; }
  const model::Machine<model::KernelArith, P>& kernel() const { return kernel_; }
  const model::Machine<model::IdealArith, P>& ideal() const { return ideal_; }
  bool tainted_cpu(int cpu) const { return tainted_cpus_.count(cpu) != 0; }

 private:
  void taint_cpu(int cpu);
  void taint_event(const trace::Event& e);
  void spread_taint();
  void compare_cpu(const trace::Event& e, int cpu);
  void judge(const trace::Event& e, int cpu, const DecisionRecord& k, const DecisionRecord& i);
  void check_drift(const trace::Event& e, int cpu);
  void check_stored_lag(const trace::Event& e, int task);
  void report(const trace::Event& e, int cpu, int task, bool explained, std::string decision, std::string values,
              std::string explanation);
  int id_of(int task) const;

  model::Machine<model::KernelArith, P> kernel_;
  model::Machine<model::IdealArith, P> ideal_;
  DecisionRecorder recorder_;
  RoundingBound bound_;
  std::set<int> tainted_cpus_;
  std::set<int> tainted_tasks_;
  std::vector<IdealDivergence> found_;
  IdealDiffStats stats_;
};

// The decision's name in reports (its kernel function and what it tests).
std::string decision_name(model::decision d);

}  // namespace eevdf::replay
