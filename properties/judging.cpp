// See judging.h.
#include "properties/judging.h"

#include <fmt/format.h>

#include <algorithm>

#include "properties/catalogue.h"
#include "properties/kernel_src_judged.h"
#include "properties/registry.h"

namespace eevdf::properties {
namespace {

std::string_view command(Asker a) {
  switch (a) {
    case Asker::replay: return "replay";
    case Asker::run: return "run";
    case Asker::shrink: return "shrink";
    case Asker::explore: return "explore";
  }
  return "?";
}

// What switches on the differential that judges `name`, in `asker`'s flags.
std::string differential_hint(std::string_view name, Asker asker) {
  if (asker == Asker::explore)
    return "explore runs one implementation; replay its traces with --diff, --diff=ideal or --model=kernel-src";
  if (name == "fast_matches_reference")
    return asker == Asker::run ? "add --diff-every N (1: every trace)" : "add --diff (replay --diff)";
  if (name == "ideal_tracks_kernel")
    return asker == Asker::run ? "add --ideal-every N (1: every trace)" : "add --diff=ideal";
  if (name == "kernel_matches_reference")
    return asker == Asker::run ? "add --model=kernel-src" : "add --model=kernel-src or --diff=kernel-src";
  return "";
}

std::string arith_hint(Exact exact, Asker asker) {
  const std::string_view arith = exact == Exact::ideal ? "ideal" : "kernel";
  if (asker == Asker::replay)
    return fmt::format("add --arith={} (or both), or `arith {}` in the trace's header", arith, arith);
  if (asker == Asker::run && exact == Exact::ideal)
    return "keep the ideal-arithmetic sample of steady traces on (--steady-every N, N > 0; not with --model=kernel-src)";
  return fmt::format("replay a trace with `eevdf-check replay --arith={}`", arith);
}

}  // namespace

std::string unjudged(std::string_view name, const Judging& j, Asker asker) {
  const PropertyInfo* info = find_property(name);
  if (info == nullptr) return "";
  if (std::string why = not_applicable(name, j.profile); !why.empty()) return why;
  const std::string head = fmt::format("{}: not judged by this {}", name, command(asker));
  if (info->exact_in == Exact::system) {
    if (std::find(j.system.begin(), j.system.end(), name) != j.system.end()) return "";
    if (name == "kernel_matches_reference" && j.kernel_src && !j.reference_lockstep)
      return head + " (a tree of --kernel-tree is judged by the properties alone, never against the reference): "
                    "drop --kernel-tree to compare the default tree with the reference";
    if (name == "deterministic")
      return head + " (it is judged by the test suite: runner/tests/determinism_test.cpp, ctest -R 'same seed')";
    return fmt::format("{} (a differential: it needs its second implementation): {}", head,
                       differential_hint(name, asker));
  }
  if (const std::string_view why = kernel_src_only(name); !why.empty() && !j.kernel_src)
    return fmt::format("{} ({}): {}", head, why,
                       asker == Asker::run       ? "add --model kernel-src, or --kernel-tree DIR"
                       : asker == Asker::explore ? "add --kernel-tree DIR"
                                                 : "add --model=kernel-src, or --kernel-tree DIR");
  const bool in_kernel = j.kernel_arith && runs_in(*info, true);
  const bool in_ideal = j.ideal_arith && runs_in(*info, false);
  if (in_kernel && j.kernel_src && !j.reference_lockstep && !judged_on_tree(name, j.tree)) {
    std::string_view needs = kernel_src_gap(name);
    for (const KernelSrcGap& g : tree_gaps(j.tree))
      if (g.name == name) needs = g.needs;
    return fmt::format("{} (not judged on this kernel tree: its mirror would need {}): it is judged on the 6.12 "
                       "reference in lockstep with the default tree only",
                       head, needs.empty() ? std::string_view("what kernel-src does not show") : needs);
  }
  if (in_kernel || in_ideal) return "";
  if (!j.kernel_arith && !j.ideal_arith)
    return fmt::format("{} (this mode judges only {}): drop the differential flag", head,
                       j.system.empty() ? std::string_view("its differential") : j.system.front());
  const Exact exact = info->exact_in;
  return fmt::format("{} (exact in the {} arithmetic only; this {} checks in the {} arithmetic): {}", head,
                     exact == Exact::ideal ? "ideal" : "kernel", command(asker), j.kernel_arith ? "kernel" : "ideal",
                     arith_hint(exact, asker));
}

}  // namespace eevdf::properties
