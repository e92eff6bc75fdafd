// Two implementations (implementation.h) in lockstep: the same events into both, and
// after every event every state they report compared (task states, each CPU's
// runqueue dump: the observation entity by entity in task order with curr, next,
// counters, sums, v0, V and need_resched; the event's placed / picked / reweighted
// calls; the real code's warnings and crash). The judge of `eevdf-check diff`, its
// campaign (runner/tree_diff.h) and its shrinker (shrinkers/implementations_differ.h).
// Built only with kernel-src (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <memory>  // the implementations
#include <string>  // the difference
#include <vector>  // specs

#include "replay/implementation.h"

namespace eevdf::replay {

class ImplementationLockstep {
 public:
  // The two are built from `config` and `specs` and compared once at construction.
  ImplementationLockstep(const ImplementationFactory& a, const ImplementationFactory& b, const model::Config& config,
                         const std::vector<model::TaskSpec>& specs);

  // Applies `e` to A, then (when A took it) to B, and compares. Returns A's reason
  // when A refuses the event (B is not asked; nothing changed). Call while going().
  std::string apply(const trace::Event& e);

  // Whether the comparison goes on: they agree, and neither has crashed or (a
  // reference) overflowed.
  bool going() const { return difference_.empty() && stop_.empty(); }
  // The first difference, "CPU 0: task 3: vruntime: A 10, B 11" ("" while none).
  const std::string& difference() const { return difference_; }
  // The CPU the difference is about (-1: none, or the machine as a whole).
  int difference_cpu() const { return difference_cpu_; }
  // Why the comparison stopped without a difference ("" while it goes on): both crashed
  // alike, or the reference overflowed.
  const std::string& stop() const { return stop_; }
  bool overflow_stop() const { return overflow_stop_; }
  // Whether A's tree (a kernel-src's) has shown a stale augmented slice at its root
  // (augmented_slice_stale) at any event so far: a difference from then on may be the
  // kernel's stale min_slice, which the reference keeps exact.
  bool a_augment_stale() const { return a_augment_stale_; }

  const Implementation& a() const { return *a_; }
  const Implementation& b() const { return *b_; }

 private:
  void compare();
  void differ(std::string what, int cpu) {
    difference_ = std::move(what);
    difference_cpu_ = cpu;
  }

  std::unique_ptr<Implementation> a_;
  std::unique_ptr<Implementation> b_;
  std::string difference_;
  int difference_cpu_ = -1;
  std::string stop_;
  bool overflow_stop_ = false;
  bool a_augment_stale_ = false;
};

}  // namespace eevdf::replay
