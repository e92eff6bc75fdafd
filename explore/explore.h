// Bounded exhaustive exploration (`eevdf-check explore`, docs/EXPLORE.md): every
// state the alphabet reaches from a start state within a number of events, breadth
// first, each transition judged by the properties, with a visited set of state
// fingerprints, symmetry and partial-order reduction, and parallel workers whose
// split never changes the result.
#pragma once

#include <cstdint>     // counts
#include <functional>  // progress
#include <map>         // per property
#include <string>      // names
#include <string_view> // property names
#include <utility>     // coverage pairs
#include <vector>      // paths

#include "explore/moves.h"
#include "properties/registry.h"
#include "trace/trace.h"

namespace eevdf::explore {

struct Options {
  Alphabet alphabet;
  int depth = 8;                     // events after the start state
  bool symmetry = true;
  bool por = true;
  // Also fingerprint each state without symmetry, to count the transitions symmetry
  // merged (Level::merged_symmetry): a second fingerprint and visited set.
  bool symmetry_stats = false;
  int jobs = 1;
  bool keep_going = false;           // past the first depth with a violation: every property's first
  std::vector<trace::Expect> reach;  // a conjunction: stop at the first state where it holds
  properties::Selection selection;
  std::string start_file;            // the start trace's name, for an error in its events
  // Explore the selected kernel tree's fair.c (replay/kernel_tree.h) instead of the
  // reference: each state rebuilt by replaying its path on the tree (explore/tree.h).
  bool kernel_tree = false;
};

// One depth of the search (0: the start state).
struct Level {
  std::uint64_t states = 0;          // distinct states first reached at this depth
  std::uint64_t transitions = 0;     // moves applied from the depth before
  std::uint64_t pruned_por = 0;      // moves left out by partial-order reduction
  std::uint64_t merged_symmetry = 0; // transitions to a permutation of a known state (symmetry_stats)
  std::uint64_t illegal = 0;         // moves the model refused (none expected)
  double seconds = 0;                // wall time of this depth
};

// A path from the start state: the trace events, with their lines and times.
struct Path {
  std::vector<trace::Event> events;
};

// A property's first violation: at the least depth, the first in the search's order.
struct Counterexample {
  std::string property;
  int depth = 0;
  Path path;
  std::string values;
  std::string explanation;
  std::string finding;  // the known finding it matches (properties/findings.h), or ""
};

struct Result {
  std::vector<Level> levels;
  std::uint64_t distinct = 0;        // states in the visited set
  std::uint64_t transitions = 0;
  int depth_reached = 0;             // the deepest depth with a state
  bool exhausted = false;            // no state left unexpanded within the depth bound
  bool stopped_early = false;        // a violation or the reach query stopped it
  std::vector<Counterexample> violations;  // by depth, then order
  // The known findings met (properties/findings.h), the first of each: reported
  // apart, like `run`'s, they neither stop the search nor fail it.
  std::vector<Counterexample> findings;
  bool reach_asked = false;
  bool reached = false;
  Path witness;                      // the shortest path to a state where `reach` holds
  double collision_probability = 0;
  std::uint64_t memory_bytes = 0;    // visited set and the stored levels
  double cpu_seconds = 0;
  double wall_seconds = 0;
  bool symmetric_tasks = false, symmetric_cpus = false;
  // The kernel paths the transitions took (runner/coverage.h's probes, by name; the
  // 6.18 profile only): what the bounds reached and what they did not.
  std::vector<std::pair<std::string, std::uint64_t>> coverage;
};

// Called after each depth (progress on stderr); may be empty.
using Progress = std::function<void(int depth, const Result&)>;

// Explores from the state after `prefix` (applied to the header's machine). Throws
// trace::TraceError when the header or the prefix is bad input, or when the selected
// tree cannot run them (the prefix's own violations are judged too: they make a
// depth-0 counterexample).
Result explore(const trace::Header& header, const std::vector<trace::Event>& prefix, const Options& options,
               const Progress& progress = {});

// Why the search of `options` does not judge property `name` ("": it does): explore
// judges the per-event properties in the kernel arithmetic on one implementation
// (the reference, or a tree by its mirror).
std::string unjudged(std::string_view name, const trace::Header& header, const Options& options);

}  // namespace eevdf::explore
