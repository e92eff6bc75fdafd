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

struct CorpusTrace {
  std::string path;
  replay::Outcome outcome = replay::Outcome::clean;
  std::string report;  // the replay's output and errors, for a trace that did not pass
};

struct CorpusFolder {
  std::string name;
  std::vector<CorpusTrace> traces;  // sorted by path
  std::uint64_t passed() const;
};

struct CorpusResult {
  std::vector<CorpusFolder> folders;  // in the order asked; absent folders are empty
  replay::Outcome worst = replay::Outcome::clean;
  std::uint64_t traces() const;
  std::uint64_t passed() const;
};

// Replays every `*.trace` under `root/<folder>` (recursively, sorted) for each folder.
CorpusResult replay_corpus(const std::string& root, const std::vector<std::string>& folders);

// One line per folder ("bugs: 10 traces, 10 pass"), then each trace that did not
// pass with its replay report.
std::string corpus_report(const CorpusResult& result);

}  // namespace eevdf::cli
