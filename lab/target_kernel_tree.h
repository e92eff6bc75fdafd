// The real fair.c of the selected kernel tree (replay/kernel_tree.h) as a lab target,
// judged by its mirror alone. Built only with kernel-src.
#pragma once

#include <memory>  // the target
#include <string>  // file

#include "lab/target.h"

namespace eevdf::lab {

// Throws trace::TraceError when the selected tree cannot run `header`.
std::unique_ptr<Target> make_kernel_tree_target(const TargetSpec& spec, const trace::Header& header,
                                                properties::Sink& sink, const std::string& file);

// The profile whose state the selected tree keeps ("6.12", "6.18"); a workload run on
// it takes this `kernel`. Throws trace::TraceError naming `file` when the mirror has
// no forms for the tree's shape.
std::string selected_tree_profile(const std::string& file);

}  // namespace eevdf::lab
