// One observer hook call, as kernel-src's wrappers and the reference's observer
// report it (hooks.h compares them).
#pragma once

#include <cstdint>  // values

namespace eevdf::kernel_src {

enum class Hook { placed, picked, reweighted };

// One hook call. placed: the entity's vruntime and deadline after placement (mod
// 2^64); picked: `task` is the picked task (0: none); reweighted: the new full weight.
struct HookCall {
  Hook hook = Hook::placed;
  int cpu = 0;
  int task = 0;
  std::uint64_t vruntime = 0;
  std::uint64_t deadline = 0;
  std::uint64_t weight = 0;
  bool operator==(const HookCall&) const = default;
};

}  // namespace eevdf::kernel_src
