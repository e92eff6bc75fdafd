// eevdf-check: flags, dispatch and exit codes. Everything else lives in libraries.
// Exit codes (distinct, so a script can tell them apart): 0 clean, 1 a property or expectation failed,
// 2 bad input or usage, 3 an internal assertion of this tool.
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <map>
#include <unistd.h>

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "cli/commands.h"

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitInternal = 3;

// A standard assert() or std::terminate ends in abort(); report it as exit code 3
// rather than as a signal, so that scripts see an internal error distinctly.
extern "C" void on_abort(int) {
  static const char message[] = "eevdf-check: internal error (abort)\n";
  (void)!write(2, message, sizeof message - 1);
  _exit(kExitInternal);
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGABRT, on_abort);
  CLI::App app{"eevdf-check: a deterministic model checker for the Linux EEVDF scheduler"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 clean, 1 a property or expectation failed, 2 bad input or usage, 3 internal error.");
  std::map<std::string, eevdf::cli::Run> runs;
  runs["replay"] = eevdf::cli::add_replay(app);
  runs["gen"] = eevdf::cli::add_gen(app);
  runs["properties"] = eevdf::cli::add_properties(app);
  runs["bench"] = eevdf::cli::add_bench(app);
  runs["run"] = eevdf::cli::add_run(app);
  runs["diff"] = eevdf::cli::add_diff(app);
  runs["mutate"] = eevdf::cli::add_mutate(app);
  runs["lab"] = eevdf::cli::add_lab(app);
  runs["explore"] = eevdf::cli::add_explore(app);
  runs["diff-campaign"] = eevdf::cli::add_diff_campaign(app);
  runs["shrink"] = eevdf::cli::add_shrink(app);
  runs["corpus"] = eevdf::cli::add_corpus(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    for (const auto& [name, run] : runs)
      if (app.got_subcommand(name)) return run();
  } catch (const eevdf::InternalError& e) {
    std::cerr << "eevdf-check: " << e.what() << "\n";
    return kExitInternal;
  } catch (const eevdf::KernelWarn& e) {  // a model driven outside replay::CheckedRun met a kernel condition
    std::cerr << "eevdf-check: kernel_warn: " << e.what() << "\n";
    return 1;
  }
  return kExitUsage;
}
