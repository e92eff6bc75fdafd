// The judge of `eevdf-check diff` (tree against tree): a candidate fails when two
// implementations of the fair class, in lockstep on it, differ after some event
// (replay/implementation_lockstep.h). Beside differential.h's judges of the catalogue's
// differential properties; this one is no property of the catalogue (a patched tree
// may change behaviour on purpose): its target carries the two implementations. Available when the build has kernel-src.
#pragma once

#include <string_view>  // the kind's name

#include "shrinkers/shrink.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/implementation.h"
#endif

namespace eevdf::shrinkers {

// The target kind (Target::property) and the saved traces' name: two implementations
// differ on the trace.
inline constexpr std::string_view kImplementationsDiffer = "implementations_differ";

#ifdef EEVDF_HAVE_KERNEL_SRC
struct Implementations {
  replay::ImplementationFactory a, b;
};

// The target "`a` and `b` differ" (Target::implementations), for shrink(), judge() and
// violates().
Target implementations_differ_target(replay::ImplementationFactory a, replay::ImplementationFactory b);

// Fails when the target's two implementations differ after some event of the
// candidate (the comparison stops where both crash alike or a reference overflows:
// nothing after that counts); illegal events, for A, are skipped on request.
Judge implementations_differ_judge(const Target& target);
#endif

}  // namespace eevdf::shrinkers
