// `eevdf-check diff --kernel-tree A --against B [FILE...]`: two implementations of the
// fair class in lockstep (runner/tree_diff.h), on the campaign's generated traces or
// on the given trace files. Prints the first difference, shrunk and saved, with both
// runqueue dumps at the event it shows. Exit 1 on a difference, 0 when none, 2 on bad
// input (docs/RUN.md, "Tree against tree").
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "replay/model_config.h"
#include "replay/replay.h"
#include "replay/runqueue_dump.h"
#include "replay/vocabulary.h"
#include "runner/saved_trace.h"
#include "runner/tree_diff.h"
#include "shrinkers/implementations_differ.h"
#include "trace/error.h"
#include "trace/reader.h"
#include "trace/writer.h"

#ifdef EEVDF_HAVE_KERNEL_SRC
#include "replay/kernel_src_lockstep.h"
#endif

namespace eevdf::cli {
namespace {

struct TreeDiffFlags {
  std::string tree = "builtin";
  std::string against;
  std::vector<std::string> injections;
  std::vector<std::string> files;
  runner::TreeDiffOptions o;
  bool json = false;
  bool no_corpus = false;
  std::string corpus_dir = "corpus/new";
  double shrink_seconds = runner::kShrinkSecondsMax;
};

#ifdef EEVDF_HAVE_KERNEL_SRC

// The built-in kernel-src's release, as the reference's profile and the traces' name it.
constexpr const char* kBuiltinProfile = "6.12";

// One side from its flag: `builtin` (the kernel-src this program was built with) or
// `reference` (B only: the reference's profile of the same release). Sets `name` and
// returns the factory; "" in `error` unless the flag is wrong.
replay::ImplementationFactory side(const std::string& spec, bool may_be_reference,
                                   const std::vector<std::string>& injections, std::string& name, std::string& error) {
  if (spec == "builtin") {
    name = fmt::format("kernel-src {}", replay::kernel_src_version());
    return replay::kernel_src_implementation(replay::builtin_machine_factory(), name);
  }
  if (spec == "reference" && may_be_reference) {
    name = fmt::format("reference {}", kBuiltinProfile);
    for (const std::string& i : injections) name += " +" + i;
    return replay::reference_implementation(kBuiltinProfile, injections);
  }
  error = fmt::format("`{}`: this build runs the kernel-src it was built with (`builtin`, {}){}", spec,
                      replay::kernel_src_version(), may_be_reference ? " or `reference`" : "");
  return {};
}

std::string command_line(const TreeDiffFlags& f) {
  std::string c = fmt::format("eevdf-check diff --kernel-tree {} --against {}", f.tree, f.against);
  for (const std::string& i : f.injections) c += " --inject " + i;
  return c;
}

void print_report(const runner::DifferenceReport& r, const std::string& a, const std::string& b) {
  std::cout << fmt::format("difference after line {}{}: {}\n", r.line, r.event.empty() ? "" : " (" + r.event + ")",
                           r.difference);
  std::cout << fmt::format("A = {}\n{}", a, replay::format_runqueue(r.a));
  std::cout << fmt::format("B = {}\n{}", b, replay::format_runqueue(r.b));
}

nlohmann::json report_json(const runner::DifferenceReport& r) {
  return {{"line", r.line},  {"event", r.event}, {"difference", r.difference}, {"cpu", r.cpu},
          {"a", replay::runqueue_json(r.a)}, {"b", replay::runqueue_json(r.b)}};
}

// The given traces through both, each reported with its first difference; the exit
// code is the worst of them.
int diff_files(const TreeDiffFlags& f, const replay::ImplementationFactory& a, const replay::ImplementationFactory& b,
               const std::string& a_name, const std::string& b_name) {
  nlohmann::json j;
  j["a"] = a_name;
  j["b"] = b_name;
  j["files"] = nlohmann::json::array();
  int code = 0;
  for (const std::string& file : f.files) {
    const auto code_of = replay::guarded(file, std::cerr, [&] {
      std::ifstream in(file);
      if (!in) throw trace::TraceError({file, 0, 0}, "cannot open file");
      const trace::Trace t = trace::parse_trace(in, file, replay::vocabulary());
      // The built-in kernel-src runs its own release's traces as the kernel is.
      if (const auto no = replay::KernelSrcLockstep::why_not_runnable(
              t.header, replay::make_config(t.header, replay::Options{}, file)))
        throw trace::TraceError({file, 0, 0}, no->reason, no->hint);
      const runner::DifferenceReport r = runner::replay_difference(t, file, a, b);
      nlohmann::json x = {{"file", file}, {"events", r.events}, {"differ", r.differ}, {"stopped", r.stop}};
      if (r.differ) x["difference"] = report_json(r);
      j["files"].push_back(x);
      if (!f.json) {
        std::cout << fmt::format("{}: {} events, {}\n", file, r.events,
                                 r.differ ? "DIFFERENCE" : r.stop.empty() ? "no difference"
                                                                          : "no difference until " + r.stop);
        if (r.differ) print_report(r, a_name, b_name);
      }
      return r.differ ? replay::Outcome::failed : replay::Outcome::clean;
    });
    code = std::max(code, static_cast<int>(code_of));
  }
  j["exit"] = code;
  if (f.json) std::cout << j.dump(2) << "\n";
  return code;
}

std::string saved_text(const trace::Trace& shrunk, const runner::FirstDifference& first, const TreeDiffFlags& f,
                       const std::string& a_name, const std::string& b_name) {
  trace::Trace t = shrunk;
  std::vector<std::string>& c = t.header.preamble;  // written as `#<line>`
  c.clear();
  c.push_back(fmt::format(" Found by `eevdf-check diff`: {} and {} differ.", a_name, b_name));
  c.push_back(fmt::format(" Campaign seed {}, trace index {} (trace seed {}), after line {} of the generated trace:",
                          f.o.seed, first.index, first.seed, first.line));
  c.push_back(fmt::format("   {}", first.difference));
  c.push_back(fmt::format(" Shrunk from the generated trace; reproduce with `{} <this file>`.", command_line(f)));
  return trace::to_text(t);
}

int run(TreeDiffFlags f) {
  if (f.against.empty()) {
    std::cerr << "diff: --against is required (a tree, or `reference`)\n";
    return 2;
  }
  if (!f.injections.empty() && f.against != "reference") {
    std::cerr << "diff: --inject changes the reference side: it needs --against reference\n";
    return 2;
  }
  std::string a_name, b_name, error;
  const replay::ImplementationFactory a = side(f.tree, false, {}, a_name, error);
  if (!error.empty()) {
    std::cerr << "diff: --kernel-tree " << error << "\n";
    return 2;
  }
  const replay::ImplementationFactory b = side(f.against, true, f.injections, b_name, error);
  if (!error.empty()) {
    std::cerr << "diff: --against " << error << "\n";
    return 2;
  }
  if (!f.files.empty()) return diff_files(f, a, b, a_name, b_name);
  f.o.profile = kBuiltinProfile;

  const runner::TreeDiffResult r = runner::run_tree_diff(f.o, a, b);
  nlohmann::json j;
  j["a"] = a_name;
  j["b"] = b_name;
  j["seed"] = f.o.seed;
  j["traces"] = r.traces;
  j["events"] = r.events;
  j["differing_traces"] = r.differing_traces;
  j["overflow_stops"] = r.overflow_stops;
  j["crash_stops"] = r.crash_stops;
  j["refused_stops"] = r.refused_stops;
  if (!f.json)
    std::cout << fmt::format(
        "A = {}\nB = {}\nseed {}: {} traces, {} events compared after every event, {} differing traces ({} stopped "
        "at a reference's s64 overflow, {} where both crashed alike, {} where A refused a generated event)\n",
        a_name, b_name, f.o.seed, r.traces, r.events, r.differing_traces, r.overflow_stops, r.crash_stops,
        r.refused_stops);
  if (!r.first) {
    j["exit"] = 0;
    if (f.json) std::cout << j.dump(2) << "\n";
    else std::cout << "result: no difference\n";
    return 0;
  }
  const runner::FirstDifference& first = *r.first;
  j["first"] = {{"trace_index", first.index}, {"trace_seed", first.seed}, {"line", first.line},
                {"difference", first.difference}};
  if (!f.json) {
    std::cout << fmt::format("first difference: trace {} (seed {}), after line {}: {}\n", first.index, first.seed,
                             first.line, first.difference);
    std::cerr << fmt::format("shrinking trace {}...\n", first.index);
  }
  const runner::ShrunkDifference s = runner::shrink_difference(f.o, first, a, b, f.shrink_seconds);
  const std::string text = saved_text(s.trace, first, f, a_name, b_name);
  std::string path;
  if (!f.no_corpus) {
    path = runner::write_new_trace(f.corpus_dir, std::string(shrinkers::kImplementationsDiffer), text);
    if (path.empty()) std::cerr << fmt::format("{}: cannot write the shrunk trace\n", f.corpus_dir);
  }
  const runner::DifferenceReport report = runner::replay_difference(s.trace, "<shrunk>", a, b);
  j["shrunk"] = {{"events_before", s.stats.events_before}, {"events_after", s.stats.events_after},
                 {"stopped_because", s.stats.stopped_because}, {"file", path}, {"trace", text}};
  if (report.differ) j["difference"] = report_json(report);
  j["exit"] = 1;
  if (f.json) {
    std::cout << j.dump(2) << "\n";
    return 1;
  }
  std::cout << fmt::format("shrunk {} -> {} events ({}){}\n", s.stats.events_before, s.stats.events_after,
                           s.stats.stopped_because, path.empty() ? "" : "; saved " + path);
  if (report.differ) print_report(report, a_name, b_name);
  if (!path.empty()) std::cout << fmt::format("reproduce: {} {}\n", command_line(f), path);
  else std::cout << "shrunk trace:\n" << text;
  std::cout << "result: DIFFERENT\n";
  return 1;
}

#else

int run(const TreeDiffFlags&) {
  std::cerr << "diff: this build has no kernel-src (install linux-source-6.12: bash ci/setup, then rebuild)\n";
  return 2;
}

#endif

}  // namespace

Run add_diff(CLI::App& app) {
  auto f = std::make_shared<TreeDiffFlags>();
  CLI::App* cmd = app.add_subcommand("diff", "Two implementations of the fair class in lockstep: the first difference, shrunk");
  cmd->add_option("files", f->files, "Trace files to replay through both (default: generate --traces traces)");
  cmd->add_option("--kernel-tree", f->tree, "A: the kernel-src build (`builtin`: the one this program was built with)");
  cmd->add_option("--against", f->against, "B: a kernel-src build, or `reference` (the reference's 6.12 profile)");
  cmd->add_option("--inject", f->injections, "With --against reference: switch on a historical bug in the reference (docs/INJECTIONS.md); repeatable")
      ->check(CLI::IsMember(replay::vocabulary().injections))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1)
      ->allow_extra_args(false);
  cmd->add_option("--seed", f->o.seed, "Campaign seed (default 1)");
  cmd->add_option("--traces", f->o.traces, "Generated traces (default 200)")->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_option("--jobs", f->o.jobs, "Threads (the result does not depend on it)")->check(CLI::Range(1, 1024));
  cmd->add_flag("--json", f->json, "Print the result as JSON");
  cmd->add_flag("--no-corpus", f->no_corpus, "Do not save the shrunk trace");
  cmd->add_option("--corpus-dir", f->corpus_dir, "Where the shrunk trace is saved (default corpus/new)");
  cmd->add_option("--shrink-time", f->shrink_seconds, "Seconds for the shrink (default 30)")->check(CLI::Range(0.0, 3600.0));
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
