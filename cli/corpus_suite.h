// The corpus as a test suite (each file says in its header why it exists): every trace under a corpus
// root's folders replayed as its own header says (its features, injections and
// expectations; nothing from the command line), reported per folder; and filing a
// shrunk trace under a name that never overwrites.
#pragma once

#include <cstdint>  // counts
#include <string>   // paths, reports
#include <vector>   // files, folders

#include "replay/replay.h"

namespace eevdf::cli {

// The folders `corpus check` and ctest replay, in report order; `new/` (git-ignored,
// traces not yet filed) only when asked for, and by `run`.
inline const std::vector<std::string> kCorpusFolders{"scenarios", "bugs", "findings", "regressions"};

// The folder, inside a corpus folder, of what the real code of kernel trees does:
// `<folder>/trees/<release line>/`. Only `corpus check --kernel-tree` replays it.
inline constexpr const char* kTreesFolder = "trees";

struct CorpusTrace {
  std::string path;
  replay::Outcome outcome = replay::Outcome::clean;
  std::string report;   // the replays' output and errors, for a trace that did not pass
  std::string skipped;  // why it was not replayed (an engine this build lacks), or ""
};

struct CorpusFolder {
  std::string name;
  std::vector<CorpusTrace> traces;  // sorted by path
  std::uint64_t for_trees = 0;      // traces under its trees/ folders, left to `corpus check --kernel-tree`
  std::uint64_t passed() const;     // clean and not skipped
  std::uint64_t skipped() const;
};

struct CorpusResult {
  std::vector<CorpusFolder> folders;  // in the order asked; absent folders are empty
  // The worst outcome; a skipped trace is a failure when skips_fail.
  replay::Outcome worst = replay::Outcome::clean;
  bool skips_fail = false;
  std::string replay_options;  // what replays a failing trace alone beside its path ("--kernel-tree DIR")
  std::uint64_t traces() const;
  std::uint64_t passed() const;
  std::uint64_t skipped() const;
};

// Whether a skipped trace fails the suite: under CI (the environment variable CI is
// `true`), where every engine must be installed.
bool skips_fail();

// Replays the trace `text` (named `path`) with every engine its header needs
// (replay::plan_replays), or skips it when this build lacks one (`kernel_src`:
// whether kernel-src may be used).
CorpusTrace replay_trace(const std::string& path, const std::string& text, bool kernel_src = replay::have_kernel_src());

// Replays every `*.trace` under `root/<folder>` (recursively, sorted) for each folder,
// except those under a trees/ folder (counted in CorpusFolder::for_trees).
CorpusResult replay_corpus(const std::string& root, const std::vector<std::string>& folders,
                           bool kernel_src = replay::have_kernel_src());

// The folder of the findings filed for kernel trees of release line `release` ("6.18.2"
// -> "findings/trees/6.18", "7.1-rc3" -> "findings/trees/7.1"): what the real code of that
// line does that the default tree does not show, replayed only on such a tree (`corpus
// check --kernel-tree DIR`).
std::string tree_folder(const std::string& release);

// Replays every trace under `root/<folder>` on the kernel tree selected in this process
// (replay/kernel_tree.h): kernel-src judged by its mirror, with each trace's own
// expectations.
CorpusResult replay_corpus_on_tree(const std::string& root, const std::vector<std::string>& folders);

// One line per folder ("bugs: 10 traces, 10 pass", with the skipped ones), then each
// trace that did not pass with its replay report, then each skipped one and why.
std::string corpus_report(const CorpusResult& result);

}  // namespace eevdf::cli
