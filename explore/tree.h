// explore.h over the real code: the selected kernel tree's fair.c (kernel-src, judged
// by its mirror as `replay --kernel-tree` judges it). A tree's C state cannot be
// copied, so each transition replays its path from the start on a fresh machine; the
// state's fingerprint is its mirror's, the tree's whole state as the observation
// interface reads it.
#pragma once

#include <string>       // the tree's name
#include <string_view>  // profiles
#include <vector>       // the prefix

#include "explore/explore.h"
#include "properties/judging.h"

namespace eevdf::explore {

// Throws trace::TraceError when the tree cannot run the header (a profile other than
// its forms, injections, RUN_TO_PARITY_WAKEUP), when no selected property is judged
// on it, and in a build without kernel-src.
Result explore_tree(const trace::Header& header, const std::vector<trace::Event>& prefix, const Options& options,
                    const Progress& progress);

// The profile whose state the selected tree keeps ("6.12", "6.18"): the `kernel` of
// what it explores. Throws trace::TraceError for a shape the mirror has no forms for.
std::string selected_tree_profile();

// What a search of the selected tree judges (properties/judging.h), under `profile`.
properties::Judging tree_judging(std::string_view profile);

// "kernel-src <release> from <directory>": the tree explore_tree runs, for reports.
std::string selected_tree_name();

}  // namespace eevdf::explore
