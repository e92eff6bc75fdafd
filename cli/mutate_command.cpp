// `eevdf-check mutate`: flags, the report and the exit code; the analysis is
// runner/mutation.h, the mutants kernel_src/mutate/.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/seconds.h"
#include "replay/kernel_tree.h"
#include "runner/kernel_src_diff.h"
#include "runner/kernel_src_oracle.h"
#include "runner/mutation.h"

namespace eevdf::cli {
namespace {

struct MutateFlags {
  std::string tree;
  std::string functions;
  std::string operators;
  std::uint64_t traces = 200;
  std::uint64_t seed = 1;
  int jobs = 1;
  bool json = false;
  double timeout_s = 120;
  double shrink_seconds = 10;
  std::string budget;  // per mutant, e.g. 10s; empty: the trace count alone
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream s(list);
  for (std::string item; std::getline(s, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

#ifdef EEVDF_HAVE_KERNEL_SRC

// killed counts the crashes too; the score leaves out equivalents and the unreached.
struct Counts {
  int total = 0, killed = 0, crashed = 0, survived = 0, not_reached = 0, equivalent = 0;
  void add(runner::Verdict v) {
    ++total;
    if (v == runner::Verdict::killed) ++killed;
    if (v == runner::Verdict::crashed) ++killed, ++crashed;
    if (v == runner::Verdict::survived) ++survived;
    if (v == runner::Verdict::not_reached) ++not_reached;
    if (v == runner::Verdict::equivalent) ++equivalent;
  }
  int scored() const { return total - equivalent - not_reached; }
  std::string score() const {
    return scored() == 0 ? std::string("-") : fmt::format("{:.1f}%", 100.0 * killed / scored());
  }
  nlohmann::json json() const {
    return {{"total", total},           {"killed", killed},       {"killed_by_crash", crashed},
            {"survived", survived},     {"not_reached", not_reached}, {"equivalent", equivalent},
            {"score", scored() == 0 ? 0.0 : static_cast<double>(killed) / scored()}};
  }
};

std::string row(const std::string& name, const Counts& c) {
  return fmt::format("  {:<34} {:>5} {:>6} {:>5} {:>8} {:>11} {:>10} {:>7}\n", name, c.total, c.killed, c.crashed,
                     c.survived, c.not_reached, c.equivalent, c.score());
}
std::string header() {
  return fmt::format("  {:<34} {:>5} {:>6} {:>5} {:>8} {:>11} {:>10} {:>7}\n", "", "total", "killed", "crash",
                     "survived", "not reached", "equivalent", "score");
}

std::string verdict_detail(const runner::MutantOutcome& o) {
  switch (o.verdict) {
    case runner::Verdict::killed:
    case runner::Verdict::crashed:
      return fmt::format("{} (trace {}, {} events)", o.by, o.trace, o.events);
    case runner::Verdict::survived:
      return fmt::format("differs on trace {} after line {}", o.diff_trace, o.diff_line);
    case runner::Verdict::equivalent:
      return fmt::format("no difference on {} traces", o.traces_run);
    case runner::Verdict::not_reached:
      return "its statement never ran";
  }
  return "";
}
std::string detail(const runner::MutantOutcome& o) {
  const bool alive = o.verdict != runner::Verdict::killed && o.verdict != runner::Verdict::crashed;
  if (!o.budget_reached || !alive) return verdict_detail(o);
  return verdict_detail(o) + fmt::format(" (stopped at the time budget after {} traces)", o.traces_run);
}

int run(const MutateFlags& f) {
  kernel_src::mutate::Selection selection;
  for (const std::string& fn : split(f.functions)) selection.functions.insert(fn);
  for (const std::string& op : split(f.operators)) {
    kernel_src::mutate::Operator o{};
    if (!kernel_src::mutate::operator_named(op, o)) {
      std::cerr << fmt::format("mutate: --operators {}: no operator `{}` (ROR, AOR, CRP, COND, SDL, MMS, SHR)\n",
                               f.operators, op);
      return 2;
    }
    selection.operators.insert(o);
  }
  std::string dir = f.tree;
#ifdef EEVDF_DEFAULT_TREE_DIR
  if (dir.empty()) dir = EEVDF_DEFAULT_TREE_DIR;
#endif
  if (dir.empty()) {
    std::cerr << "mutate: --kernel-tree is required (this build has no unpacked default tree)\n";
    return 2;
  }
  static kernel_src::MutantTree tree;  // its library and list outlive every machine
  try {
    tree = kernel_src::load_mutant_tree(dir, selection);
  } catch (const kernel_src::TreeError& e) {
    std::cerr << e.where << ": " << e.message << "\n";
    return 2;
  }
  std::set<std::string> with_mutants;
  for (const auto& m : tree.mutants) with_mutants.insert(m.mutant.function);
  for (const std::string& fn : selection.functions)
    if (with_mutants.count(fn) == 0) {
      std::cerr << fmt::format("mutate: --functions: `{}` has no mutants (not a function of {} that kernel-src "
                               "extracts, or no site of the selected operators)\n",
                               fn, kernel_src::mutate::kMutatedFile);
      return 2;
    }
  const replay::KernelTreeChoice choice = replay::select_built_tree(tree.tree);
  const auto alone = replay::tree_judged_alone();
  if (!alone || alone->forms.empty()) {
    std::cerr << "mutate: " << (alone ? alone->no_forms : std::string("no forms for this tree")) << "\n";
    return 2;
  }

  runner::MutationOptions o;
  o.run.seed = f.seed;
  o.run.traces_max = f.traces;
  o.run.seconds_max = 0;
  o.run.jobs = 1;
  o.run.kernel_src = true;
  o.run.generator = runner::kernel_src_generator_options(runner::default_generator_options());
  o.run.generator.oracle = runner::kernel_src_oracle();
  o.run.generator.profile = alone->forms;
  o.run.kernel_tree_alone = true;
  o.run.tree = alone->traits;
  if (const std::string why = runner::validate(o.run); !why.empty()) {
    std::cerr << "mutate: " << why << "\n";
    return 2;
  }
  o.diff.seed = f.seed;
  o.diff.traces = f.traces;
  o.diff.profile = replay::profile_for_release(tree.tree.version);
  o.jobs = f.jobs;
  o.timeout_s = f.timeout_s;
  o.shrink_seconds = f.shrink_seconds;
  if (!f.budget.empty()) {
    o.budget_s = parse_seconds(f.budget);
    if (o.budget_s <= 0) {
      std::cerr << fmt::format("mutate: --budget {}: expected a duration above 0 such as 10s, 2m or 500ms\n",
                               f.budget);
      return 2;
    }
  }

  std::cerr << fmt::format("mutate: Linux {} from {} ({} build {}): {} mutants, {} stillborn\n", tree.tree.version,
                           dir, tree.tree.from_cache ? "cached" : "new", tree.tree.hash, tree.mutants.size(),
                           tree.stillborn.size());
  const runner::Baseline baseline = runner::run_baseline(o.run);
  std::size_t finished = 0;
  const std::vector<runner::MutantOutcome> outcomes =
      runner::analyse_mutants(tree, o, baseline, [&](std::size_t, const runner::MutantOutcome&) {
        std::cerr << fmt::format("\r{}/{} mutants   ", ++finished, tree.mutants.size()) << std::flush;
      });
  std::cerr << "\n";

  Counts all;
  std::map<std::string, Counts> by_function, by_operator;
  std::vector<double> kill_ms;
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const auto& m = tree.mutants[k].mutant;
    all.add(outcomes[k].verdict);
    by_function[m.function].add(outcomes[k].verdict);
    by_operator[kernel_src::mutate::name(m.op)].add(outcomes[k].verdict);
    if (outcomes[k].verdict == runner::Verdict::killed || outcomes[k].verdict == runner::Verdict::crashed)
      kill_ms.push_back(outcomes[k].ms);
  }
  std::sort(kill_ms.begin(), kill_ms.end());
  const auto budget_reached =
      std::count_if(outcomes.begin(), outcomes.end(), [](const auto& r) { return r.budget_reached; });
  const double median = kill_ms.empty() ? 0 : kill_ms[kill_ms.size() / 2];
  const double worst = kill_ms.empty() ? 0 : kill_ms.back();

  if (f.json) {
    nlohmann::json j;
    j["tree"] = dir;
    j["version"] = tree.tree.version;
    j["seed"] = f.seed;
    j["traces"] = f.traces;
    j["properties_fingerprint"] = EEVDF_PROPERTIES_FINGERPRINT;
    j["budget_seconds"] = o.budget_s;
    j["budget_reached"] = budget_reached;
    j["baseline_violations"] = baseline.properties;
    j["stillborn"] = tree.stillborn;
    j["total"] = all.json();
    for (const auto& [name, c] : by_function) j["functions"][name] = c.json();
    for (const auto& [name, c] : by_operator) j["operators"][name] = c.json();
    j["mutants"] = nlohmann::json::array();
    for (std::size_t k = 0; k < outcomes.size(); ++k) {
      const auto& b = tree.mutants[k];
      const auto& r = outcomes[k];
      nlohmann::json x = {{"id", b.id},
                          {"function", b.mutant.function},
                          {"operator", kernel_src::mutate::name(b.mutant.op)},
                          {"diff", b.diff},
                          {"verdict", runner::verdict_name(r.verdict)},
                          {"by", r.by},
                          {"trace", r.trace},
                          {"traces_run", r.traces_run},
                          {"events", r.events},
                          {"reached", r.reached},
                          {"budget_reached", r.budget_reached},
                          {"ms", r.ms}};  // the one field that differs between two runs
      if (r.verdict == runner::Verdict::survived)
        x["difference"] = {{"trace", r.diff_trace}, {"line", r.diff_line}, {"difference", r.difference},
                           {"shrunk", r.shrunk}};
      j["mutants"].push_back(x);
    }
    // Timings apart: they alone differ between two runs.
    j["timing"] = {{"kill_ms_median", median}, {"kill_ms_worst", worst}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }

  std::cout << fmt::format("mutate: Linux {} ({}), seed {}, {} traces per mutant: {} mutants\n", tree.tree.version,
                           dir, f.seed, f.traces, all.total);
  std::cout << fmt::format("judged by the properties of fingerprint {} (docs/MUTATION.md)\n",
                           EEVDF_PROPERTIES_FINGERPRINT);
  if (o.budget_s > 0)
    std::cout << fmt::format("time budget {} s per mutant: {} of {} stopped there (their verdicts depend on the "
                             "machine's speed)\n",
                             o.budget_s, budget_reached, all.total);
  if (!tree.stillborn.empty())
    std::cout << fmt::format("stillborn (they do not compile, left out): {}\n", fmt::join(tree.stillborn, ", "));
  std::cout << fmt::format("the unmutated code violates: {} (these kill no mutant)\n",
                           baseline.properties.empty() ? std::string("nothing")
                                                       : fmt::format("{}", fmt::join(baseline.properties, ", ")));
  std::cout << "\nper function:\n" << header();
  for (const auto& [name, c] : by_function) std::cout << row(name, c);
  std::cout << "\nper operator:\n" << header();
  for (const auto& [name, c] : by_operator) std::cout << row(name, c);
  std::cout << "\n" << header() << row("all", all);
  std::cout << fmt::format("\nscore: {} killed of {} (total - equivalent - not reached): {}\n", all.killed,
                           all.scored(), all.score());
  std::cout << fmt::format("time to kill: median {:.0f} ms, worst {:.0f} ms\n", median, worst);
  std::cout << "\nmutants:\n";
  for (std::size_t k = 0; k < outcomes.size(); ++k)
    std::cout << fmt::format("  {:<40} {:<22} {}\n", tree.mutants[k].id, runner::verdict_name(outcomes[k].verdict),
                             detail(outcomes[k]));
  std::cout << "\nsurvivors (their state differs from the unmutated code's: the missing properties):\n";
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const runner::MutantOutcome& r = outcomes[k];
    if (r.verdict != runner::Verdict::survived) continue;
    std::cout << fmt::format("- {}: {}\n  first difference: trace {} after line {}: {}\n  shrunk:\n",
                             tree.mutants[k].id, tree.mutants[k].diff, r.diff_trace, r.diff_line, r.difference);
    std::istringstream lines(r.shrunk);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty() && line[0] != '#') std::cout << "    " << line << "\n";
  }
  (void)choice;
  return 0;
}

#else

int run(const MutateFlags&) {
  std::cerr << "mutate: this build has no kernel-src (install linux-source-6.12: bash ci/setup, then rebuild)\n";
  return 2;
}

#endif

}  // namespace

Run add_mutate(CLI::App& app) {
  auto f = std::make_shared<MutateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "mutate", "Mutation analysis of a tree's fair.c: which mutants of the real code the properties kill");
  cmd->add_option("--kernel-tree", f->tree, "The tree (default: the Debian 6.12 tree this program was built from)")
      ->type_name("DIR");
  cmd->add_option("--functions", f->functions, "Only these functions of fair.c (comma-separated)");
  cmd->add_option("--operators", f->operators, "Only these operators: ROR, AOR, CRP, COND, SDL, MMS, SHR");
  cmd->add_option("--traces", f->traces, "Traces per mutant (default 200)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  cmd->add_option("--seed", f->seed, "Campaign seed (default 1)");
  cmd->add_option("--jobs", f->jobs, "Mutants analysed at once (the report does not depend on it)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--timeout", f->timeout_s, "Seconds per mutant before it counts as killed by a hang (default 120)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_option("--shrink-time", f->shrink_seconds, "Seconds to shrink each survivor's differing trace (default 10)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--budget", f->budget,
                  "Time per mutant's campaign on top of --traces, e.g. 10s (the report then depends on the machine)");
  cmd->add_flag("--json", f->json, "Print the report as JSON");
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
