// `eevdf-check diff-campaign` (hidden): fast_matches_reference on generated traces
// (runner/diff_campaign.h). Prints the tally; on a mismatch, the first mismatching
// trace shrunk (shrinkers/differential.h) and the command that reproduces it. Exit 1
// on a mismatch.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "generator/generator.h"
#include "model/fast/fast_machine.h"
#include "runner/diff_campaign.h"
#include "runner/options.h"
#include "shrinkers/shrink.h"
#include "trace/writer.h"

namespace eevdf::cli {
namespace {

struct DiffFlags {
  runner::DiffCampaignOptions o;
  std::string build = "both";
  std::string save;
};

// `wanted`, or `wanted` with -1, -2, ... before its extension: never an existing file.
std::string free_path(const std::string& wanted) {
  const std::filesystem::path p(wanted);
  std::string path = wanted;
  for (int n = 1; std::filesystem::exists(path); ++n)
    path = (p.parent_path() / fmt::format("{}-{}{}", p.stem().string(), n, p.extension().string())).string();
  return path;
}

int run(DiffFlags f) {
  f.o.scalar = f.build != "simd";
  f.o.simd = f.build != "scalar";
  if (f.o.simd && !model::fast::simd_runs_here()) {
    if (!f.o.scalar) {
      std::cerr << fmt::format("diff-campaign: --build simd: this CPU cannot run the SIMD build ({})\n",
                               model::fast::simd_isa());
      return 2;
    }
    std::cout << fmt::format("the SIMD build ({}) is not checked: this CPU lacks it\n", model::fast::simd_isa());
  }
  const runner::DiffCampaignResult r = runner::run_diff_campaign(f.o);
  std::cout << fmt::format(
      "diff-campaign --seed {} --from {} --traces {} --build {}: {} traces, {} events compared, {} stopped at a "
      "reference overflow ({} detected by the fast model in that event), {} mismatches\n",
      f.o.seed, f.o.first, f.o.traces, f.build, r.traces, r.events, r.overflow_stops, r.overflow_seen_fast,
      r.mismatches);
  if (r.mismatches == 0) return 0;
  std::cout << "first mismatch: " << r.first_mismatch << "\n";
  const std::uint64_t seed = runner::trace_seed(f.o.seed, r.first_mismatch_index);
  const trace::Trace failing = generator::generate_trace(seed, runner::diff_trace_options(seed));
  shrinkers::Stats stats;
  const trace::Trace shrunk =
      shrinkers::shrink(failing, shrinkers::Target{"fast_matches_reference", std::nullopt}, shrinkers::Budget{}, &stats);
  const std::string path = free_path(f.save.empty() ? "diff-mismatch.trace" : f.save);
  std::ofstream out(path);
  out << trace::to_text(shrunk);
  if (!out) {
    std::cerr << fmt::format("{}: cannot write the mismatching trace\n", path);
    return 2;
  }
  std::cout << fmt::format("trace shrunk {} -> {} events ({}), written to {}; reproduce: eevdf-check replay --diff {}\n",
                           stats.events_before, stats.events_after, stats.stopped_because, path, path);
  return 1;
}

}  // namespace

Run add_diff_campaign(CLI::App& app) {
  auto f = std::make_shared<DiffFlags>();
  CLI::App* cmd = app.add_subcommand("diff-campaign", "fast_matches_reference on generated traces");
  cmd->group("");  // hidden: a developer's tool
  cmd->add_option("--seed", f->o.seed, "Campaign seed");
  cmd->add_option("--from", f->o.first, "First trace index");
  cmd->add_option("--traces", f->o.traces, "Number of traces");
  cmd->add_option("--build", f->build, "Fast model build(s) to check")->check(CLI::IsMember({"scalar", "simd", "both"}));
  cmd->add_option("--save", f->save, "Where to write the first mismatching trace, shrunk (default diff-mismatch.trace; an existing file gets a -N name)");
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
