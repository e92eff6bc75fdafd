// The engines behind make_engine (engine.cpp): one per implementation. Internal to
// replay/.
#pragma once

#include <memory>

#include "replay/engine.h"

namespace eevdf::replay {

// The reference model with the default profile and the property checker.
std::unique_ptr<Engine> make_reference_engine(const EngineSetup& setup);
// The reference model under another profile (`kernel 6.12`): expectations and dumps;
// the property checker reads the default profile's machine, so it does not run yet.
std::unique_ptr<Engine> make_profile_engine(const EngineSetup& setup);
// kernel-src alone, or beside the reference for the differential (kernel_src/).
std::unique_ptr<Engine> make_kernel_src_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_diff_engine(const EngineSetup& setup);
// ideal_tracks_kernel: the kernel and the ideal arithmetic in lockstep (ideal_diff.h).
std::unique_ptr<Engine> make_ideal_diff_engine(const EngineSetup& setup);

// Whether the trace-wide expectations name kernel_matches_reference only: judged by
// --diff=kernel-src, so the other engines may replay such a trace without judging them.
bool expects_only_kernel_match(const trace::Header& header);

}  // namespace eevdf::replay
