// `eevdf-check corpus add FILE` and `eevdf-check corpus check [FOLDER...]`: filing a
// shrunk trace under a name that never overwrites, and replaying the corpus per
// folder (what ctest runs). The replaying is cli/corpus_suite.h.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/corpus_suite.h"
#include "cli/kernel_tree_option.h"
#include "replay/kernel_tree.h"
#include "replay/replay.h"
#include "replay/vocabulary.h"
#include "runner/saved_trace.h"
#include "trace/error.h"
#include "trace/reader.h"

namespace eevdf::cli {
namespace {

struct CorpusFlags {
  std::string root = "corpus";
  std::string file;                  // add
  std::string folder;                // add: default by folder_for
  std::vector<std::string> folders;  // check: default kCorpusFolders
  bool without_kernel_src = false;   // check: as a build without kernel-src would
  std::string kernel_tree;           // check: replay on this tree (default folder: its release's)
};

// Names tried before giving up: 1000 files of one property and hash is a bug.
constexpr int kAttemptsMax = 1000;

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return static_cast<bool>(in);
}

// Whether `text` replays as its header says, with every engine it needs (a trace
// this build cannot judge is not filed); prints the replays' report when not.
replay::Outcome replays_clean(const std::string& file, const std::string& text) {
  const CorpusTrace t = replay_trace(file, text);
  if (!t.skipped.empty()) {
    std::cerr << fmt::format("{}: cannot be judged in this build: {}\n", file, t.skipped);
    return replay::Outcome::bad_input;
  }
  if (t.outcome != replay::Outcome::clean) std::cerr << t.report;
  return t.outcome;
}

int add(const CorpusFlags& f) {
  std::string text;
  if (!read_file(f.file, text)) {
    std::cerr << fmt::format("{}: cannot open file\n", f.file);
    return 2;
  }
  trace::Trace t;
  try {
    t = trace::parse_trace_text(text, f.file, replay::vocabulary());
  } catch (const trace::TraceError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  if (t.header.preamble.empty()) {
    std::cerr << fmt::format("{}:1: no header comment; say what the trace reproduces and why\n",
                             f.file);
    return 2;
  }
  if (!t.header.has_trace_expectations()) {
    std::cerr << fmt::format("{}: no `expect violation`, `expect finding` or `expect clean` in the header: a corpus trace "
                             "says its outcome\n",
                             f.file);
    return 2;
  }
  if (const replay::Outcome o = replays_clean(f.file, text); o != replay::Outcome::clean) {
    std::cerr << fmt::format("{}: does not replay as its header says; not filed\n", f.file);
    return static_cast<int>(o);
  }
  const std::string folder = f.folder.empty() ? runner::folder_for(t) : f.folder;
  const std::filesystem::path dir = std::filesystem::path(f.root) / folder;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (int attempt = 0; attempt < kAttemptsMax; ++attempt) {
    const std::filesystem::path path = dir / runner::corpus_name(t, text, attempt);
    std::string existing;
    if (std::filesystem::exists(path)) {
      if (read_file(path.string(), existing) && existing == text) {
        std::cout << fmt::format("already filed as {}\n", path.string());
        return 0;
      }
      continue;  // never overwrite: the next name
    }
    std::ofstream out(path);
    out << text;
    if (!out) break;
    std::cout << fmt::format("filed {}\n  eevdf-check replay {}\n", path.string(), path.string());
    return 0;
  }
  std::cerr << fmt::format("{}: cannot write the trace\n", dir.string());
  return 2;
}

int check(const CorpusFlags& f) {
  if (!std::filesystem::is_directory(f.root)) {
    std::cerr << fmt::format("{}: no such corpus directory\n", f.root);
    return 2;
  }
  if (!f.kernel_tree.empty()) {
    if (f.without_kernel_src) {
      std::cerr << "--kernel-tree runs the kernel-src model: it cannot go with --without-kernel-src\n";
      return 2;
    }
    if (const int rc = select_kernel_tree(f.kernel_tree); rc != 0) return rc;
    const std::vector<std::string> folders =
        f.folders.empty() ? std::vector<std::string>{tree_folder(replay::tree_judged_alone()->version)} : f.folders;
    CorpusResult r = replay_corpus_on_tree(f.root, folders);
    r.replay_options = "--kernel-tree " + f.kernel_tree;
    std::cout << fmt::format("corpus {} on the kernel tree {}: {} traces\n{}", f.root, f.kernel_tree, r.traces(),
                             corpus_report(r));
    return static_cast<int>(r.worst);
  }
  const CorpusResult r = replay_corpus(f.root, f.folders.empty() ? kCorpusFolders : f.folders,
                                       replay::have_kernel_src() && !f.without_kernel_src);
  std::cout << fmt::format("corpus {}: {} traces\n{}", f.root, r.traces(), corpus_report(r));
  return static_cast<int>(r.worst);
}

}  // namespace

Run add_corpus(CLI::App& app) {
  auto f = std::make_shared<CorpusFlags>();
  CLI::App* cmd = app.add_subcommand("corpus", "File shrunk traces and replay the corpus per folder");
  cmd->require_subcommand(1);
  cmd->add_option("--corpus", f->root, "The corpus root (default: corpus)");
  CLI::App* add_cmd = cmd->add_subcommand("add", "File a trace as <folder>/<property>-<hash>.trace, never overwriting");
  add_cmd->add_option("file", f->file, "A trace with a header comment and its expected outcome")->required();
  add_cmd->add_option("--folder", f->folder, "bugs, findings, regressions or scenarios (default: from the trace)")
      ->check(CLI::IsMember({"scenarios", "bugs", "findings", "regressions"}));
  add_cmd->add_option("--corpus", f->root, "The corpus root (default: corpus)");
  CLI::App* check_cmd = cmd->add_subcommand(
      "check", "Replay every corpus trace with the engines its header needs; report per folder, with the skipped");
  check_cmd->add_option("folders", f->folders, "Folders (default: scenarios bugs findings regressions)");
  check_cmd->add_option("--corpus", f->root, "The corpus root (default: corpus)");
  check_cmd->add_flag("--without-kernel-src", f->without_kernel_src,
                      "Skip the traces that need kernel-src, as a build without linux-source-6.12 does (a skip is "
                      "reported, and fails when the environment variable CI is true)");
  check_cmd->add_option("--kernel-tree", f->kernel_tree,
                        "Replay on the fair.c of this kernel tree (kernel-src judged by the properties), by default "
                        "the folder findings/trees/<its release line>: what was filed for trees of that line")
      ->type_name("DIR");
  return [f, add_cmd] { return add_cmd->parsed() ? add(*f) : check(*f); };
}

}  // namespace eevdf::cli
