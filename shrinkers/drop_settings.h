// Pass 4, header settings back to their defaults.
//
// Tries, in this order, removing: each `inject` name; each `features` setting (the
// feature then has its profile default); the `hz` line (1000); the `base_slice` line
// (the profile's). The `kernel` line stays: a candidate replays in its own profile,
// and a 6.12 failure that also fails under 6.18 may be another bug. `arith` stays:
// the judge replays in the target's arithmetic whatever the header says, so it could
// not tell. A trace that still fails without
// an injection does not need it (the faithful model fails the same way: worth
// knowing), and a feature setting it does not need is noise to its reader.
// Keeps: every candidate that still fails, at once; the next setting is then tried
// on the smaller header.
// Terminates: one attempt per setting present when the pass starts; every accepted
// candidate has one setting fewer.
#pragma once

#include "shrinkers/candidate.h"
#include "shrinkers/search.h"

namespace eevdf::shrinkers {

inline constexpr const char* kDropSettingsPass = "drop_settings";

// One run of the pass over `w`, edited in place. True iff a candidate was accepted.
bool drop_settings_pass(Search& search, Work& w, PassStats& stats);

}  // namespace eevdf::shrinkers
