// `eevdf-check run`: flags, the progress line, printing, the saved files and the exit
// code; the campaign itself is eevdf::runner (runner/campaign.h).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/commands.h"
#include "cli/kernel_tree_option.h"
#include "replay/kernel_tree.h"
#include "runner/kernel_src_oracle.h"
#include "cli/corpus_suite.h"
#include "cli/seconds.h"
#include "replay/vocabulary.h"
#include "model/features.h"
#include "model/injections.h"
#include "properties/catalogue.h"
#include "properties/kernel_src_judged.h"
#include "runner/campaign.h"
#include "replay/replay.h"
#include "properties/measure_units.h"
#include "properties/registry.h"
#include "replay/runqueue_dump.h"
#include "runner/failure_runqueue.h"
#include "runner/ideal_only.h"
#include "runner/judged.h"
#include "runner/kernel_src_diff.h"
#include "runner/measures.h"
#include "runner/saved_trace.h"

namespace eevdf::cli {
namespace {

struct RunFlags {
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> traces;
  std::optional<std::string> time;
  int jobs = 1;
  std::string shard = "0/1";
  std::string topology = "2x64";
  std::vector<std::string> features;
  std::vector<std::string> injections;
  std::vector<std::string> check;
  std::vector<std::string> skip;
  bool unphysical = false;
  bool json = false;
  bool strict = false;
  std::string corpus_dir = "corpus/new";
  std::string corpus_root = "corpus";
  bool no_corpus = false;
  double shrink_seconds = runner::kShrinkSecondsMax;
  std::uint64_t diff_every = 0;
  std::uint64_t ideal_every = 0;
  std::uint64_t steady_every = runner::kSteadyEveryDefault;
  std::string model = "reference";
  std::string kernel_tree;
};

// Flags to runner options; "" or why they are wrong (exit 2).
std::string to_options(const RunFlags& f, runner::Options& o) {
  o.seed = *f.seed;
  // Issue 5: 2000 traces or 60 s; either flag alone switches the other budget off.
  o.traces_max = f.traces ? *f.traces : f.time ? 0 : 2000;
  o.seconds_max = f.time ? parse_seconds(*f.time) : f.traces ? 0 : 60;
  if (o.seconds_max < 0) return fmt::format("--time {}: expected a duration such as 60s, 2m or 500ms", *f.time);
  o.jobs = f.jobs;
  o.diff_every = f.diff_every;
  o.ideal_every = f.ideal_every;
  o.steady_every = f.steady_every;
  // `--check ideal_tracks_kernel` alone names a check that is not per event: every trace.
  if (o.ideal_every == 0 && std::find(f.check.begin(), f.check.end(), "ideal_tracks_kernel") != f.check.end())
    o.ideal_every = 1;
  if (std::sscanf(f.shard.c_str(), "%lu/%lu", &o.shard_index, &o.shard_count) != 2)
    return fmt::format("--shard {}: expected i/N", f.shard);
  o.generator = runner::default_generator_options();
  int sockets = 0, cores = 0;
  if (std::sscanf(f.topology.c_str(), "%dx%d", &sockets, &cores) != 2 || sockets < 1 || cores < 1)
    return fmt::format("--topology {}: expected SOCKETSxCORES such as 2x64", f.topology);
  o.generator.topology.sockets = sockets;
  o.generator.topology.cores_per_socket = cores;
  for (const std::string& w : f.features) {
    const bool off = w.rfind("NO_", 0) == 0;
    o.generator.features.emplace_back(off ? w.substr(3) : w, !off);
  }
  o.generator.injections = f.injections;
  o.generator.unphysical = f.unphysical;
  o.selection.check = f.check;
  o.selection.skip = f.skip;
  o.strict = f.strict;
  if (f.model == "kernel-src") {
    o.kernel_src = true;
    o.generator = runner::kernel_src_generator_options(o.generator);
    if (const auto tree = replay::tree_judged_alone()) {  // traces valid on the tree, under its forms
      if (tree->forms.empty()) return tree->no_forms;
      o.generator.oracle = runner::kernel_src_oracle();
      o.generator.profile = tree->forms;
      o.kernel_tree_alone = true;
      o.tree = tree->traits;
    }
  }
  return runner::validate(o);
}

std::string command_line(const RunFlags& f, const runner::Options& o) {
  std::string c = fmt::format("eevdf-check run --seed {}", o.seed);
  if (f.traces) c += fmt::format(" --traces {}", *f.traces);
  if (f.time) c += fmt::format(" --time {}", *f.time);
  if (o.shard_count != 1) c += " --shard " + f.shard;
  if (f.topology != "2x64") c += " --topology " + f.topology;
  for (const auto& x : f.features) c += " --features " + x;
  for (const auto& x : f.injections) c += " --inject " + x;
  if (f.unphysical) c += " --unphysical";
  if (f.strict) c += " --strict";
  if (!f.check.empty()) c += " --check " + fmt::format("{}", fmt::join(f.check, ","));
  if (!f.skip.empty()) c += " --skip " + fmt::format("{}", fmt::join(f.skip, ","));
  if (f.diff_every != 0) c += fmt::format(" --diff-every {}", f.diff_every);
  if (f.ideal_every != 0) c += fmt::format(" --ideal-every {}", f.ideal_every);
  if (f.steady_every != runner::kSteadyEveryDefault) c += fmt::format(" --steady-every {}", f.steady_every);
  if (!f.kernel_tree.empty()) c += " --kernel-tree " + f.kernel_tree;
  else if (f.model != "reference") c += " --model " + f.model;
  return c;
}

void print_progress(const runner::Progress& p, const runner::Options& o) {
  const double rate = p.elapsed_s > 0 ? static_cast<double>(p.events) / p.elapsed_s : 0;
  std::string left;
  if (o.seconds_max > 0) left = fmt::format(", {:.0f} s left", std::max(0.0, o.seconds_max - p.elapsed_s));
  std::cerr << fmt::format("\r{} traces{}, {:.0f} events/s, {} violations{}   ", p.traces,
                           o.traces_max != 0 ? fmt::format("/{}", o.traces_max) : "", rate, p.violations, left)
            << std::flush;
}

std::string budget_text(const runner::Options& o) {
  if (o.traces_max != 0 && o.seconds_max > 0) return fmt::format("{} traces or {} s", o.traces_max, o.seconds_max);
  if (o.traces_max != 0) return fmt::format("{} traces", o.traces_max);
  return fmt::format("{} s", o.seconds_max);
}

// The seed and every derived setting, first (one seed reproduces everything).
void print_settings(const RunFlags& f, const runner::Options& o) {
  std::cout << fmt::format("seed {}{}\n", o.seed, f.seed ? "" : " (drawn; pass --seed to repeat)");
  std::string features = "random per trace";
  for (const auto& w : f.features) features += ", forced " + w;
  std::string inject;
  for (const auto& i : f.injections) inject += (inject.empty() ? "" : ", ") + i;
  std::cout << fmt::format(
      "settings: topology {}, {} {}, budget {}, jobs {}, shard {}/{}, features {}, {} tasks {}..{} "
      "on up to {} busy CPUs, {}..{} events, steady 1 trace in {}, kernel arithmetic\n",
      f.topology,
      o.kernel_tree_alone ? fmt::format("profile {} on kernel-src {}", o.generator.profile, replay::kernel_src_version())
      : o.kernel_src      ? fmt::format("profile 6.12 against kernel-src {}", replay::kernel_src_version())
                          : "profile 6.18",
      inject.empty() ? "(faithful)" : "with injections " + inject, budget_text(o), o.jobs,
      o.shard_index, o.shard_count, features, f.unphysical ? "UNPHYSICAL (long tick-less gaps)," : "physical,",
      o.generator.tasks_min, o.generator.tasks_max, o.generator.busy_cpus_max, o.generator.events_min,
      o.generator.events_max, o.generator.steady.denominator);
  if (o.kernel_tree_alone)
    std::cout << "model: the tree is judged by the properties alone, on its runqueues read through the observation "
                 "interface and its calls through the harness's wrappers (no reference in lockstep; what its mirror "
                 "does not see is listed as not judged)\n";
  else if (o.kernel_src)
    std::cout << "model: the properties judged on kernel-src judge the real code (its runqueues read through the "
                 "observation interface, its calls through the harness's wrappers); the others run on the 6.12 "
                 "reference in lockstep, valid while kernel_matches_reference holds\n";
  if (o.diff_every != 0)
    std::cout << fmt::format(
        "model: properties checked on the kernel-arithmetic reference (the fast model has no observer hooks); the "
        "fast model cross-checked against it on every trace k with k % {} == 0\n",
        o.diff_every);
  if (o.ideal_every != 0)
    std::cout << fmt::format(
        "ideal_tracks_kernel: every trace k with k % {} == 0 also runs in the kernel and the ideal arithmetic in "
        "lockstep (replay --diff=ideal)\n",
        o.ideal_every);
  if (const auto ideal = runner::ideal_only_properties(o.selection); !o.kernel_src && o.steady_every != 0 && !ideal.empty())
    std::cout << fmt::format(
        "{}: every steady trace k with k % {} == 0 also replays in the ideal arithmetic (exact there only)\n",
        fmt::join(ideal, ", "), o.steady_every);
}

std::uint64_t count_of(const std::map<std::string, std::uint64_t>& m, const std::string& key) {
  const auto it = m.find(key);
  return it != m.end() ? it->second : 0;
}

// A property judged pass/fail somewhere (a pure measure has no violations to count).
bool pass_fail(const std::string& p) {
  const properties::PropertyInfo* info = properties::find_property(p);
  return info == nullptr || info->kind != properties::Kind::measure;
}

void print_measures(const runner::Tally& t) {
  if (t.measures.empty()) return;
  std::cout << "\nmeasures (each trace's final value; never a violation)\n";
  std::cout << fmt::format("{:<26} {:>7} {:>14} {:>14} {:>14}  {}\n", "measure", "traces", "p50", "p99", "worst",
                           "worst in trace (seed)");
  for (const auto& [name, samples] : t.measures) {
    const runner::MeasureSummary m = runner::summarize(samples);
    std::cout << fmt::format("{:<26} {:>7} {:>14.6g} {:>14.6g} {:>14.6g}  {} ({})\n", name, m.traces, m.p50, m.p99,
                             m.worst.value, m.worst.index, m.worst.seed);
    std::cout << fmt::format("  {}; worst exactly {}\n", properties::measure_unit(name), m.worst.exact);
  }
}

void print_not_judged(const runner::Options& o) {
  std::cout << "\nnot judged by this run (and what judges it)\n";
  for (const runner::Unjudged& u : runner::not_judged(o)) std::cout << fmt::format("  {:<26} {}\n", u.property, u.how);
}

void print_table(const runner::Result& r, bool kernel_src, bool tree_alone) {
  const runner::Tally& t = r.tally;
  // A kernel-src run names where each property judges: the real code (its mirror) or
  // the 6.12 reference in lockstep (properties/kernel_src_judged.h).
  const auto judged_on = [&](const std::string& p) -> std::string_view {
    if (!kernel_src) return "";
    if (p == "kernel_matches_reference") return "  both";
    if (tree_alone) return "  kernel-src";
    return properties::judged_on_kernel_src(p) ? "  kernel-src" : "  6.12 reference";
  };
  std::cout << fmt::format("\n{:<26} {:>12} {:>11} {:>8}{}\n", "property", "evaluated*", "violations", "traces",
                           kernel_src ? "  judged on" : "");
  for (const std::string& p : r.properties) {
    if (!pass_fail(p)) continue;
    std::cout << fmt::format("{:<26} {:>12} {:>11} {:>8}{}\n", p, count_of(t.evaluated, p), count_of(t.violations, p),
                             count_of(t.violating_traces, p), judged_on(p));
  }
  std::cout << fmt::format(
      "* events at which the property judged its statement, out of {} events{}: a property judges only where its "
      "hypothesis holds (at a pick, a placement, 2+ queued, a qualifying stretch; docs/RUN.md)\n",
      t.events,
      t.ideal_only_checked != 0 ? fmt::format(" ({} of them replayed again in the ideal arithmetic, {} traces)",
                                              t.ideal_only_events, t.ideal_only_checked)
                                : "");
  std::cout << fmt::format("consequences (after a no_overflow on the same runqueue): {}\n", t.consequences);
  print_measures(t);
  std::cout << "\nknown findings (properties/findings.h; fail only with --strict)\n";
  if (t.findings.empty()) std::cout << "  none\n";
  for (const auto& [name, n] : t.findings)
    std::cout << fmt::format("  {:<36} {:>8} (first: trace {})\n", name, n, t.first_finding.at(name).index);
  if (kernel_src) {  // the probes observe the default profile's model, which a kernel-src run does not drive
    std::cout << "\ncoverage: not probed in kernel-src runs\n";
    return;
  }
  std::cout << "\ncoverage (kernel paths exercised)\n";
  for (std::size_t i = 0; i < runner::kProbeNames.size(); ++i)
    std::cout << fmt::format("  {:<26} {:>10}{}\n", runner::kProbeNames[i], t.coverage[i],
                             t.coverage[i] == 0 ? "   NOT REACHED" : "");
  std::cout << fmt::format("  {:<26} {:>10}\n", "steady traces", t.steady_traces);
}

struct Saved {
  runner::FirstViolation v;
  std::string path;
  std::uint64_t events_before = 0;
  std::uint64_t events_after = 0;
  std::string stopped_because;
  double shrink_seconds = 0;  // wall time of the shrink (a timing line: not part of the result)
  std::string crash_error;    // a shrink candidate the tool failed on (exit 3), saved at crash_path
  std::string crash_path;
  std::vector<replay::RunqueueDump> runqueues;  // at the first violation of the shrunk trace
};

std::vector<Saved> save_failures(const RunFlags& f, const runner::Options& o, const runner::Result& r) {
  std::vector<Saved> saved;
  for (const runner::FirstViolation& v : runner::failures(r, o.strict)) {
    if (!f.json) std::cerr << fmt::format("shrinking trace {} ({})...\n", v.index, v.property);
    const auto start = std::chrono::steady_clock::now();
    const runner::Shrunk s = runner::shrink_failure(o, v, f.shrink_seconds);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = runner::saved_trace_text(s.trace, v, o.seed, command_line(f, o), o.kernel_src);
    const std::string path = runner::write_new_trace(f.corpus_dir, v.property, text);
    if (path.empty()) std::cerr << fmt::format("{}: cannot write the saved trace\n", f.corpus_dir);
    saved.push_back({v, path, s.stats.events_before, s.stats.events_after, s.stats.stopped_because, seconds, "", "",
                     runner::failure_runqueues(s.trace, v, o.kernel_src)});
    if (s.stats.internal_error_trace) {  // never "does not fail" in silence: saved as a crash of its own
      const std::string crash = runner::crash_trace_text(*s.stats.internal_error_trace, v, s.stats.internal_error,
                                                         o.seed, command_line(f, o));
      saved.back().crash_error = s.stats.internal_error;
      saved.back().crash_path = runner::write_new_trace(f.corpus_dir, "internal-error", crash);
      std::cerr << fmt::format("eevdf-check: internal error on a shrink candidate of trace {} ({}): {}\n  saved {}\n"
                               "  eevdf-check replay {}{}\n",
                               v.index, v.property, s.stats.internal_error, saved.back().crash_path,
                               runner::replay_flag(v.property, o.kernel_src), saved.back().crash_path);
    }
  }
  return saved;
}

void print_saved(const std::vector<Saved>& saved, bool kernel_src) {
  for (const Saved& s : saved) {
    std::cout << fmt::format("\nVIOLATION {} in trace {} (seed {}), event {}: {}\n  {}\n", s.v.property, s.v.index,
                             s.v.seed, s.v.line, s.v.values, s.v.explanation);
    const std::string how = runner::replay_flag(s.v.property, kernel_src);
    std::cout << fmt::format("  shrunk {} -> {} events in {:.4f} s ({}); saved {}\n  eevdf-check replay {}{}\n",
                             s.events_before, s.events_after, s.shrink_seconds, s.stopped_because, s.path, how, s.path);
    if (!s.runqueues.empty()) std::cout << "  at the shrunk trace's first violation:\n";
    for (const replay::RunqueueDump& d : s.runqueues) std::cout << replay::format_runqueue(d, "    ");
  }
}

nlohmann::json to_json(const RunFlags& f, const runner::Options& o, const runner::Result& r,
                       const std::vector<Saved>& saved, int exit_code) {
  const runner::Tally& t = r.tally;
  nlohmann::json j;
  j["seed"] = o.seed;
  j["settings"] = {{"topology", f.topology}, {"traces_max", o.traces_max}, {"seconds_max", o.seconds_max},
                   {"jobs", o.jobs}, {"shard", f.shard}, {"features", f.features}, {"injections", f.injections},
                   {"unphysical", f.unphysical}, {"strict", o.strict}};
  j["traces"] = t.traces;
  j["events"] = t.events;
  j["steady_traces"] = t.steady_traces;
  j["stopped_because"] = r.stopped_because;
  j["properties"] = nlohmann::json::array();
  for (const std::string& p : r.properties)
    if (pass_fail(p))
      j["properties"].push_back({{"name", p}, {"evaluated", count_of(t.evaluated, p)},
                                 {"violations", count_of(t.violations, p)}, {"traces", count_of(t.violating_traces, p)}});
  j["measures"] = nlohmann::json::array();
  for (const auto& [name, samples] : t.measures) {
    const runner::MeasureSummary m = runner::summarize(samples);
    j["measures"].push_back({{"name", name}, {"unit", properties::measure_unit(name)}, {"traces", m.traces},
                             {"evaluated", count_of(t.evaluated, name)}, {"p50", m.p50}, {"p99", m.p99},
                             {"worst", {{"value", m.worst.value}, {"exact", m.worst.exact},
                                        {"trace_index", m.worst.index}, {"trace_seed", m.worst.seed}}}});
  }
  j["not_judged"] = nlohmann::json::array();
  for (const runner::Unjudged& u : runner::not_judged(o)) j["not_judged"].push_back({{"name", u.property}, {"how", u.how}});
  j["ideal_only"] = {{"steady_every", o.steady_every}, {"traces", t.ideal_only_checked}, {"events", t.ideal_only_events}};
  j["consequences"] = t.consequences;
  if (o.ideal_every != 0)
    j["ideal_tracks_kernel"] = {{"every", o.ideal_every}, {"traces", t.ideal_checked}, {"events", t.ideal_events},
                                {"explained", t.ideal_explained}, {"diverged_traces", t.ideal_diverged_traces},
                                {"explained_by", t.ideal_explained_by}};
  j["known_findings"] = nlohmann::json::object();
  for (const auto& [name, n] : t.findings) j["known_findings"][name] = n;
  for (std::size_t i = 0; i < runner::kProbeNames.size(); ++i)
    j["coverage"][std::string(runner::kProbeNames[i])] = t.coverage[i];
  j["failures"] = nlohmann::json::array();
  for (const Saved& s : saved) {
    nlohmann::json runqueues = nlohmann::json::array();
    for (const replay::RunqueueDump& d : s.runqueues) runqueues.push_back(replay::runqueue_json(d));
    j["failures"].push_back({{"property", s.v.property}, {"trace_index", s.v.index}, {"trace_seed", s.v.seed},
                             {"event", s.v.line}, {"file", s.path}, {"events_before", s.events_before},
                             {"events_after", s.events_after}, {"shrink_seconds", s.shrink_seconds},
                             {"replay", "eevdf-check replay " + s.path}, {"runqueues", runqueues}});
  }
  j["digest"] = fmt::format("{:016x}", r.digest);
  j["prng_draws"] = t.draws;
  j["seconds"] = r.seconds;
  j["exit"] = exit_code;
  return j;
}

// The corpus before new traces (as Hypothesis replays its saved examples
// first): every trace as its own header says; --inject and --features do not apply.
CorpusResult replay_corpus_first(const RunFlags& f) {
  if (f.no_corpus) return {};
  if (!std::filesystem::is_directory(f.corpus_root)) {
    if (!f.json) std::cout << fmt::format("corpus: {} not found, nothing replayed (--corpus DIR)\n", f.corpus_root);
    return {};
  }
  std::vector<std::string> folders = kCorpusFolders;
  folders.push_back("new");  // failures saved by earlier runs, not yet filed
  const CorpusResult r = replay_corpus(f.corpus_root, folders);
  if (!f.json)
    std::cout << fmt::format("corpus {} replayed first ({} traces, each as its header says):\n{}", f.corpus_root,
                             r.traces(), corpus_report(r));
  return r;
}

nlohmann::json corpus_json(const RunFlags& f, const CorpusResult& r) {
  nlohmann::json j;
  j["root"] = f.no_corpus ? "" : f.corpus_root;
  j["folders"] = nlohmann::json::object();
  j["failures"] = nlohmann::json::array();
  for (const CorpusFolder& c : r.folders) {
    j["folders"][c.name] = {{"traces", c.traces.size()}, {"passed", c.passed()}, {"skipped", c.skipped()},
                               {"for_kernel_trees", c.for_trees}};
    for (const CorpusTrace& t : c.traces)
      if (t.outcome != replay::Outcome::clean)
        j["failures"].push_back({{"file", t.path}, {"exit", static_cast<int>(t.outcome)}, {"report", t.report}});
      else if (!t.skipped.empty())
        j["skipped"].push_back({{"file", t.path}, {"why", t.skipped}});
  }
  return j;
}

int run(RunFlags f) {
  if (!f.seed) f.seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
  runner::Options o;
  if (const std::string why = to_options(f, o); !why.empty()) {
    std::cerr << "run: " << why << "\n";
    return 2;
  }
  if (!f.json) print_settings(f, o);
  const CorpusResult corpus = replay_corpus_first(f);
  std::cout << std::flush;
  const bool live = !f.json && isatty(1) && isatty(2);
  const runner::Result r =
      runner::run_campaign(o, live ? runner::ProgressFn([&o](const runner::Progress& p) { print_progress(p, o); })
                                   : runner::ProgressFn{});
  if (live) std::cerr << "\n";
  if (!r.tally.internal_error.empty()) {
    std::cerr << "eevdf-check: internal error in " << r.tally.internal_error << "\n  reproduce: "
              << command_line(f, o) << "\n";
    return 3;
  }
  if (!f.json) {
    print_table(r, o.kernel_src, o.kernel_tree_alone);
    print_not_judged(o);
  }
  const std::vector<Saved> saved = save_failures(f, o, r);
  const bool crashed = std::any_of(saved.begin(), saved.end(), [](const Saved& s) { return !s.crash_error.empty(); });
  const int code = std::max({saved.empty() ? 0 : 1, static_cast<int>(corpus.worst), crashed ? 3 : 0});
  if (f.json) {
    nlohmann::json j = to_json(f, o, r, saved, code);
    j["corpus"] = corpus_json(f, corpus);
    std::cout << j.dump(2) << "\n";
    return code;
  }
  print_saved(saved, o.kernel_src);
  if (o.diff_every != 0)
    std::cout << fmt::format("\nfast_matches_reference: {} traces cross-checked, {}\n", r.tally.fast_checked,
                             r.tally.violations.count("fast_matches_reference") != 0 ? "DIFFERENCES (above)"
                                                                                      : "no difference");
  if (o.ideal_every != 0) {
    const auto& v = r.tally.violations;
    const auto unexplained = v.count("ideal_tracks_kernel") != 0 ? v.at("ideal_tracks_kernel") : 0;
    std::cout << fmt::format(
        "\nideal_tracks_kernel: {} traces ({} events) in both arithmetics; {} explained divergences (rounding ties) in "
        "{} traces, {} unexplained\n",
        r.tally.ideal_checked, r.tally.ideal_events, r.tally.ideal_explained, r.tally.ideal_diverged_traces,
        unexplained);
    for (const auto& [decision, n] : r.tally.ideal_explained_by) std::cout << fmt::format("  {:>8}  {}\n", n, decision);
  }
  std::cout << fmt::format("\ndigest {:016x} over {} traces, {} events, {} PRNG draws\n", r.digest, r.tally.traces,
                           r.tally.events, r.tally.draws);
  std::cout << fmt::format("time {:.1f} s ({}), {:.0f} traces/s, {:.0f} events/s\n", r.seconds, r.stopped_because,
                           static_cast<double>(r.tally.traces) / std::max(r.seconds, 1e-9),
                           static_cast<double>(r.tally.events) / std::max(r.seconds, 1e-9));
  if (corpus.worst != replay::Outcome::clean)
    std::cout << fmt::format("corpus: {} traces did not replay as their headers say (see above)\n",
                             corpus.traces() - corpus.passed() - (corpus.skips_fail ? 0 : corpus.skipped()));
  std::cout << (code == 0 ? "result: clean" : "result: VIOLATED") << (r.tally.findings.empty() ? "" : " (known findings apart)")
            << "\n";
  return code;
}

}  // namespace

Run add_run(CLI::App& app) {
  auto f = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand("run", "Generate random traces, check every property, shrink and save failures");
  cmd->add_option("--seed", f->seed, "Campaign seed (default: drawn and printed)");
  cmd->add_option("--traces", f->traces, "Number of traces (alone: no time limit)")->check(CLI::Range(std::uint64_t{1}, std::uint64_t{UINT64_MAX / 4}));
  cmd->add_option("--time", f->time, "Time budget, e.g. 60s, 2m (alone: no trace limit)");
  cmd->add_option("--jobs", f->jobs, "Threads (the result does not depend on it)")->check(CLI::Range(1, 1024));
  cmd->add_option("--shard", f->shard, "i/N: run the traces k with k % N == i (docs/RUN.md)");
  cmd->add_option("--topology", f->topology, "SOCKETSxCORES (default 2x64)");
  cmd->add_option("--features", f->features, "Force a feature on (X) or off (NO_X) in every trace; repeatable")
      ->delimiter(',')
      ->check(CLI::IsMember(replay::vocabulary().feature_words()));
  cmd->add_option("--inject", f->injections, "Switch on a historical bug (docs/INJECTIONS.md); repeatable")
      ->check(CLI::IsMember(replay::vocabulary().injections))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
  cmd->add_option("--check", f->check, "Check only these properties")->delimiter(',')->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_option("--skip", f->skip, "Do not check these properties")->delimiter(',')->check(CLI::IsMember(replay::vocabulary().properties));
  cmd->add_flag("--unphysical", f->unphysical, "Allow tick-less gaps up to 10^13 ns with queued entities");
  cmd->add_flag("--json", f->json, "Print the result as JSON");
  cmd->add_option("--diff-every", f->diff_every,
                  "Also run every N-th trace through the fast model and compare it with the reference after every "
                  "event (fast_matches_reference: a difference is its violation, shrunk and saved)");
  cmd->add_option("--ideal-every", f->ideal_every,
                  "Also run every N-th trace in the kernel and the ideal arithmetic in lockstep (ideal_tracks_kernel: "
                  "an unexplained divergence is a violation); `--check ideal_tracks_kernel` alone means every trace");
  cmd->add_option("--steady-every", f->steady_every,
                  fmt::format("Also replay every steady trace k with k % N == 0 in the ideal arithmetic, where "
                              "lag_bound_steady is exact (default {}; 0: never)",
                              runner::kSteadyEveryDefault));
  cmd->add_flag("--strict", f->strict, "Known findings fail the run too");
  cmd->add_option("--corpus", f->corpus_root,
                  "Corpus root replayed before new traces: scenarios, bugs, findings, regressions, new (default corpus)");
  cmd->add_flag("--no-corpus", f->no_corpus, "Do not replay the corpus first");
  cmd->add_option("--corpus-dir", f->corpus_dir, "Where failing traces are saved (default corpus/new)");
  cmd->add_option("--model", f->model,
                  "reference (default) or kernel-src: 6.12 traces through the 6.12 profile and the real fair.c")
      ->check(CLI::IsMember({"reference", "kernel-src"}));
  cmd->add_option("--shrink-time", f->shrink_seconds, "Seconds per shrink (default 30)")->check(CLI::Range(0.0, 3600.0));
  add_kernel_tree_option(cmd, f->kernel_tree);
  return [f, cmd] {
    if (const int rc = select_kernel_tree(f->kernel_tree, *cmd, f->model); rc != 0) return rc;
    return run(*f);
  };
}

}  // namespace eevdf::cli
