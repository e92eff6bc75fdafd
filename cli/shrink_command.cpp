// `eevdf-check shrink TRACE [--property P] [--budget 30s] [--stats] [-o FILE]
// [--kernel-tree DIR]`: flags, files and the report; the work is
// eevdf::shrinkers::shrink (on a tree: every candidate judged by the tree's mirror).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/kernel_tree_option.h"
#include "cli/seconds.h"
#include "replay/judged.h"
#include "replay/kernel_tree.h"
#include "replay/replay.h"
#include "replay/vocabulary.h"
#include "shrinkers/shrink.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/writer.h"

namespace eevdf::cli {
namespace {

struct ShrinkFlags {
  std::string file;
  std::string property;
  std::string budget = "30s";
  bool stats = false;
  std::string output;
  bool force = false;
  std::string kernel_tree;  // shrink on this tree's fair.c, judged by its mirror
};

// Why `t` cannot be shrunk toward `property` ("" when it can): the replay's own
// report when it is invalid, else that it does not fail.
std::string why_not(const std::string& file, const std::string& text, const std::string& property) {
  std::istringstream in(text);
  std::ostringstream out, err;
  replay::Options o;
  o.keep_going = true;
  if (replay::tree_judged_alone()) o.model = replay::Model::kernel_src;  // the tree's own verdict
  const replay::Outcome outcome = replay::replay(in, file, o, out, err);
  if (outcome == replay::Outcome::bad_input || outcome == replay::Outcome::internal) return err.str() + out.str();
  return property.empty() ? fmt::format("{}: no property fails on its own (nothing to shrink)\n", file)
                          : fmt::format("{}: property {} does not fail on its own (nothing to shrink)\n", file, property);
}

void print_stats(const shrinkers::Stats& s) {
  std::cerr << fmt::format("{:<16} {:>10} {:>9} {:>14} {:>9}\n", "pass", "candidates", "accepted", "events removed",
                           "seconds");
  for (const shrinkers::PassStats& p : s.passes)
    std::cerr << fmt::format("{:<16} {:>10} {:>9} {:>14} {:>9.3f}\n", p.name, p.candidates, p.accepted,
                             p.events_removed, p.seconds);
  std::cerr << fmt::format("total: {} candidates, {} accepted, {} rounds, {} -> {} events, {:.3f} s; stopped: {}\n",
                           s.candidates, s.accepted, s.rounds, s.events_before, s.events_after, s.seconds,
                           s.stopped_because);
}

std::string shrunk_text(const trace::Trace& input, const trace::Trace& result, const shrinkers::Target& target,
                        const ShrinkFlags& f, const shrinkers::Stats& s) {
  trace::Trace t = shrinkers::with_expectations(result, target);
  t.header.preamble = input.header.preamble;
  if (!t.header.preamble.empty()) t.header.preamble.push_back("");
  t.header.preamble.push_back(fmt::format(" Shrunk by `eevdf-check shrink {}{}` from {} to {} events ({}): property {}{}.",
                                          f.kernel_tree.empty() ? "" : "--kernel-tree " + f.kernel_tree + " ", f.file, s.events_before, s.events_after, s.stopped_because, target.property,
                                          target.finding && !target.finding->empty()
                                              ? fmt::format(" (known finding {})", *target.finding)
                                              : ""));
  return trace::to_text(t);
}

int run(const ShrinkFlags& f) {
  if (const int rc = select_kernel_tree(f.kernel_tree); rc != 0) return rc;
  const double seconds = parse_seconds(f.budget);
  if (seconds < 0) {
    std::cerr << fmt::format("shrink: --budget {}: expected a duration such as 30s, 2m or 500ms\n", f.budget);
    return 2;
  }
  std::ifstream in(f.file);
  if (!in) {
    std::cerr << fmt::format("{}: cannot open file\n", f.file);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  trace::Trace input;
  try {
    input = trace::parse_trace_text(text.str(), f.file, replay::vocabulary());
  } catch (const trace::TraceError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  // The property: --property, else the trace's one `expect violation` (or the property
  // of its one `expect finding`), else the first that fails.
  std::string property = f.property;
  const std::vector<std::string> expected = replay::expected_properties(input.header);
  if (property.empty() && expected.size() == 1) property = expected[0];
  if (const std::string why = properties::unjudged(property, shrinkers::judging(input.header), properties::Asker::shrink);
      !property.empty() && !why.empty()) {
    std::cerr << fmt::format("{}: --property {}\n", f.file, why);
    return 2;
  }
  const std::optional<shrinkers::Target> target = shrinkers::first_failure(input, property);
  if (!target) {
    std::cerr << why_not(f.file, text.str(), property);
    return 2;
  }
  shrinkers::Budget budget;
  budget.seconds_max = seconds;
  shrinkers::Stats stats;
  const trace::Trace result = shrinkers::shrink(input, *target, budget, &stats);
  const std::string out = shrunk_text(input, result, *target, f, stats);
  if (f.stats) print_stats(stats);
  // A candidate the tool itself failed on: printed (a trace to reproduce it), exit 3.
  const int code = stats.internal_error_trace ? 3 : 0;
  if (stats.internal_error_trace)
    std::cerr << fmt::format("eevdf-check: internal error on a shrink candidate: {}\n{}", stats.internal_error,
                             trace::to_text(*stats.internal_error_trace));
  if (f.output.empty()) {
    std::cout << out;
    return code;
  }
  if (std::filesystem::exists(f.output) && !f.force) {
    std::cerr << fmt::format("{}: exists; not overwritten (pass --force)\n", f.output);
    return 2;
  }
  std::ofstream file(f.output);
  file << out;
  if (!file) {
    std::cerr << fmt::format("{}: cannot write\n", f.output);
    return 2;
  }
  return code;
}

}  // namespace

Run add_shrink(CLI::App& app) {
  auto f = std::make_shared<ShrinkFlags>();
  CLI::App* cmd = app.add_subcommand("shrink", "Shrink a failing trace to a 1-minimal one that fails the same property");
  cmd->add_option("trace", f->file, "The failing trace")->required();
  cmd->add_option("--property", f->property,
                  "The property to keep failing (default: the trace's one `expect violation` or `expect finding`, "
                  "else the first to fail)")
      ->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_option("--budget", f->budget, "Time budget, e.g. 30s, 2m (default 30s)");
  cmd->add_flag("--stats", f->stats, "Per-pass candidates, accepted, events removed and why it stopped (stderr)");
  cmd->add_option("-o,--output", f->output, "Write the shrunk trace here (default: stdout)");
  cmd->add_flag("--force", f->force, "Overwrite the --output file if it exists");
  add_kernel_tree_option(cmd, f->kernel_tree);
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
