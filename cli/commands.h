// The subcommands of eevdf-check. Each registers its flags on the CLI11 app and
// returns the process exit code when run; main() owns only dispatch.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>  // the run callback

namespace eevdf::cli {

using Run = std::function<int()>;

// Adds `replay` to `app`; the returned callback runs it once the flags are parsed.
Run add_replay(CLI::App& app);
// Adds `gen`: write a generated trace.
Run add_gen(CLI::App& app);
// Adds `properties`: list the property registry.
Run add_properties(CLI::App& app);
// Adds `bench`: events/s of the models.
Run add_bench(CLI::App& app);
// Adds `run`: the randomized campaign (generate, check, shrink, save).
Run add_run(CLI::App& app);
// Adds `diff`: two implementations (trees, or a tree and the reference) in lockstep.
Run add_diff(CLI::App& app);
// Adds `mutate`: the mutation analysis of a tree's fair.c.
Run add_mutate(CLI::App& app);
// Adds `lab`: latency experiments, a workload over the scheduler.
Run add_lab(CLI::App& app);
Run add_explore(CLI::App& app);
// Adds the hidden `diff-campaign`: fast_matches_reference on generated traces.
Run add_diff_campaign(CLI::App& app);
// Adds `shrink`: reduce a failing trace to a 1-minimal one.
Run add_shrink(CLI::App& app);
// Adds `corpus add` and `corpus check`: file shrunk traces, replay the corpus.
Run add_corpus(CLI::App& app);

}  // namespace eevdf::cli
