// Semantics profiles (docs/TRACE_FORMAT.md, Header): which kernel the model follows.
#pragma once

#include <array>        // the table
#include <string_view>  // names

namespace eevdf::model {

// `6.18`: v6.18.2 with the tree's min_slice kept exact (docs/MODEL.md §3.3).
// `6.12`: Debian's 6.12.117 (linux-source-6.12), profile_6_12.h.
inline constexpr std::array<std::string_view, 2> kProfiles{"6.18", "6.12"};
inline constexpr std::string_view kDefaultProfile = "6.18";

}  // namespace eevdf::model
