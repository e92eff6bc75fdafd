// `eevdf-check gen`: write one generated trace (valid by construction) to a file or
// stdout, streaming, so that traces of 10^7 events take no memory.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/kernel_tree_option.h"
#include "replay/kernel_tree.h"
#include "replay/replay.h"
#include "runner/kernel_src_oracle.h"
#include "generator/generator.h"
#include "trace/writer.h"

namespace eevdf::cli {
namespace {

struct GenFlags {
  std::uint64_t seed = 1;
  std::uint64_t events = 500;
  int tasks = 8;
  int busy_cpus = 8;
  int sockets = 2;
  int cores = 64;
  int hz = 1000;
  std::uint64_t gap_max_ns = 0;
  std::string mix;  // "", tick-heavy, tick-all-heavy, wakeup-heavy
  std::string output;
  std::string profile = "6.18";
  std::string kernel_tree;
};

// Fixed verb weights for the benchmark shapes (indexed by trace::Verb).
std::array<std::uint32_t, 9> mix_weights(const std::string& mix) {
  //        fork wake sleep tick migrate renice setslice yield exit
  if (mix == "tick-heavy" || mix == "tick-all-heavy") return {4, 2, 2, 40, 0, 0, 0, 1, 0};
  if (mix == "wakeup-heavy") return {4, 20, 20, 4, 1, 0, 0, 1, 0};
  return {};
}

int run(const GenFlags& f) {
  generator::Options o;
  o.topology.sockets = f.sockets;
  o.topology.cores_per_socket = f.cores;
  o.tasks_min = o.tasks_max = f.tasks;
  o.busy_cpus_max = f.busy_cpus;
  o.events_min = o.events_max = f.events;
  o.hz = f.hz;
  o.gap_max_ns = f.gap_max_ns;
  o.verb_weights = mix_weights(f.mix);
  if (f.mix == "tick-all-heavy") o.tick_all_cpus = {1, 1};  // every drawn tick ticks every CPU
  o.profile = f.profile;  // validity depends on the profile's decisions
  if (!f.kernel_tree.empty()) o.oracle = runner::kernel_src_oracle();  // ... or on the tree's
  std::ofstream file;
  if (!f.output.empty()) {
    file.open(f.output);
    if (!file) {
      std::cerr << fmt::format("{}: cannot open for writing\n", f.output);
      return 2;
    }
  }
  std::ostream& out = f.output.empty() ? std::cout : file;
  generator::Generator gen(f.seed, o);
  out << "# eevdf-check gen --seed " << f.seed << " --events " << f.events << " --tasks " << f.tasks
      << " --busy-cpus " << f.busy_cpus << " --sockets " << f.sockets << " --cores " << f.cores << " --hz "
      << f.hz << (f.mix.empty() ? "" : " --mix " + f.mix)
      << (f.gap_max_ns == 0 ? "" : " --gap-max " + std::to_string(f.gap_max_ns))
      << (f.profile == "6.18" ? "" : " --profile " + f.profile)
      << (f.kernel_tree.empty() ? "" : " --kernel-tree " + f.kernel_tree + " (Linux " + replay::kernel_src_version() + ")")
      << "\n";
  trace::write_header(out, gen.header());
  while (const auto e = gen.next()) out << trace::format_event(*e) << "\n";
  return 0;
}

}  // namespace

Run add_gen(CLI::App& app) {
  auto f = std::make_shared<GenFlags>();
  CLI::App* cmd = app.add_subcommand("gen", "Write a random trace, valid by construction, for a seed");
  cmd->add_option("--seed", f->seed, "Seed (the same seed gives the same trace)");
  cmd->add_option("--events", f->events, "Number of events")->check(CLI::Range(1ull, 100'000'000ull));
  cmd->add_option("--tasks", f->tasks, "Number of tasks")->check(CLI::Range(1, 100000));
  cmd->add_option("--busy-cpus", f->busy_cpus, "CPUs the tasks start on")->check(CLI::Range(1, 4096));
  cmd->add_option("--sockets", f->sockets, "Sockets (topology <sockets>x<cores>)")->check(CLI::Range(1, 64));
  cmd->add_option("--cores", f->cores, "Cores per socket")->check(CLI::Range(1, 4096));
  cmd->add_option("--hz", f->hz, "Tick rate")->check(CLI::Range(1, 100000));
  cmd->add_option("--mix", f->mix, "Event mix")->check(CLI::IsMember({"tick-heavy", "tick-all-heavy", "wakeup-heavy"}));
  cmd->add_option("--gap-max", f->gap_max_ns, "Longest gap between events in ns (default: a tick)");
  CLI::Option* profile =
      cmd->add_option("--profile", f->profile,
                      "Semantics profile the trace is valid under (writes `kernel 6.12`; with --kernel-tree: the "
                      "tree release's)")
          ->check(CLI::IsMember({"6.18", "6.12"}));
  cmd->add_option("-o,--output", f->output, "Output file (default: stdout)");
  cmd->add_option("--kernel-tree", f->kernel_tree,
                  "Make the trace valid on this kernel tree's kernel-src model (its decisions choose what is legal "
                  "next) instead of on the reference")
      ->type_name("DIR");
  return [f, profile] {
    if (const int rc = select_kernel_tree(f->kernel_tree); rc != 0) return rc;
    // A tree runs traces of its release's profile (a 6.12 tree: `kernel 6.12`).
    if (const auto tree = replay::tree_judged_alone(); tree && profile->count() == 0)
      f->profile = replay::profile_for_release(tree->version);
    return run(*f);
  };
}

}  // namespace eevdf::cli
