// kernel_warn: the model met a condition the kernel itself warns about or dies on
// (base/kernel_warn.h). Not a class of the checker: the model's own checks find it,
// and whoever drives the model (replay::CheckedRun) reports it here, whatever the
// selection, since the model cannot run without them.
#pragma once

#include <cstdint>      // times
#include <string>       // texts
#include <string_view>  // the name
#include <utility>      // move

#include "base/kernel_warn.h"
#include "properties/property.h"

namespace eevdf::properties {

inline constexpr std::string_view kKernelWarn = "kernel_warn";

// `values` is the condition alone (a constant text: a shrinker keeps "the same
// condition" by comparing it), `explanation` the kernel check it mirrors.
inline Violation kernel_warn_violation(std::string condition, std::string explanation, int line,
                                       std::uint64_t time_ns, int cpu = -1) {
  Violation v;
  v.property = kKernelWarn;
  v.line = line;
  v.time_ns = time_ns;
  v.cpu = cpu;
  v.values = std::move(condition);
  v.explanation = std::move(explanation);
  return v;
}
inline Violation kernel_warn_violation(const KernelCheck& c, int line, std::uint64_t time_ns, int cpu) {
  return kernel_warn_violation(c.condition, std::string("the kernel's ") + c.check, line, time_ns, cpu);
}

}  // namespace eevdf::properties
