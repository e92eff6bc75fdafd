// The findings registry (BUGS.md, Findings; INVARIANTS.md): failures of the faithful
// model that are genuine upstream behaviour. A violation is a known finding only when
// its property, the profile and the condition all match an entry; each entry has a
// trace in corpus/findings/ that shows it.
#pragma once

#include <array>        // the registry
#include <string_view>  // names

namespace eevdf::properties {

struct FindingInfo {
  std::string_view name;       // also the corpus/findings/ file name
  std::string_view property;
  std::string_view profiles;   // the profiles it applies to
  std::string_view condition;  // what identifies it
  std::string_view origin;     // the kernel behaviour or commit it comes from
};

inline constexpr std::array<FindingInfo, 3> kFindings{{
    {"monotone-min-vruntime-overflow", "no_overflow", "6.18",
     "the runqueue had a tick-less stretch of at least 1 s with queued entities before the overflow",
     "min_vruntime as v0 up to v6.18.3 (zero_vruntime from 79f3f9bedd14, v6.19)"},
    {"delay-dequeue-hides-iowait", "iowait_visibility", "6.12, 6.18",
     "any delayed io sleep: a measure, never a failure",
     "DELAY_DEQUEUE (152e11f6df29, v6.12): __block_task runs only when the delayed dequeue completes"},
    {"kernel-src-null-pick-after-overflow", "kernel_matches_reference", "6.12 (kernel-src, Debian 6.12.117)",
     "kernel-src stopped where the real code would crash: pick_eevdf() found nothing eligible after an s64 "
     "overflow of the sums (unphysical tick-less stretches); the reference leaves the CPU idle there",
     "pick_next_entity() dereferences pick_eevdf()'s result unchecked (linux-source-6.12 6.12.117-1~deb12u1)"},
}};

// The tick-less stretch (ns) from which an overflow counts as the min_vruntime finding.
inline constexpr std::uint64_t kTicklessFindingNs = 1'000'000'000;

}  // namespace eevdf::properties
