// The engines behind make_engine (engine.cpp): one per implementation. Internal to
// replay/.
#pragma once

#include <memory>

#include "replay/engine.h"

namespace eevdf::replay {

// The reference model with the default profile and the property checker.
std::unique_ptr<Engine> make_reference_engine(const EngineSetup& setup);
// The reference model under another profile (`kernel 6.12`), its checks in their 6.12
// forms (engine_model.cpp).
std::unique_ptr<Engine> make_profile_engine(const EngineSetup& setup);
// Refuses (exit 2) a --check or `expect violation` of a property that does not apply
// to `profile` (catalogue.h), saying why.
void require_applicable(const EngineSetup& setup, std::string_view profile);
// kernel-src alone, or beside the reference for the differential (kernel_src/).
std::unique_ptr<Engine> make_kernel_src_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_diff_engine(const EngineSetup& setup);
// kernel-src of a tree of --kernel-tree, judged by its mirror alone (engine_kernel_tree.cpp).
std::unique_ptr<Engine> make_kernel_tree_engine(const EngineSetup& setup);
// ideal_tracks_kernel: the kernel and the ideal arithmetic in lockstep (ideal_diff.h).
std::unique_ptr<Engine> make_ideal_diff_engine(const EngineSetup& setup);


}  // namespace eevdf::replay
