// `eevdf-check properties`: the property registry, one line each.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "properties/findings.h"
#include "properties/kernel_src_judged.h"
#include "properties/registry.h"

namespace eevdf::cli {
namespace {

const char* kind_text(properties::Kind k) {
  switch (k) {
    case properties::Kind::pass_fail: return "pass/fail";
    case properties::Kind::measure: return "measure";
    case properties::Kind::both: return "pass/fail+measure";
  }
  return "?";
}

const char* exact_text(properties::Exact e) {
  switch (e) {
    case properties::Exact::kernel: return "kernel";
    case properties::Exact::ideal: return "ideal";
    case properties::Exact::both: return "both";
    case properties::Exact::system: return "system";
  }
  return "?";
}

int run() {
  std::cout << fmt::format("{:<26} {:<18} {:<7} {:<12} {:<12} {}\n", "property", "kind", "arith", "profiles", "status",
                           "description");
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    const bool on_6_18 = properties::implemented(p.name, "6.18"), on_6_12 = properties::implemented(p.name, "6.12");
    const std::string_view system = properties::system_check(p.name);
    const std::string_view status = !properties::kernel_src_only(p.name).empty() ? "kernel-src"
                                    : on_6_18 && on_6_12                         ? "per event"
                                    : on_6_18          ? "per event 6.18"
                                    : on_6_12          ? "per event 6.12"
                                    : system.empty()   ? "not yet"
                                                       : system;
    std::cout << fmt::format("{:<26} {:<18} {:<7} {:<12} {:<14} {}\n", p.name, kind_text(p.kind), exact_text(p.exact_in),
                             properties::profiles_text(p.profiles), status, p.summary);
  }
  // What differs under `kernel 6.12` (docs/PROPERTIES.md, Rules; properties/profile_forms.h).
  std::cout << "\n6.12 forms (*) and properties that do not apply to 6.12\n";
  for (const properties::PropertyInfo& p : properties::kCatalogue)
    if (!p.on_6_12.empty()) std::cout << fmt::format("{:<26} {}\n", p.name, p.on_6_12);
  // The findings registry: failures of the faithful model that are upstream
  // behaviour, each with its trace in corpus/findings/<name>.trace.
  std::cout << "\nknown findings (properties/findings.h; traces in corpus/findings/)\n";
  for (const properties::FindingInfo& f : properties::kFindings)
    std::cout << fmt::format("{:<36} {:<18} {:<11} {}\n", f.name, f.property, f.profiles, f.condition);
  return 0;
}

}  // namespace

Run add_properties(CLI::App& app) {
  app.add_subcommand("properties", "List the properties (docs/PROPERTIES.md) and how each is checked");
  return [] { return run(); };
}

}  // namespace eevdf::cli
