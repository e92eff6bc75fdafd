// See hooks.h.
#include "kernel_src/hooks.h"

#include <fmt/format.h>

#include <algorithm>  // min

namespace eevdf::kernel_src {
namespace {

std::uint64_t low64(model::KernelArith::value v) { return static_cast<std::uint64_t>(static_cast<model::u128>(v)); }

}  // namespace

std::string describe(const HookCall& c) {
  switch (c.hook) {
    case Hook::placed:
      return fmt::format("placed(CPU {}, task {}, vruntime {}, deadline {})", c.cpu, c.task, c.vruntime, c.deadline);
    case Hook::picked:
      return c.task == 0 ? fmt::format("picked(CPU {}, none)", c.cpu) : fmt::format("picked(CPU {}, task {})", c.cpu, c.task);
    case Hook::reweighted: return fmt::format("reweighted(CPU {}, task {}, weight {})", c.cpu, c.task, c.weight);
  }
  return "?";
}

std::string first_hook_difference(const std::vector<HookCall>& reference, const std::vector<HookCall>& kernel_src) {
  const std::size_t n = std::min(reference.size(), kernel_src.size());
  for (std::size_t i = 0; i < n; ++i)
    if (!(reference[i] == kernel_src[i]))
      return fmt::format("hook call {} of the event: reference {}, kernel-src {}", i + 1, describe(reference[i]),
                         describe(kernel_src[i]));
  if (reference.size() == kernel_src.size()) return {};
  const bool ref_longer = reference.size() > kernel_src.size();
  const std::string extra = describe(ref_longer ? reference[n] : kernel_src[n]);
  return fmt::format("hook call {} of the event: reference {}, kernel-src {}", n + 1,
                     ref_longer ? extra : "no call", ref_longer ? "no call" : extra);
}

std::string HookLockstep::take_difference() {
  std::string d = first_hook_difference(reference_.calls, kernel_src_);
  reference_.calls.clear();
  kernel_src_.clear();
  return d;
}

int ReferenceHooks::id_of(const entity& se) const { return tasks_.at(static_cast<std::size_t>(se.task)).id; }

void ReferenceHooks::placed(const model::cfs_rq<A>& c, const entity& se, unsigned flags, const value& vlag,
                            bool had_rel, const value& rel) {
  calls.push_back({Hook::placed, c.rq_->cpu, id_of(se), low64(se.vruntime), low64(se.deadline), 0});
  if (next_) next_->placed(c, se, flags, vlag, had_rel, rel);
}

void ReferenceHooks::picked(const model::rq<A>& rq, const entity* se, bool buddy) {
  if (!buddy) calls.push_back({Hook::picked, rq.cpu, se == nullptr ? 0 : id_of(*se), 0, 0, 0});
  if (next_) next_->picked(rq, se, buddy);
}

void ReferenceHooks::reweighted(const model::cfs_rq<A>& c, const entity& se, std::uint64_t old_weight,
                                bool deadline_scaled) {
  calls.push_back({Hook::reweighted, c.rq_->cpu, id_of(se), 0, 0, se.load.weight});
  if (next_) next_->reweighted(c, se, old_weight, deadline_scaled);
}

}  // namespace eevdf::kernel_src
