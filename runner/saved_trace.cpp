// Shrinking and saving failures; see saved_trace.h.
#include "runner/saved_trace.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "generator/generator.h"
#include "properties/kernel_src_judged.h"
#include "properties/kernel_warn.h"
#include "properties/registry.h"
#include "replay/kernel_tree.h"
#include "runner/trace_run.h"
#include "trace/writer.h"

namespace eevdf::runner {

shrinkers::Target shrink_target(const FirstViolation& v) {
  // The same property with the same finding status: a known finding and a new
  // violation of one property are two failures, shrunk apart.
  shrinkers::Target target{v.property, v.finding};
  const properties::PropertyInfo* info = properties::find_property(v.property);
  if (info != nullptr && info->exact_in == properties::Exact::ideal) target.arith = trace::Arith::ideal;
  if (v.property == properties::kKernelWarn) target.condition = v.values;  // the same kernel check
  return target;
}

Shrunk shrink_failure(const Options& o, const FirstViolation& v, double seconds_max) {
  trace::Trace failing = generator::generate_trace(v.seed, o.generator);
  shrinkers::Target target = shrink_target(v);
  // On kernel-src a kernel_warn may be the real code's, and the properties of
  // kernel_src_judged.h judge the real code; on a tree judged alone every property is
  // its mirror's: the kernel-src replay judges them.
  target.kernel_src = o.kernel_src && (target.property == properties::kKernelWarn || o.kernel_tree_alone ||
                                       properties::judged_on_kernel_src(target.property));
  // The saved trace names the arithmetic its failure needs, so that replay judges it.
  if (target.arith == trace::Arith::ideal) failing.header.arith = trace::Arith::ideal;
  shrinkers::Budget budget;
  budget.seconds_max = seconds_max;
  Shrunk out;
  out.trace = shrinkers::shrink(failing, target, budget, &out.stats);
  return out;
}

std::string replay_flag(std::string_view property, bool kernel_src) {
  // A tree's failure replays on that tree, whatever the property.
  if (const auto tree = replay::tree_judged_alone(); kernel_src && tree) return "--kernel-tree " + tree->dir + " ";
  if (kernel_src && (property == properties::kKernelWarn || properties::judged_on_kernel_src(property)))
    return "--model=kernel-src ";
  const std::string_view how = properties::system_check(property);
  return how.starts_with("--") ? std::string(how) + " " : "";
}

std::string saved_trace_text(const trace::Trace& shrunk, const FirstViolation& v, std::uint64_t run_seed,
                             const std::string& command_line, bool kernel_src) {
  trace::Trace t = shrinkers::with_expectations(shrunk, shrinkers::Target{v.property, v.finding});
  std::vector<std::string>& c = t.header.preamble;  // written as `#<line>`
  c.clear();
  c.push_back(fmt::format(" Found by `eevdf-check run`: property {} violated{}.", v.property,
                          v.finding.empty() ? "" : fmt::format(" (known finding {})", v.finding)));
  c.push_back(fmt::format(" Run seed {}, trace index {} (trace seed {}), event {} of the generated trace, at {} ns.",
                          run_seed, v.index, v.seed, v.line, v.time_ns));
  c.push_back(fmt::format(" First report: {}", v.values));
  if (!v.explanation.empty()) c.push_back(fmt::format("   {}", v.explanation));
  c.push_back(fmt::format(" Command: {}", command_line));
  c.push_back(fmt::format(" Shrunk from the generated trace; replay with `eevdf-check replay {}<this file>`.",
                          replay_flag(v.property, kernel_src)));
  return trace::to_text(t);
}

std::string crash_trace_text(const trace::Trace& candidate, const FirstViolation& v, const std::string& error,
                             std::uint64_t run_seed, const std::string& command_line) {
  trace::Trace t = candidate;
  t.header.expect_clean = false;
  t.header.expect_violations.clear();
  std::vector<std::string>& c = t.header.preamble;
  c.clear();
  c.push_back(" An internal error of eevdf-check (exit 3) on a shrink candidate, found by `eevdf-check run`");
  c.push_back(fmt::format(" while shrinking the {} failure of trace index {} (trace seed {}, run seed {}).",
                          v.property, v.index, v.seed, run_seed));
  c.push_back(fmt::format(" Error: {}", error));
  c.push_back(fmt::format(" Command: {}", command_line));
  c.push_back(fmt::format(" Reproduce with `eevdf-check replay {}<this file>`.", replay_flag(v.property)));
  return trace::to_text(t);
}

std::string saved_trace_name(const std::string& property, const std::string& text, int attempt) {
  const auto hash = static_cast<std::uint32_t>(fnv1a(kFnvOffset, text) & 0xffffffffu);
  return attempt == 0 ? fmt::format("{}-{:08x}.trace", property, hash)
                      : fmt::format("{}-{:08x}-{}.trace", property, hash, attempt);
}

std::string write_new_trace(const std::string& dir, const std::string& property, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (int attempt = 0; attempt < 1000; ++attempt) {  // bounded: 1000 same-named files is a bug
    const std::string path = (std::filesystem::path(dir) / saved_trace_name(property, text, attempt)).string();
    if (std::filesystem::exists(path)) continue;
    std::ofstream out(path);
    if (!out) return "";
    out << text;
    return out ? path : "";
  }
  return "";
}

std::string folder_for(const trace::Trace& t) {
  if (!t.header.injections.empty()) return "bugs";
  const std::optional<shrinkers::Target> first = shrinkers::first_failure(t);
  if (first && first->finding && !first->finding->empty()) return "findings";
  return "regressions";
}

std::string corpus_name(const trace::Trace& t, const std::string& text, int attempt) {
  const auto& h = t.header;
  const std::string property = !h.expect_violations.empty() ? h.expect_violations.front()
                               : !h.expect_findings.empty() ? h.expect_findings.front()
                                                            : "clean";
  return saved_trace_name(property, text, attempt);
}

}  // namespace eevdf::runner
