// fast_matches_reference (docs/PROPERTIES.md, differential): one trace through the
// kernel-arithmetic reference and the fast model side by side, every state field and
// view compared after every event. The first difference is reported with its field,
// event and line. Where both report an overflow (no_overflow) in the same event the
// comparison stops: the fast model wraps as the kernel does, the reference keeps
// exact values, and the two may then part by design; one reporting it without the
// other is a difference. A condition the kernel dies on (base/kernel_warn.h) must
// stop both in the same event.
#pragma once

#include <cstdint>   // event counts
#include <optional>  // the first mismatch
#include <string>    // field names, values
#include <vector>    // task specs

#include "model/arith_kernel.h"
#include "model/config.h"
#include "model/fast/fast_machine.h"
#include "model/machine.h"
#include "trace/trace.h"

namespace eevdf::replay {

struct Mismatch {
  int line = 0;
  std::uint64_t event = 0;  // 1-based index of the event after which they differ
  std::string field;        // e.g. "cpu 3 min_vruntime", "task 7 deadline"
  std::string reference;
  std::string fast;
  std::string message() const;  // "line L (event N): FIELD: reference R, fast F"
};

// The first field where the two models' states differ, or nullopt. Virtual times are
// compared modulo 2^64 (the reference keeps them unwrapped, §1.1).
template <bool Simd>
std::optional<Mismatch> compare_state(const model::Machine<model::KernelArith>& reference,
                                      const model::fast::FastMachine<Simd>& fast);

// Calls f.template operator()<true>() with the SIMD build where it runs on this CPU
// (model::fast::simd_runs_here), else with the scalar build: the fast model that a
// campaign or a shrink cross-checks, on any x86-64 CPU.
template <class F>
decltype(auto) with_fast_build(F&& f) {
  if (model::fast::simd_runs_here()) return f.template operator()<true>();
  return f.template operator()<false>();
}

template <bool Simd>
class FastDiff {
 public:
  enum class Step {
    same,      // applied to both, states equal
    mismatch,  // they differ: mismatch()
    overflow,  // both reported an overflow: the comparison stops here
    illegal,   // the event is illegal in both (same reason): illegal_reason()
    kernel_warn,  // both met the same condition the kernel dies on: kernel_warn(); the comparison stops
  };

  FastDiff(const model::Config& config, const std::vector<model::TaskSpec>& specs);
  Step apply(const trace::Event& e);
  // What an event's overflow reports make of it: overflow when both models report
  // one (they may part from here by design), mismatch when only one does (the
  // other would wrap, or stop, where it must not), same when neither (compare on).
  static Step overflow_step(bool reference_overflowed, bool fast_overflowed);
  const Mismatch& mismatch() const { return *mismatch_; }
  const std::string& illegal_reason() const { return illegal_; }
  std::uint64_t events() const { return events_; }
  // After Step::overflow: whether the fast model's own checks saw it in that event
  // (always, else the step is a mismatch).
  bool fast_saw_overflow() const { return fast_saw_overflow_; }
  // After Step::kernel_warn: the condition and the kernel check.
  const std::string& kernel_warn() const { return died_; }
  const model::fast::FastMachine<Simd>& fast() const { return fast_; }
  const model::Machine<model::KernelArith>& reference() const { return reference_; }

 private:
  model::Machine<model::KernelArith> reference_;
  model::fast::FastMachine<Simd> fast_;
  std::optional<Mismatch> mismatch_;
  std::string illegal_;
  std::string died_;
  std::uint64_t events_ = 0;
  bool fast_saw_overflow_ = false;
};

}  // namespace eevdf::replay
