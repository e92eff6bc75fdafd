// `eevdf-check lab WORKLOAD`: flags, files and the exit code; the driver, the tables
// and the SVG are lab/'s.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/flag_words.h"
#include "cli/kernel_tree_option.h"
#include "lab/builtin.h"
#include "lab/driver.h"
#include "lab/report.h"
#include "lab/timeline.h"
#include "lab/workload.h"
#include "model/features.h"
#include "trace/error.h"
#include "trace/units.h"

namespace eevdf::cli {
namespace {

struct LabFlags {
  std::string workload;
  std::string features;  // A's feature words, after the workload's
  std::string against;   // B's feature words
  std::string tree;      // --kernel-tree: A runs on this tree's fair.c
  std::string against_tree;
  std::string arith = "kernel";
  std::uint64_t seeds = 1;
  std::uint64_t seed = 1;
  std::string duration;
  std::string save;  // a directory
  std::string svg;   // a file
  std::string window;
  std::string lag_of;
  std::string check, skip;
  bool json = false;
  bool list = false;
};

// The workload: a file, else a built-in name.
lab::Workload load(const std::string& arg, std::string& file) {
  if (std::filesystem::is_regular_file(arg)) {
    std::ifstream in(arg);
    std::stringstream text;
    text << in.rdbuf();
    file = arg;
    return lab::read_workload(text.str(), arg);
  }
  if (const auto text = lab::builtin_workload(arg)) {
    file = "lab/workloads/" + arg + ".lab";
    return lab::read_workload(*text, file);
  }
  std::string names;
  for (const std::string& n : lab::builtin_workloads()) names += " " + n;
  throw UsageError(fmt::format("{}: no such file, and no built-in workload of that name (built in:{})", arg, names));
}

std::string label(const LabFlags& f, bool b) {
  if (b) return !f.against_tree.empty() ? f.against_tree : (f.against.empty() ? "default" : f.against);
  std::string l = !f.tree.empty() ? f.tree : "reference";
  if (!f.features.empty()) l += " " + f.features;
  return l;
}

int run(const LabFlags& f) {
  if (f.list) {
    for (const std::string& n : lab::builtin_workloads()) std::cout << n << "\n";
    return 0;
  }
  if (f.workload.empty()) throw UsageError("a WORKLOAD is required (a file, or one of `eevdf-check lab --list`)");
  if (!f.against.empty() && !f.against_tree.empty())
    throw UsageError("--against and --against-tree compare with different things: give one");
  if (!f.against_tree.empty() && f.tree.empty()) throw UsageError("--against-tree needs --kernel-tree (side A)");
  if (f.seeds == 0) throw UsageError("--seeds: at least 1");
  if (f.arith != "kernel" && f.arith != "ideal") throw UsageError("--arith: kernel or ideal");
  std::string file;
  const lab::Workload w = load(f.workload, file);

  lab::RunOptions o;
  o.file = file;
  o.features = feature_words("--features", f.features);
  std::vector<std::pair<std::string, bool>> b_features = o.features;  // checked before any run
  for (const auto& x : feature_words("--against", f.against)) b_features.push_back(x);
  if (!f.duration.empty()) o.duration_ns = duration_flag("--duration", f.duration);
  const std::uint64_t end = o.duration_ns.value_or(w.duration_ns);
  if (!f.svg.empty()) {
    o.window = {0, std::min<std::uint64_t>(end, 20'000'000)};
    if (!f.window.empty()) {
      const std::size_t dots = f.window.find("..");
      if (dots == std::string::npos) throw UsageError("--window: FROM..TO, e.g. 1s..1.02s");
      o.window = {duration_flag("--window", f.window.substr(0, dots)) , duration_flag("--window", f.window.substr(dots + 2))};
      if (o.window->first >= o.window->second) throw UsageError("--window: FROM must be before TO");
      if (o.window->first >= end) throw UsageError("--window: FROM must be before the end of the run");
    }
    o.lag_of = words(f.lag_of);
  } else if (!f.window.empty() || !f.lag_of.empty()) {
    throw UsageError("--window and --lag-of shape the timeline: give --svg FILE");
  }
  lab::TargetSpec a;
  a.arith = f.arith == "ideal" ? trace::Arith::ideal : trace::Arith::kernel;
  a.selection = {words(f.check), words(f.skip)};
  if (!f.tree.empty()) a.kind = lab::TargetSpec::kernel_tree;

  std::vector<lab::Side> sides;
  const auto run_side = [&](bool b, const std::vector<std::pair<std::string, bool>>& features, const std::string& tree) {
    if (!tree.empty() && select_kernel_tree(tree) != 0) return false;
    lab::Side& side = sides.emplace_back();
    side.label = label(f, b);
    for (std::uint64_t s = 0; s < f.seeds; ++s) {
      lab::RunOptions run = o;
      run.features = features;
      run.seed = f.seed + s;
      std::ofstream save;
      if (!f.save.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(f.save, ec);
        const std::string path = fmt::format("{}/{}-{}-seed{}.trace", f.save, w.name, b ? "b" : "a", run.seed);
        save.open(path);
        if (!save) throw UsageError(fmt::format("--save: cannot write {}", path));
        run.save = &save;
      }
      if (b || s > 0) run.window.reset();  // the timeline shows A's first run
      side.runs.push_back(lab::run_workload(w, a, run));
    }
    return true;
  };
  if (!run_side(false, o.features, f.tree)) return 2;
  if (!f.against.empty() && !run_side(true, b_features, f.tree)) return 2;
  if (!f.against_tree.empty() && !run_side(true, o.features, f.against_tree)) return 2;

  if (f.json) {
    std::cout << nlohmann::json{{"workload", w.name}, {"duration_ns", end}, {"sides", lab::report_json(sides)}}.dump(2)
              << "\n";
  } else {
    std::cout << fmt::format("lab {}: {} s simulated, {} seed{} from {}\n\n", w.name,
                             static_cast<double>(end) / 1e9, f.seeds, f.seeds == 1 ? "" : "s", f.seed);
    std::cout << lab::format_report(sides);
  }
  if (!f.svg.empty() && sides[0].runs[0].timeline) {
    lab::Timeline t = *sides[0].runs[0].timeline;
    t.title = fmt::format("{} ({}, seed {})", w.name, sides[0].label, f.seed);
    std::ofstream svg(f.svg);
    if (!(svg << lab::render_svg(t))) throw UsageError(fmt::format("--svg: cannot write {}", f.svg));
  }
  const std::string violations = lab::format_violations(sides);
  if (!violations.empty()) {
    std::cerr << "\nThe properties found violations (replay a run saved with --save DIR to see them):\n" << violations;
    return 1;
  }
  return 0;
}

}  // namespace

Run add_lab(CLI::App& app) {
  auto f = std::make_shared<LabFlags>();
  CLI::App* cmd = app.add_subcommand(
      "lab", "Latency experiments: run a workload over the scheduler, deterministically, and print perf-sched-style tables");
  cmd->add_option("workload", f->workload, "A workload file (docs/LAB.md), or a built-in name (--list)");
  cmd->add_flag("--list", f->list, "List the built-in workloads");
  cmd->add_option("--features", f->features, "Feature words for A (and B), after the workload's: NO_DELAY_DEQUEUE,...");
  cmd->add_option("--against", f->against, "B: the same run with these feature words added");
  add_kernel_tree_option(cmd, f->tree);
  cmd->add_option("--against-tree", f->against_tree, "B: the same run on this kernel tree's fair.c (with --kernel-tree)");
  cmd->add_option("--arith", f->arith, "The reference's arithmetic: kernel or ideal")->capture_default_str();
  cmd->add_option("--seeds", f->seeds, "Runs per side, seeds --seed, --seed+1, ...; the tables show mean [min..max]")
      ->capture_default_str();
  cmd->add_option("--seed", f->seed, "The first seed")->capture_default_str();
  cmd->add_option("--duration", f->duration, "Simulated time (default: the workload's)");
  cmd->add_option("--save", f->save, "Write each run's trace into this directory (replayable)");
  cmd->add_option("--svg", f->svg, "Write the SVG timeline of A's first run to this file");
  cmd->add_option("--window", f->window, "The timeline's window FROM..TO (default: the first 20ms)");
  cmd->add_option("--lag-of", f->lag_of, "Tasks whose lag the timeline plots: client.0,server.0");
  cmd->add_option("--check", f->check, "Only these properties (comma-separated)");
  cmd->add_option("--skip", f->skip, "Not these properties");
  cmd->add_flag("--json", f->json, "The tables as JSON");
  return [f] {
    return exit_2_on_bad_input("lab", [&] { return run(*f); });
  };
}

}  // namespace eevdf::cli
