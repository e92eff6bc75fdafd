// The conditions the kernel itself warns about or dies on (a SCHED_WARN_ON, a counter
// that wraps, a NULL dereference), as the models meet them. They are failures of the
// scheduler being modelled, reported as `kernel_warn` (exit code 1), never defects of
// this tool (InternalError, base/assert.h, exit code 3).
#pragma once

#include <stdexcept>  // std::runtime_error
#include <string>     // messages

namespace eevdf {

// One kernel check: `condition` what went wrong, `check` the kernel code it mirrors
// ("SCHED_WARN_ON(!se->on_rq) in update_entity_lag"). Both are constant texts, so a
// shrinker can ask for "the same condition" across candidates.
struct KernelCheck {
  const char* condition;
  const char* check;
};

// A kernel warning the model goes on after, as the kernel does; `cpu` its runqueue.
struct KernelWarning {
  KernelCheck check;
  int cpu = -1;
};

// A condition the model cannot go past (the kernel crashes or corrupts its counters
// there): thrown out of the model; the replay reports it and stops the trace there.
class KernelWarn : public std::runtime_error {
 public:
  explicit KernelWarn(KernelCheck c)
      : std::runtime_error(std::string(c.condition) + " (the kernel's " + c.check + ")"), check_(c) {}
  const KernelCheck& check() const { return check_; }

 private:
  KernelCheck check_;
};

[[noreturn]] inline void kernel_died(KernelCheck c) { throw KernelWarn(c); }

}  // namespace eevdf

// Throws KernelWarn when `cond` (the kernel's own warning condition) holds.
#define EEVDF_KERNEL_DIES_IF(cond, condition, check) \
  ((cond) ? ::eevdf::kernel_died({(condition), (check)}) : static_cast<void>(0))
