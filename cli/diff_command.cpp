// `eevdf-check diff --kernel-tree A --against B [FILE...]`: two implementations of the
// fair class in lockstep (runner/tree_diff.h), on the campaign's generated traces or
// on the given trace files. Prints the first difference, shrunk and saved, with both
// runqueue dumps at the event it shows. Exit 1 on a difference, 0 when none, 2 on bad
// input (docs/RUN.md, "Tree against tree").
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "replay/kernel_tree.h"
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
#include "kernel_src/tree_build.h"
#include "replay/kernel_src_lockstep.h"
#include "runner/kernel_src_oracle.h"
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

// One side, from its flag: `builtin` (the kernel-src this program was built with), a
// kernel tree's directory (built with --kernel-tree's loader, kernel_src/tree_build.h),
// or, for B only, `reference`: the reference's profile nearest A's release (6.12 for a
// 6.12 tree, else 6.18). A side resolves to its factory, its name for reports, and
// the build whose decisions the generator follows.
struct Side {
  replay::ImplementationFactory factory;
  std::string name;
  std::string release;                           // "" for the reference
  const kernel_src::c::ksrc_api* api = nullptr;  // nullptr: built in
  bool builtin = false;
};

std::optional<Side> side(const std::string& spec, const Side* a, const std::vector<std::string>& injections,
                         std::string& error) {
  Side s;
  if (spec == "builtin") {
    s.release = replay::builtin_kernel_src_version();
    s.name = fmt::format("kernel-src {} (built in)", s.release);
    s.builtin = true;
    s.factory = replay::kernel_src_implementation(replay::builtin_machine_factory(), s.name);
    return s;
  }
  if (spec == "reference" && a != nullptr) {
    const std::string profile = replay::profile_for_release(a->release);
    s.name = fmt::format("reference {}", profile);
    for (const std::string& i : injections) s.name += " +" + i;
    s.factory = replay::reference_implementation(profile, injections);
    return s;
  }
  try {
    const kernel_src::Tree& tree = kernel_src::load_tree(spec);
    s.release = tree.version;
    s.api = tree.api;
    s.name = fmt::format("kernel-src {} ({})", tree.version, spec);
    const kernel_src::c::ksrc_api* api = tree.api;
    s.factory = replay::kernel_src_implementation(
        [api](const model::Config& c, const std::vector<model::TaskSpec>& specs) {
          return std::make_unique<kernel_src::Machine>(c, specs, api);
        },
        s.name);
    return s;
  } catch (const kernel_src::TreeError& e) {
    error = e.where + ": " + e.message;
    if (a == nullptr || spec != "reference") return std::nullopt;
  }
  return std::nullopt;
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
int diff_files(const TreeDiffFlags& f, const Side& sa, const Side& sb) {
  const replay::ImplementationFactory& a = sa.factory;
  const replay::ImplementationFactory& b = sb.factory;
  const std::string& a_name = sa.name;
  const std::string& b_name = sb.name;
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
      if (sa.builtin || sb.builtin)
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
  std::string error;
  const std::optional<Side> sa = side(f.tree, nullptr, {}, error);
  if (!sa) {
    std::cerr << "diff: --kernel-tree " << error << "\n";
    return 2;
  }
  const std::optional<Side> sb = side(f.against, &*sa, f.injections, error);
  if (!sb) {
    std::cerr << "diff: --against " << error << "\n";
    return 2;
  }
  if (!f.files.empty()) return diff_files(f, *sa, *sb);
  const replay::ImplementationFactory& a = sa->factory;
  const replay::ImplementationFactory& b = sb->factory;
  const std::string& a_name = sa->name;
  const std::string& b_name = sb->name;
  f.o.profile = replay::profile_for_release(sa->release);
  if (!sa->builtin) f.o.oracle = runner::kernel_src_oracle(sa->api);  // traces valid on A

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
  j["differing_after_stale_augment"] = r.differing_after_stale_augment;
  if (!f.json)
    std::cout << fmt::format(
        "A = {}\nB = {}\nseed {}: {} traces, {} events compared after every event, {} differing traces ({} of them "
        "after A's tree kept a stale augmented slice; {} traces stopped at a reference's s64 overflow, {} where both "
        "crashed alike, {} where A refused a generated event)\n",
        a_name, b_name, f.o.seed, r.traces, r.events, r.differing_traces, r.differing_after_stale_augment,
        r.overflow_stops, r.crash_stops, r.refused_stops);
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
  cmd->add_option("--kernel-tree", f->tree,
                  "A: a kernel tree's directory (its fair.c, built and cached), or `builtin` (the kernel-src this "
                  "program was built with; the default)");
  cmd->add_option("--against", f->against,
                  "B: a kernel tree's directory, `builtin`, or `reference` (the reference's profile of A's release: "
                  "6.12 for a 6.12 tree, else 6.18)");
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
