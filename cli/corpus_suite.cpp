// The corpus suite and its filing rules; see corpus.h.
#include "cli/corpus_suite.h"

#include <fmt/format.h>

#include <algorithm>   // std::sort
#include <filesystem>  // the listing
#include <fstream>     // the traces
#include <sstream>     // captured reports


namespace eevdf::cli {
namespace {

std::vector<std::string> traces_under(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".trace") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());  // the report's order never depends on the file system's
  return out;
}

CorpusTrace replay_one(const std::string& path) {
  CorpusTrace t;
  t.path = path;
  std::ifstream in(path);
  std::ostringstream out, err;
  if (!in) {
    t.outcome = replay::Outcome::bad_input;
    t.report = fmt::format("{}: cannot open file\n", path);
    return t;
  }
  // replay::Options{}: the trace's own header decides (no --inject, no --features).
  t.outcome = replay::replay(in, path, replay::Options{}, out, err);
  if (t.outcome != replay::Outcome::clean) t.report = out.str() + err.str();
  return t;
}

}  // namespace

std::uint64_t CorpusFolder::passed() const {
  return static_cast<std::uint64_t>(std::count_if(traces.begin(), traces.end(), [](const CorpusTrace& t) {
    return t.outcome == replay::Outcome::clean;
  }));
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

CorpusResult replay_corpus(const std::string& root, const std::vector<std::string>& folders) {
  CorpusResult r;
  for (const std::string& name : folders) {
    CorpusFolder f;
    f.name = name;
    for (const std::string& path : traces_under(std::filesystem::path(root) / name)) {
      f.traces.push_back(replay_one(path));
      r.worst = replay::worst(r.worst, f.traces.back().outcome);
    }
    r.folders.push_back(std::move(f));
  }
  return r;
}

std::string corpus_report(const CorpusResult& r) {
  std::string out;
  for (const CorpusFolder& f : r.folders) {
    const std::uint64_t n = f.traces.size();
    out += fmt::format("  {:<12} {:>4} traces, {:>4} pass{}\n", f.name, n, f.passed(),
                       f.passed() == n ? "" : fmt::format(", {} FAIL", n - f.passed()));
  }
  for (const CorpusFolder& f : r.folders)
    for (const CorpusTrace& t : f.traces)
      if (t.outcome != replay::Outcome::clean)
        out += fmt::format("\nFAIL {} (exit {})\n{}  eevdf-check replay {}\n", t.path, static_cast<int>(t.outcome),
                           t.report, t.path);
  return out;
}

}  // namespace eevdf::cli
