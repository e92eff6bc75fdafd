// `eevdf-check explore`: flags, files and the exit code; the search is explore/'s.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <variant>

#include "cli/commands.h"
#include "cli/flag_words.h"
#include "cli/kernel_tree_option.h"
#include "explore/explore.h"
#include "explore/report.h"
#include "explore/tree.h"
#include "model/features.h"
#include "model/injections.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"

namespace eevdf::cli {
namespace {

struct ExploreFlags {
  std::string trace;
  bool header_only = false;
  int cpus = 2, tasks = 3, hz = 1000;
  std::string kernel = "6.18";
  std::string features, inject;
  int depth = 8;
  std::string quantum = "100us";
  int max_gap = 2;
  std::string nices, slices, verbs;
  bool no_io = false, tick_all = false;
  bool no_symmetry = false, no_por = false, symmetry_stats = false;
  int jobs = 1;
  bool keep_going = false;
  std::string reach;
  std::string check, skip;
  std::string out;
  bool json = false, quiet = false;
  bool features_all = false;
  std::string tree;  // --kernel-tree
};

trace::Header make_header(const ExploreFlags& f, const CLI::App& cmd, std::vector<trace::Event>& prefix) {
  trace::Header h;
  if (!f.trace.empty()) {
    for (const char* flag : {"--cpus", "--tasks", "--kernel", "--hz"})
      if (cmd.count(flag) > 0) throw UsageError(fmt::format("{}: the trace's header sets it; give one or the other", flag));
    std::ifstream in(f.trace);
    if (!in) throw UsageError(fmt::format("{}: cannot read", f.trace));
    trace::Trace t = trace::parse_trace(in, f.trace, replay::vocabulary());
    h = std::move(t.header);
    if (!f.header_only)
      for (const auto& s : t.body)
        if (const auto* e = std::get_if<trace::Event>(&s)) prefix.push_back(*e);
    h.expect_violations.clear();
    h.expect_findings.clear();
    h.expect_clean = false;
  } else {
    if (f.cpus < 1 || f.cpus > 16) throw UsageError("--cpus: 1 .. 16");
    if (f.tasks < 1 || f.tasks > 16) throw UsageError("--tasks: 1 .. 16");
    if (f.kernel != "6.18" && f.kernel != "6.12") throw UsageError("--kernel: 6.18 or 6.12");
    // A tree runs its own profile's traces: without --kernel, the tree's.
    const std::string kernel = !f.tree.empty() && cmd.count("--kernel") == 0 ? explore::selected_tree_profile() : f.kernel;
    if (f.hz < 1 || f.hz > 100000) throw UsageError("--hz: 1 .. 100000");
    if (kernel != "6.18") h.kernel = kernel;
    trace::TopologySpec topo;
    topo.sockets = 1;
    topo.cores_per_socket = f.cpus;
    h.topology = topo;
    if (f.hz != 1000) h.hz = f.hz;
    for (int id = 1; id <= f.tasks; ++id) {
      trace::TaskDecl d;
      d.id = id;
      h.tasks.push_back(d);
    }
  }
  if (h.topology_or_default().ncpus() > 16) throw UsageError("explore models at most 16 CPUs");
  if (h.tasks.size() > 16) throw UsageError("explore models at most 16 tasks");
  if (h.arith_or_default() != trace::Arith::kernel) h.arith.reset();  // explore runs the kernel arithmetic
  for (const auto& setting : feature_words("--features", f.features)) h.features.push_back(setting);
  for (const std::string& name : words(f.inject)) {
    if (!model::injection_by_name(name)) throw UsageError(fmt::format("--inject: unknown injection `{}`", name));
    h.injections.push_back(name);
  }
  return h;
}

explore::Alphabet make_alphabet(const ExploreFlags& f) {
  explore::Alphabet a;
  a.quantum_ns = duration_flag("--quantum", f.quantum);
  if (f.max_gap < 0 || f.max_gap > 100) throw UsageError("--max-gap: 0 .. 100");
  a.max_gap = f.max_gap;
  for (const std::string& w : words(f.nices)) {
    int n = 0;
    try {
      std::size_t used = 0;
      n = std::stoi(w, &used);
      if (used != w.size()) throw std::invalid_argument(w);
    } catch (const std::exception&) {
      throw UsageError(fmt::format("--nices: `{}` is not a nice value", w));
    }
    if (n < -20 || n > 19) throw UsageError(fmt::format("--nices: {} is outside -20 .. 19", n));
    a.nices.push_back(n);
  }
  for (const std::string& w : words(f.slices)) {
    const std::uint64_t ns = w == "0" ? 0 : duration_flag("--slices", w);
    if (ns % 1000 != 0 || ns > 1'000'000'000) throw UsageError(fmt::format("--slices: `{}`: whole us, at most 1s", w));
    a.slices.push_back(ns);
  }
  if (!f.verbs.empty()) {
    a.verbs.fill(false);
    for (const std::string& w : words(f.verbs)) {
      const int v = trace::index_of(trace::kVerbNames, w);
      if (v < 0) throw UsageError(fmt::format("--verbs: unknown verb `{}`", w));
      a.verbs[static_cast<std::size_t>(v)] = true;
    }
  }
  a.io = !f.no_io;
  a.tick_all = f.tick_all;
  return a;
}

// The feature words of `mask` (bit i: kFeatures[i] on) that differ from the defaults.
std::string differences(unsigned mask) {
  std::string out;
  for (std::size_t i = 0; i < model::kFeatures.size(); ++i) {
    const bool on = (mask >> i & 1u) != 0;
    if (on != model::kFeatures[i].default_on)
      out += (out.empty() ? "" : ",") + std::string(on ? "" : "NO_") + std::string(model::kFeatures[i].name);
  }
  return out.empty() ? "(defaults)" : out;
}

// --features-all: the same search under every combination of the feature switches,
// the defaults first, one line each; the first violating set's counterexample.
int run_feature_sets(const ExploreFlags& f, const trace::Header& header, const std::vector<trace::Event>& prefix,
                     const explore::Options& o) {
  unsigned defaults = 0;
  for (std::size_t i = 0; i < model::kFeatures.size(); ++i)
    if (model::kFeatures[i].default_on) defaults |= 1u << i;
  const unsigned sets = 1u << model::kFeatures.size();
  std::cout << fmt::format("explore, every feature set ({}): {}\n", sets, explore::describe(header, o));
  unsigned violated = 0;
  std::string first_trace;
  for (unsigned k = 0; k < sets; ++k) {
    const unsigned mask = k ^ defaults;  // k = 0 is the defaults
    trace::Header h = header;
    h.features.clear();
    for (std::size_t i = 0; i < model::kFeatures.size(); ++i)
      h.features.emplace_back(std::string(model::kFeatures[i].name), (mask >> i & 1u) != 0);
    const explore::Result r = explore::explore(h, prefix, o);
    std::string verdict = "clean";
    if (!r.violations.empty()) {
      ++violated;
      verdict = fmt::format("{} at depth {}", r.violations.front().property, r.violations.front().depth);
      if (first_trace.empty()) first_trace = explore::counterexample_text(h, o, r);
    }
    std::cout << fmt::format("{}: {} states, {}\n", differences(mask), r.distinct, verdict);
  }
  std::cout << fmt::format("result: {} of {} feature sets violated\n", violated, sets);
  if (!first_trace.empty()) {
    if (!f.out.empty()) {
      std::ofstream out(f.out);
      if (!(out << first_trace)) throw UsageError(fmt::format("--out: cannot write {}", f.out));
    } else {
      std::cout << "\n" << first_trace;
    }
  }
  return violated == 0 ? 0 : 1;
}

int run(const ExploreFlags& f, const CLI::App& cmd) {
  if (f.depth < 0 || f.depth > 64) throw UsageError("--depth: 0 .. 64");
  if (f.jobs < 1 || f.jobs > 256) throw UsageError("--jobs: 1 .. 256");
  if (!f.tree.empty() && f.features_all)
    throw UsageError("--features-all explores the reference; with --kernel-tree give the features with --features");
  if (select_kernel_tree(f.tree) != 0) return 2;
  std::vector<trace::Event> prefix;
  const trace::Header header = make_header(f, cmd, prefix);
  explore::Options o;
  o.alphabet = make_alphabet(f);
  o.depth = f.depth;
  o.symmetry = !f.no_symmetry;
  o.por = !f.no_por;
  o.symmetry_stats = f.symmetry_stats;
  o.jobs = f.jobs;
  o.keep_going = f.keep_going;
  o.start_file = f.trace;
  o.kernel_tree = !f.tree.empty();
  o.selection = {words(f.check), words(f.skip)};
  for (const auto& list : {o.selection.check, o.selection.skip})
    for (const std::string& p : list)
      if (!trace::Vocabulary::contains(replay::vocabulary().properties, p))
        throw UsageError(fmt::format("--check/--skip: unknown property `{}`", p));
  for (const std::string& p : o.selection.check)
    if (const std::string why = explore::unjudged(p, header, o); !why.empty()) throw UsageError("--check " + why);
  if (!f.reach.empty()) o.reach = trace::parse_query_conjunction(f.reach, header, replay::vocabulary(), "--reach");

  if (f.features_all) {
    if (f.json || !f.reach.empty()) throw UsageError("--features-all prints one line per set: without --json or --reach");
    return run_feature_sets(f, header, prefix, o);
  }
  const std::string setting = explore::describe(header, o);
  if (!f.quiet && !f.json) std::cerr << "explore: " << setting << "\n";
  const explore::Progress progress = [&](int depth, const explore::Result& r) {
    if (!f.quiet && !f.json) std::cerr << explore::format_progress(depth, r);
  };
  const explore::Result r = explore::explore(header, prefix, o, progress);

  const std::string trace_text = explore::counterexample_text(header, o, r);
  if (!f.out.empty() && !trace_text.empty()) {
    std::ofstream out(f.out);
    if (!(out << trace_text)) throw UsageError(fmt::format("--out: cannot write {}", f.out));
  }
  if (f.json) {
    std::cout << explore::report_json(header, o, r).dump(2) << "\n";
  } else {
    std::cout << explore::format_report(setting, o, r);
    if (!trace_text.empty() && f.out.empty()) std::cout << "\n" << trace_text;
  }
  return r.violations.empty() ? 0 : 1;
}

}  // namespace

Run add_explore(CLI::App& app) {
  auto f = std::make_shared<ExploreFlags>();
  CLI::App* cmd = app.add_subcommand(
      "explore", "Visit every state the trace verbs reach within a number of events; the shortest violation as a trace");
  cmd->add_option("trace", f->trace, "Start from this trace's header and the state after its events (optional)");
  cmd->add_flag("--header-only", f->header_only, "With a trace: start from its header, before its events");
  cmd->add_option("--cpus", f->cpus, "CPUs (without a trace)")->capture_default_str();
  cmd->add_option("--tasks", f->tasks, "Tasks declared alike (without a trace)")->capture_default_str();
  cmd->add_option("--kernel", f->kernel, "The profile: 6.18 or 6.12 (without a trace)")->capture_default_str();
  cmd->add_option("--hz", f->hz, "Tick rate (without a trace)")->capture_default_str();
  cmd->add_option("--kernel-tree", f->tree,
                  "Explore the fair.c of this kernel tree (kernel-src, judged by its mirror; built once and cached) "
                  "instead of the reference")
      ->type_name("DIR");
  cmd->add_option("--features", f->features, "Feature words after the header's: NO_DELAY_DEQUEUE,NEXT_BUDDY,...");
  cmd->add_option("--inject", f->inject, "Historical bugs to switch on (comma-separated)");
  cmd->add_flag("--features-all", f->features_all,
                "The search under every combination of the feature switches (2^11), one line each");
  cmd->add_option("--depth", f->depth, "Events after the start state")->capture_default_str();
  cmd->add_option("--quantum", f->quantum, "The time grid: gaps between events are multiples of it")
      ->capture_default_str();
  cmd->add_option("--max-gap", f->max_gap, "Gaps of 0 .. this many quanta")->capture_default_str();
  cmd->add_option("--nices", f->nices, "`renice` values (comma-separated; none: no renice)");
  cmd->add_option("--slices", f->slices, "`setslice` values, 0 for the default slice (none: no setslice)");
  cmd->add_option("--verbs", f->verbs, "Only these verbs (default: all)");
  cmd->add_flag("--no-io", f->no_io, "`sleep` without `io` and `io=noacct`");
  cmd->add_flag("--tick-all", f->tick_all, "`tick all` besides `tick CPU`");
  cmd->add_flag("--no-symmetry", f->no_symmetry, "Keep permutations of tasks and CPUs apart");
  cmd->add_flag("--no-por", f->no_por, "Try both orders of events that commute");
  cmd->add_flag("--symmetry-stats", f->symmetry_stats, "Count the transitions symmetry merges (a second fingerprint)");
  cmd->add_option("--jobs", f->jobs, "Worker threads (the result does not depend on it)")->capture_default_str();
  cmd->add_flag("--keep-going", f->keep_going, "Past the first violation: each property's shortest");
  cmd->add_option("--reach", f->reach, "Stop at the first state where this holds: `state 1 delayed and nr_iowait 0 0`");
  cmd->add_option("--check", f->check, "Only these properties (comma-separated)");
  cmd->add_option("--skip", f->skip, "Not these properties");
  cmd->add_option("--out", f->out, "Write the counterexample or witness trace to this file");
  cmd->add_flag("--json", f->json, "The report as JSON");
  cmd->add_flag("--quiet", f->quiet, "No progress lines");
  return [f, cmd] {
    return exit_2_on_bad_input("explore", [&] { return run(*f, *cmd); });
  };
}

}  // namespace eevdf::cli
