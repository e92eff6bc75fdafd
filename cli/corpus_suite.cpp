// The corpus suite and its filing rules; see corpus.h.
#include "cli/corpus_suite.h"

#include <fmt/format.h>

#include <algorithm>   // std::sort
#include <cstdlib>     // std::getenv
#include <filesystem>  // the listing
#include <fstream>     // the traces
#include <sstream>     // captured reports
#include <string_view> // CI

#include "replay/judged.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/reader.h"


namespace eevdf::cli {
namespace {

// Every trace under `dir`, sorted. `trees/` folders hold what kernel trees of a
// release line do (replayed by `corpus check --kernel-tree`): with `skip_trees` they are
// left out and counted in `for_trees`.
std::vector<std::string> traces_under(const std::filesystem::path& dir, bool skip_trees, std::uint64_t& for_trees) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); it != std::filesystem::end(it);
       it.increment(ec)) {
    if (skip_trees && it->is_directory() && it->path().filename() == kTreesFolder) {
      std::uint64_t nested = 0;
      for_trees += traces_under(it->path(), false, nested).size();
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && it->path().extension() == ".trace") {
      out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());  // the report's order never depends on the file system's
  return out;
}

CorpusTrace replay_one(const std::string& path, bool kernel_src) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    CorpusTrace t;
    t.path = path;
    t.outcome = replay::Outcome::bad_input;
    t.report = fmt::format("{}: cannot open file\n", path);
    return t;
  }
  return replay_trace(path, text.str(), kernel_src);
}

// The replays the header asks for; a header that does not parse gets the plain
// replay, whose report says why.
std::vector<replay::PlannedReplay> plan_for(const std::string& path, const std::string& text, bool kernel_src) {
  std::istringstream in(text);
  try {
    trace::TraceReader reader(in, path, replay::vocabulary());
    return replay::plan_replays(reader.header(), kernel_src);
  } catch (const trace::TraceError&) {
    return {replay::PlannedReplay{}};
  }
}

}  // namespace

bool skips_fail() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

CorpusTrace replay_trace(const std::string& path, const std::string& text, bool kernel_src) {
  CorpusTrace t;
  t.path = path;
  const std::vector<replay::PlannedReplay> plan = plan_for(path, text, kernel_src);
  for (const replay::PlannedReplay& r : plan)
    if (!r.missing.empty()) {
      t.skipped = r.missing;
      return t;
    }
  // Options from the plan only: the trace's own header decides (no --inject, no --features).
  for (const replay::PlannedReplay& r : plan) {
    std::istringstream in(text);
    std::ostringstream out, err;
    const replay::Outcome o = replay::replay(in, path, r.options, out, err);
    if (o != replay::Outcome::clean) t.report += out.str() + err.str();
    t.outcome = replay::worst(t.outcome, o);
  }
  return t;
}

std::uint64_t CorpusFolder::passed() const {
  return static_cast<std::uint64_t>(std::count_if(traces.begin(), traces.end(), [](const CorpusTrace& t) {
    return t.outcome == replay::Outcome::clean && t.skipped.empty();
  }));
}

std::uint64_t CorpusFolder::skipped() const {
  return static_cast<std::uint64_t>(
      std::count_if(traces.begin(), traces.end(), [](const CorpusTrace& t) { return !t.skipped.empty(); }));
}

std::uint64_t CorpusResult::traces() const {
  std::uint64_t n = 0;
  for (const CorpusFolder& f : folders) n += f.traces.size();
  return n;
}

std::uint64_t CorpusResult::passed() const {
  std::uint64_t n = 0;
  for (const CorpusFolder& f : folders) n += f.passed();
  return n;
}

std::uint64_t CorpusResult::skipped() const {
  std::uint64_t n = 0;
  for (const CorpusFolder& f : folders) n += f.skipped();
  return n;
}

namespace {

// The suite over `folders`, each trace replayed by `one(path)`.
template <class ReplayOne>
CorpusResult replay_folders(const std::string& root, const std::vector<std::string>& folders, bool skip_trees,
                            ReplayOne&& one) {
  CorpusResult r;
  r.skips_fail = skips_fail();
  for (const std::string& name : folders) {
    CorpusFolder f;
    f.name = name;
    for (const std::string& path : traces_under(std::filesystem::path(root) / name, skip_trees, f.for_trees)) {
      f.traces.push_back(one(path));
      r.worst = replay::worst(r.worst, f.traces.back().outcome);
      if (!f.traces.back().skipped.empty() && r.skips_fail) r.worst = replay::worst(r.worst, replay::Outcome::failed);
    }
    r.folders.push_back(std::move(f));
  }
  return r;
}

// One trace on the selected tree: kernel-src, whatever its header's profile (the
// tree's release decides the forms it is judged by).
CorpusTrace replay_on_tree(const std::string& path) {
  CorpusTrace t;
  t.path = path;
  std::ifstream in(path);
  if (!in) {
    t.outcome = replay::Outcome::bad_input;
    t.report = fmt::format("{}: cannot open file\n", path);
    return t;
  }
  replay::Options options;
  options.model = replay::Model::kernel_src;
  std::ostringstream out, err;
  t.outcome = replay::replay(in, path, options, out, err);
  if (t.outcome != replay::Outcome::clean) t.report = out.str() + err.str();
  return t;
}

}  // namespace

CorpusResult replay_corpus(const std::string& root, const std::vector<std::string>& folders, bool kernel_src) {
  return replay_folders(root, folders, true, [&](const std::string& path) { return replay_one(path, kernel_src); });
}

std::string tree_folder(const std::string& release) {
  const std::size_t major_end = release.find('.');
  const std::size_t minor_end =
      major_end == std::string::npos ? major_end : release.find_first_not_of("0123456789", major_end + 1);
  return fmt::format("findings/{}/{}", kTreesFolder, release.substr(0, minor_end));
}

CorpusResult replay_corpus_on_tree(const std::string& root, const std::vector<std::string>& folders) {
  return replay_folders(root, folders, false, replay_on_tree);
}

namespace {
// ", 2 SKIPPED", or under CI (where a skip fails) ", 2 NOT RUN (CI=true: a skip fails)".
std::string skipped_text(std::uint64_t n, bool fail) {
  if (n == 0) return "";
  return fail ? fmt::format(", {} NOT RUN (CI=true: a skip fails)", n) : fmt::format(", {} SKIPPED", n);
}
}  // namespace

std::string corpus_report(const CorpusResult& r) {
  std::string out;
  for (const CorpusFolder& f : r.folders) {
    const std::uint64_t n = f.traces.size();
    const std::uint64_t failed = n - f.passed() - f.skipped();
    out += fmt::format("  {:<12} {:>4} traces, {:>4} pass{}{}{}\n", f.name, n, f.passed(),
                       failed == 0 ? "" : fmt::format(", {} FAIL", failed), skipped_text(f.skipped(), r.skips_fail),
                       f.for_trees == 0 ? ""
                                        : fmt::format(" ({} more under {}/ for kernel trees: corpus check --kernel-tree)",
                                                      f.for_trees, kTreesFolder));
  }
  for (const CorpusFolder& f : r.folders)
    for (const CorpusTrace& t : f.traces)
      if (t.outcome != replay::Outcome::clean)
        out += fmt::format("\nFAIL {} (exit {})\n{}  eevdf-check replay {}{}\n", t.path, static_cast<int>(t.outcome),
                           t.report, r.replay_options.empty() ? "" : r.replay_options + " ", t.path);
  if (r.skipped() != 0) {
    out += fmt::format("\n{} traces {}, each needing an engine this build lacks:\n", r.skipped(),
                       r.skips_fail ? "NOT RUN (CI=true: a skip fails)" : "SKIPPED");
    for (const CorpusFolder& f : r.folders)
      for (const CorpusTrace& t : f.traces)
        if (!t.skipped.empty()) out += fmt::format("  {}: {}\n", t.path, t.skipped);
  }
  return out;
}

}  // namespace eevdf::cli
