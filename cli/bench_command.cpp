// `eevdf-check bench [--json] [TRACE...]`: events/s of each model on the fixed
// traces (default: bench/traces/*.trace.xz of the source tree, decompressed with
// xz), with the ratios side by side from one run.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "bench/bench.h"
#include "bench/explore_bench.h"
#include "bench/lab_bench.h"
#include "bench/shrink_bench.h"
#include "cli/commands.h"
#include "cli/kernel_tree_option.h"
#include "explore/tree.h"
#include "model/fast/fast_machine.h"
#include "replay/replay.h"
#include "replay/vocabulary.h"

namespace eevdf::cli {
namespace {

struct BenchFlags {
  std::vector<std::string> traces;
  bool json = false;
  int repetitions = 3;
  std::vector<std::string> models;
  std::vector<std::string> skip;
  bool shrinkers = false;
  std::vector<std::uint64_t> sizes{100, 300, 1000, 10000};
  int seeds = 5;
  std::vector<std::string> injections;
  double rc_factor = 10;
  bool show_traces = false;
  std::string kernel_tree;
  bool lab = false;
  bool explore = false;
  int explore_depth = 6;
};

// `bench --explore --kernel-tree DIR`: the tree's explore beside the reference's of
// its profile, in one run.
int run_explore_tree(const BenchFlags& f) {
  const std::string profile = explore::selected_tree_profile();
  const bench::ExploreMeasurement ref = bench::explore_bench(f.explore_depth, f.repetitions, profile);
  const bench::ExploreMeasurement tree = bench::explore_bench(f.explore_depth, f.repetitions, profile, true);
  const auto row = [](const bench::ExploreMeasurement& m) {
    return nlohmann::ordered_json{{"distinct_states", m.distinct},
                                  {"transitions", m.transitions},
                                  {"cpu_s", m.cpu_s},
                                  {"states_per_cpu_s", m.states_per_cpu_s()}};
  };
  const double ratio = tree.states_per_cpu_s() > 0 ? ref.states_per_cpu_s() / tree.states_per_cpu_s() : 0;
  if (f.json) {
    std::cout << nlohmann::ordered_json{{"depth", f.explore_depth},
                                        {"profile", profile},
                                        {"tree", explore::selected_tree_name()},
                                        {"reference", row(ref)},
                                        {"kernel_tree", row(tree)},
                                        {"reference_over_tree", ratio}}
                     .dump(2)
              << "\n";
    return 0;
  }
  for (const auto& [name, m] : {std::pair{"reference " + profile, ref}, std::pair{explore::selected_tree_name(), tree}})
    std::cout << fmt::format("explore --cpus 2 --tasks 3 --depth {} on {}: {} distinct states, {} transitions, {:.2f} s "
                             "of CPU (best of {}): {:.0f} distinct states per CPU s\n",
                             m.depth, name, m.distinct, m.transitions, m.cpu_s, f.repetitions, m.states_per_cpu_s());
  std::cout << fmt::format("the reference explores {:.1f}x as many states per CPU s as the tree\n", ratio);
  return 0;
}

// `bench --explore`: distinct states per CPU second of explore (2 CPUs, 3 tasks).
int run_explore(const BenchFlags& f) {
  if (!f.kernel_tree.empty()) return run_explore_tree(f);
  const bench::ExploreMeasurement m = bench::explore_bench(f.explore_depth, f.repetitions);
  if (f.json) {
    std::cout << nlohmann::ordered_json{{"depth", m.depth},
                                        {"distinct_states", m.distinct},
                                        {"transitions", m.transitions},
                                        {"cpu_s", m.cpu_s},
                                        {"states_per_cpu_s", m.states_per_cpu_s()},
                                        {"transitions_per_cpu_s", m.transitions_per_cpu_s()}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << fmt::format(
      "explore --cpus 2 --tasks 3 --depth {}: {} distinct states, {} transitions, {:.2f} s of CPU (best of {}): "
      "{:.0f} distinct states and {:.0f} transitions per CPU s\n",
      m.depth, m.distinct, m.transitions, m.cpu_s, f.repetitions, m.states_per_cpu_s(), m.transitions_per_cpu_s());
  return 0;
}

// `bench --lab`: the built-in buddy pair, 10 s simulated, with every property checked.
int run_lab(const BenchFlags& f) {
  const bench::LabMeasurement m = bench::lab_bench("buddy_pair", 10'000'000'000ull, f.repetitions);
  if (f.json) {
    std::cout << nlohmann::ordered_json{{"workload", m.workload},
                                        {"simulated_s", m.simulated_s},
                                        {"cpu_s", m.cpu_s},
                                        {"events", m.events},
                                        {"simulated_per_cpu_s", m.simulated_per_cpu_s()}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << fmt::format("lab {}: {:.1f} s simulated, {} events, {:.2f} s of CPU (best of {}): {:.2f} simulated s per CPU s\n",
                           m.workload, m.simulated_s, m.events, m.cpu_s, f.repetitions, m.simulated_per_cpu_s());
  return 0;
}

// The text of a trace file; `.xz` files go through `xz -dc`.
bool read_trace(const std::string& path, std::string& text) {
  if (path.ends_with(".xz")) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(("xz -dc '" + path + "'").c_str(), "r"), pclose);
    if (!pipe) return false;
    char buffer[1 << 16];
    std::size_t n = 0;
    while ((n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0) text.append(buffer, n);
    return !text.empty();
  }
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return static_cast<bool>(in);
}

std::vector<std::string> default_traces() {
  std::vector<std::string> out;
  const std::filesystem::path dir = std::filesystem::path(EEVDF_SOURCE_DIR) / "bench" / "traces";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

double rate(const bench::TraceResult& r, const std::string& model) {
  for (const auto& m : r.models)
    if (m.model == model) return m.events_per_s();
  return 0;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

// A table cell: "-" for what this run did not measure (`--model`) or cannot divide.
std::string cell(double v, int decimals) { return v > 0 ? fmt::format("{:.{}f}", v, decimals) : "-"; }

// Four tables from one run: the fast model against the references, the checker's
// cost and the ideal prefix, ideal_tracks_kernel's lockstep (6.18 traces), then
// `kernel 6.12` traces: the reference's 6.12 profile beside kernel-src (the real fair.c).
void print_table(const std::vector<bench::TraceResult>& results) {
  const auto is_6_12 = [](const bench::TraceResult& r) { return rate(r, "kernel-6.12") > 0; };
  std::cout << fmt::format("{:<12} {:>7} {:>11} {:>12} {:>12} {:>10} {:>10} {:>11}\n", "trace", "events",
                           "kernel ev/s", "fast-scalar", "fast-simd", "simd/scal", "fast/kern", "fast/ideal");
  for (const auto& r : results) {
    if (is_6_12(r)) continue;
    const double k = rate(r, "kernel"), fs = rate(r, "fast-scalar"), fv = rate(r, "fast-simd");
    const double best = std::max(fs, fv);
    std::cout << fmt::format("{:<12} {:>7} {:>11} {:>12} {:>12} {:>10} {:>10} {:>11}\n", r.name, r.events,
                             cell(k, 0), cell(fs, 0), cell(fv, 0), cell(ratio(fv, fs), 2), cell(ratio(best, k), 1),
                             cell(ratio(best, rate(r, "ideal")), 0));
  }
  std::cout << "\n"
            << fmt::format("{:<12} {:>13} {:>9} | {:>7} {:>11} {:>12} {:>8}\n", "trace", "+checks ev/s", "checks x",
                           "prefix", "ideal ev/s", "kernel ev/s", "k/ideal");
  for (const auto& r : results) {
    if (is_6_12(r)) continue;
    const double k = rate(r, "kernel"), c = rate(r, "kernel+checks"), i = rate(r, "ideal"), kp = rate(r, "kernel-prefix");
    std::uint64_t prefix = 0;
    for (const auto& m : r.models)
      if (m.model == "ideal") prefix = m.events;
    std::cout << fmt::format("{:<12} {:>13} {:>9} | {:>7} {:>11} {:>12} {:>8}\n", r.name, cell(c, 0),
                             cell(ratio(k, c), 2), prefix, cell(i, 0), cell(kp, 0), cell(ratio(kp, i), 1));
  }
  std::cout << "\n"
            << fmt::format("{:<12} {:>8} {:>14} {:>11} {:>13} {:>9} {:>8}\n", "trace", "lockstep", "lockstep ev/s",
                           "ideal ev/s", "ideal/lockst", "explained", "tainted");
  for (const auto& r : results) {
    if (is_6_12(r) || rate(r, "ideal-lockstep") == 0) continue;
    std::uint64_t events = 0;
    for (const auto& m : r.models)
      if (m.model == "ideal-lockstep") events = m.events;
    const double l = rate(r, "ideal-lockstep");
    std::cout << fmt::format("{:<12} {:>8} {:>14.0f} {:>11.0f} {:>13.2f} {:>9} {:>8}\n", r.name, events, l,
                             rate(r, "ideal"), ratio(rate(r, "ideal"), l), r.lockstep_explained,
                             r.lockstep_tainted_cpus);
  }
  if (replay::have_kernel_src()) std::cout << fmt::format("\nkernel-src: {}", replay::kernel_src_version());
  std::cout << fmt::format("\n{:<14} {:>8} {:>15} {:>15} {:>9} {:>13} {:>9} {:>14} {:>12}\n", "kernel 6.12", "events",
                           "6.12 ref ev/s", "kernel-src ev/s", "ref/src", "+checks ev/s", "checks x",
                           "src+chk ev/s", "src chk x");
  for (const auto& r : results) {
    if (!is_6_12(r)) continue;
    const double ref = rate(r, "kernel-6.12"), src = rate(r, "kernel-src"), c = rate(r, "kernel-6.12+checks");
    const double sc = rate(r, "kernel-src+checks");  // the properties judged on the real code
    std::cout << fmt::format("{:<14} {:>8} {:>15.0f} {:>15} {:>9} {:>13.0f} {:>9.2f} {:>14} {:>12}\n", r.name, r.events,
                             ref, src > 0 ? fmt::format("{:.0f}", src) : "not built",
                             src > 0 ? fmt::format("{:.2f}", ref / src) : "-", c, ratio(ref, c), cell(sc, 0),
                             cell(ratio(src, sc), 2));
  }
}

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string joined(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto x : v) out += (out.empty() ? "" : " ") + std::to_string(x);
  return out;
}

// One row per (injection, size): medians of the cases, then the size distributions.
void print_shrink_table(const std::vector<bench::ShrinkCase>& cases) {
  std::cout << "| injection | events | failure at (median) | ours s (median) | ours events (median) | CPUs max | tasks max "
               "| RC s (median) | RC events (median) | RC finished | sizes ours | sizes RC |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (std::size_t i = 0; i < cases.size();) {
    std::size_t j = i;
    std::vector<double> ours_s, rc_s;
    std::vector<std::uint64_t> at, ours_n, rc_n;
    std::uint64_t cpus = 0, tasks = 0, finished = 0;
    for (; j < cases.size() && cases[j].injection == cases[i].injection && cases[j].size == cases[i].size; ++j) {
      const bench::ShrinkCase& c = cases[j];
      ours_s.push_back(c.ours_seconds);
      rc_s.push_back(c.rc_seconds);
      at.push_back(c.failure_at);
      ours_n.push_back(c.ours_events);
      rc_n.push_back(c.rc_events);
      cpus = std::max(cpus, c.ours_cpus);
      tasks = std::max(tasks, c.ours_tasks);
      finished += c.rc_finished ? 1u : 0u;
    }
    std::cout << fmt::format("| {} | {} | {} | {:.3f} | {} | {} | {} | {:.3f} | {} | {}/{} | {} | {} |\n",
                             cases[i].injection, cases[i].size, median(at), median(ours_s), median(ours_n), cpus,
                             tasks, median(rc_s), median(rc_n), finished, j - i, joined(ours_n), joined(rc_n));
    i = j;
  }
}

// Per size over every injection: the acceptance's medians, and RapidCheck's size
// where it finished within its budget against ours on the same traces.
void print_shrink_summary(const std::vector<bench::ShrinkCase>& cases, const std::vector<std::uint64_t>& sizes) {
  std::cout << "\n| events | cases | ours s (median) | ours s (max) | ours events (median) | RC finished | "
               "ours events (median, those) | RC events (median, those) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const std::uint64_t size : sizes) {
    std::vector<double> s;
    std::vector<std::uint64_t> n, ours_f, rc_f;
    for (const bench::ShrinkCase& c : cases) {
      if (c.size != size) continue;
      s.push_back(c.ours_seconds);
      n.push_back(c.ours_events);
      if (c.rc_finished) {
        ours_f.push_back(c.ours_events);
        rc_f.push_back(c.rc_events);
      }
    }
    if (s.empty()) continue;
    std::cout << fmt::format("| {} | {} | {:.3f} | {:.3f} | {} | {} | {} | {} |\n", size, s.size(), median(s),
                             *std::max_element(s.begin(), s.end()), median(n), rc_f.size(),
                             ours_f.empty() ? "-" : std::to_string(median(ours_f)),
                             rc_f.empty() ? "-" : std::to_string(median(rc_f)));
  }
}

int run_shrinkers(const BenchFlags& f) {
  bench::ShrinkBenchOptions o;
  o.sizes = f.sizes;
  o.seeds = f.seeds;
  o.injections = f.injections;
  o.rc_budget_factor = f.rc_factor;
  const std::vector<bench::ShrinkCase> cases = bench::run_shrink_bench(o, [&](const bench::ShrinkCase& c) {
    std::cerr << fmt::format("{} {} #{} {}: ours {} ev {:.3f} s ({}) | RC {} ev {:.3f} s{}\n", c.injection, c.size,
                             c.trace_index, c.property, c.ours_events, c.ours_seconds, c.ours_stopped, c.rc_events,
                             c.rc_seconds, c.rc_finished ? "" : " (budget)");
    if (f.show_traces) std::cerr << "ours:\n" << c.ours_text << (c.rc_finished ? "RapidCheck:\n" + c.rc_text : "");
  });
  if (f.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const bench::ShrinkCase& c : cases)
      out.push_back({{"injection", c.injection}, {"events", c.size}, {"trace_index", c.trace_index},
                     {"property", c.property}, {"failure_at", c.failure_at},
                     {"ours", {{"events", c.ours_events}, {"tasks", c.ours_tasks}, {"cpus", c.ours_cpus},
                               {"seconds", c.ours_seconds}, {"candidates", c.ours_candidates}, {"stopped", c.ours_stopped}}},
                     {"rapidcheck", {{"events", c.rc_events}, {"seconds", c.rc_seconds}, {"candidates", c.rc_candidates},
                                     {"finished", c.rc_finished}}}});
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  print_shrink_table(cases);
  print_shrink_summary(cases, f.sizes);
  return 0;
}

int run(const BenchFlags& f) {
  if (f.shrinkers) return run_shrinkers(f);
  if (f.lab) return run_lab(f);
  if (f.explore) return run_explore(f);
  const std::vector<std::string> traces = f.traces.empty() ? default_traces() : f.traces;
  std::vector<bench::TraceResult> results;
  for (const std::string& path : traces) {
    std::string text;
    if (!read_trace(path, text)) {
      std::cerr << fmt::format("{}: cannot read\n", path);
      return 2;
    }
    const std::string name = std::filesystem::path(path).filename().string();
    try {
      results.push_back(
          bench::run_trace(name.substr(0, name.find(".trace")), text, {f.repetitions, 10000, f.models, f.skip}));
    } catch (const bench::InvalidOnKernelSrc& e) {
      std::cerr << fmt::format("{}:{} (a trace for this tree: eevdf-check gen --kernel-tree DIR --profile 6.12)\n",
                               path, e.what());
      return 2;
    }
  }
  if (!f.json) {
    print_table(results);
    if (!model::fast::simd_runs_here())
      std::cout << fmt::format("\nfast-simd: not measured, this CPU cannot run the SIMD build ({})\n",
                               model::fast::simd_isa());
    return 0;
  }
  nlohmann::ordered_json out;
  for (const auto& r : results) {
    nlohmann::ordered_json per_model;
    for (const auto& m : r.models) per_model[m.model] = m.events_per_s();
    out[r.name] = {{"events", r.events}, {"parse_s", r.parse_seconds}, {"events_per_s", per_model}};
  }
  std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

Run add_bench(CLI::App& app) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App* cmd = app.add_subcommand("bench", "Events/s of each model on the fixed benchmark traces");
  cmd->add_option("traces", f->traces, "Trace files (.trace or .trace.xz; default: bench/traces/)");
  cmd->add_flag("--explore", f->explore,
                "The explorer's speed: distinct states per CPU s on 2 CPUs, 3 tasks (one worker); with --kernel-tree, "
                "the tree's beside the reference's");
  cmd->add_option("--explore-depth", f->explore_depth, "With --explore: the depth bound")->capture_default_str();
  cmd->add_flag("--lab", f->lab, "The lab's speed: the built-in buddy_pair, 10 s simulated, checked (CPU s per simulated s)");
  cmd->add_flag("--json", f->json, "Print a JSON object with events_per_s per model and trace");
  cmd->add_option("--repetitions", f->repetitions, "Runs per measurement; the best counts")->check(CLI::Range(1, 100));
  cmd->add_option("--model", f->models, "Measure only this model (repeatable; for profiling)")
      ->check(CLI::IsMember({"kernel", "fast-scalar", "fast-simd", "kernel+checks", "ideal", "kernel-6.12",
                             "kernel-6.12+checks", "kernel-src", "kernel-src+checks"}))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1)
      ->allow_extra_args(false)  // one name per flag: a trace file after it stays a trace
      ->group("");
  cmd->add_option("--skip", f->skip,
                  "kernel+checks without these properties (comma-separated): the cost of one property")
      ->delimiter(',')
      ->allow_extra_args(false)  // one comma-separated list: a trace file after it stays a trace
      ->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_flag("--shrinkers", f->shrinkers,
                "Shrink generated failing traces with shrinkers/ and with RapidCheck's list shrinking (10x budget)");
  cmd->add_option("--sizes", f->sizes, "--shrinkers: trace sizes in events (default 100,300,1000,10000)")
      ->delimiter(',')
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000}));
  cmd->add_option("--seeds", f->seeds, "--shrinkers: failing traces per injection and size (default 5)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--inject", f->injections, "--shrinkers: only these injections (default: every implemented one)")
      ->check(CLI::IsMember(replay::vocabulary().injections))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1)
      ->allow_extra_args(false);
  cmd->add_flag("--show-traces", f->show_traces, "--shrinkers: print each shrunk trace (stderr)");
  add_kernel_tree_option(cmd, f->kernel_tree);
  cmd->add_option("--rc-factor", f->rc_factor, "--shrinkers: RapidCheck's budget as a multiple of ours (default 10)")
      ->check(CLI::Range(0.0, 1e6));
  return [f] {
    if (const int rc = select_kernel_tree(f->kernel_tree); rc != 0) return rc;
    // A tree's traces need not be legal on the references: only its kernel-src runs.
    if (!f->kernel_tree.empty() && f->models.empty()) f->models = {"kernel-src", "kernel-src+checks"};
    return run(*f);
  };
}

}  // namespace eevdf::cli
