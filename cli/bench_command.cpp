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

#include "bench/bench.h"
#include "cli/commands.h"
#include "replay/replay.h"

namespace eevdf::cli {
namespace {

struct BenchFlags {
  std::vector<std::string> traces;
  bool json = false;
  int repetitions = 3;
  std::vector<std::string> models;
};

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
    std::cout << fmt::format("{:<12} {:>7} {:>11.0f} {:>12.0f} {:>12.0f} {:>10.2f} {:>10.1f} {:>11.0f}\n", r.name,
                             r.events, k, fs, fv, ratio(fv, fs), ratio(best, k), ratio(best, rate(r, "ideal")));
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
    std::cout << fmt::format("{:<12} {:>13.0f} {:>9.2f} | {:>7} {:>11.0f} {:>12.0f} {:>8.1f}\n", r.name, c,
                             ratio(k, c), prefix, i, kp, ratio(kp, i));
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
  std::cout << fmt::format("\n{:<14} {:>8} {:>15} {:>15} {:>9}\n", "kernel 6.12", "events", "6.12 ref ev/s",
                           "kernel-src ev/s", "ref/src");
  for (const auto& r : results) {
    if (!is_6_12(r)) continue;
    const double ref = rate(r, "kernel-6.12"), src = rate(r, "kernel-src");
    std::cout << fmt::format("{:<14} {:>8} {:>15.0f} {:>15} {:>9}\n", r.name, r.events, ref,
                             src > 0 ? fmt::format("{:.0f}", src) : "not built",
                             src > 0 ? fmt::format("{:.2f}", ref / src) : "-");
  }
}

int run(const BenchFlags& f) {
  const std::vector<std::string> traces = f.traces.empty() ? default_traces() : f.traces;
  std::vector<bench::TraceResult> results;
  for (const std::string& path : traces) {
    std::string text;
    if (!read_trace(path, text)) {
      std::cerr << fmt::format("{}: cannot read\n", path);
      return 2;
    }
    const std::string name = std::filesystem::path(path).filename().string();
    results.push_back(bench::run_trace(name.substr(0, name.find(".trace")), text, {f.repetitions, 10000, f.models}));
  }
  if (!f.json) {
    print_table(results);
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
  cmd->add_flag("--json", f->json, "Print a JSON object with events_per_s per model and trace");
  cmd->add_option("--repetitions", f->repetitions, "Runs per measurement; the best counts")->check(CLI::Range(1, 100));
  cmd->add_option("--model", f->models, "Measure only this model (repeatable; for profiling)")
      ->check(CLI::IsMember({"kernel", "fast-scalar", "fast-simd", "kernel+checks", "ideal"}))
      ->group("");
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
