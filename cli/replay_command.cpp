// `eevdf-check replay FILE...`: flags and files; the work is eevdf::replay::replay.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/kernel_tree_option.h"
#include "replay/vocabulary.h"
#include "model/injections.h"
#include "properties/catalogue.h"
#include "replay/replay.h"

namespace eevdf::cli {
namespace {

struct ReplayFlags {
  std::vector<std::string> files;
  std::string arith;
  std::vector<std::string> injections;
  std::string dump;
  std::vector<std::string> check;
  std::vector<std::string> skip;
  bool keep_going = false;
  std::string model = "reference";
  std::string diff;  // "fast" (`--diff`), "kernel-src" or "ideal"
  std::string kernel_tree;
};

replay::Options to_options(const ReplayFlags& flags) {
  replay::Options options;
  if (flags.arith == "kernel") options.arith = trace::Arith::kernel;
  if (flags.arith == "ideal") options.arith = trace::Arith::ideal;
  if (flags.arith == "both") options.arith = trace::Arith::both;
  options.injections = flags.injections;
  if (flags.dump == "active") options.dump = replay::Dump::active_cpus;
  if (flags.dump == "full") options.dump = replay::Dump::full;
  options.check = flags.check;
  options.skip = flags.skip;
  options.keep_going = flags.keep_going;
  if (flags.model == "kernel-src") options.model = replay::Model::kernel_src;
  options.diff = flags.diff == "fast";
  options.diff_kernel_src = flags.diff == "kernel-src";
  options.diff_ideal = flags.diff == "ideal";
  return options;
}

int run(const ReplayFlags& flags) {
  const replay::Options options = to_options(flags);
  replay::Outcome result = replay::Outcome::clean;
  for (const std::string& file : flags.files) {
    if (file == "-") {  // standard input: streamed once, so no shadow model or `arith both`
      result = replay::worst(result, replay::replay(std::cin, "<stdin>", options, std::cout, std::cerr));
      continue;
    }
    std::ifstream in(file);
    if (!in) {
      std::cerr << fmt::format("{}: cannot open file\n", file);
      result = replay::worst(result, replay::Outcome::bad_input);
      continue;
    }
    result = replay::worst(result, replay::replay(in, file, options, std::cout, std::cerr));
  }
  return static_cast<int>(result);
}

}  // namespace

Run add_replay(CLI::App& app) {
  auto flags = std::make_shared<ReplayFlags>();
  CLI::App* cmd = app.add_subcommand("replay", "Replay traces through the model and check their expectations");
  cmd->add_option("files", flags->files, "Trace files (`-`: standard input)")->required();
  cmd->add_option("--arith", flags->arith, "Arithmetic: kernel, ideal or both (default: the trace's `arith`)")
      ->check(CLI::IsMember({"kernel", "ideal", "both"}));
  cmd->add_option("--inject", flags->injections, "Switch on a historical bug (docs/INJECTIONS.md); repeatable")
      ->check(CLI::IsMember(replay::vocabulary().injections))
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  // `--dump` and `--dump=full` only: a flag never swallows the next word (a file).
  cmd->add_flag("--dump{active}", flags->dump, "Print the state as JSON after every event (`--dump=full`: every CPU)")
      ->check(CLI::IsMember({"active", "full"}));
  cmd->add_option("--check", flags->check, "Check only these properties (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_option("--skip", flags->skip, "Do not check these properties (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_flag("--keep-going", flags->keep_going, "Report every violation instead of stopping at the first");
  cmd->add_option("--model", flags->model,
                  "reference (default) or kernel-src: Debian's 6.12 fair.c, for `kernel 6.12` traces")
      ->check(CLI::IsMember({"reference", "kernel-src"}));
  cmd->add_flag("--diff{fast}", flags->diff,
                "--diff (or --diff=fast): fast_matches_reference, the fast model (scalar and SIMD builds) beside the "
                "kernel reference, reporting the first differing field, event and line; --diff=kernel-src: the 6.12 "
                "profile beside kernel-src (kernel_matches_reference); --diff=ideal: the kernel and the ideal "
                "arithmetic in lockstep, every differing decision judged against the accumulated rounding bound "
                "(ideal_tracks_kernel)")
      ->check(CLI::IsMember({"fast", "kernel-src", "ideal"}));
  add_kernel_tree_option(cmd, flags->kernel_tree);
  return [flags, cmd] {
    if (const int rc = select_kernel_tree(flags->kernel_tree, *cmd, flags->model); rc != 0) return rc;
    return run(*flags);
  };
}

}  // namespace eevdf::cli
