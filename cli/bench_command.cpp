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

double rate_of(const bench::TraceResult& r, const std::string& model) {
  for (const auto& m : r.models)
    if (m.model == model) return m.events_per_s();
  return 0;
}

void print_table(const std::vector<bench::TraceResult>& results) {
  std::cout << fmt::format("{:<14} {:>8} {:>12} {:>13} {:>9} | {:>8} {:>11} {:>12} {:>8}\n", "trace", "events",
                           "kernel ev/s", "+checks ev/s", "checks x", "prefix", "ideal ev/s", "kernel ev/s", "k/ideal");
  for (const auto& r : results) {
    if (r.models.size() < 4) continue;  // a 6.12 trace: the table below
    const double k = r.models[0].events_per_s(), c = r.models[1].events_per_s();
    const double i = r.models[2].events_per_s(), kp = r.models[3].events_per_s();
    std::cout << fmt::format("{:<14} {:>8} {:>12.0f} {:>13.0f} {:>9.2f} | {:>8} {:>11.0f} {:>12.0f} {:>8.1f}\n", r.name,
                             r.events, k, c, c > 0 ? k / c : 0, r.models[2].events, i, kp, i > 0 ? kp / i : 0);
  }
  // `kernel 6.12` traces: the reference's 6.12 profile beside kernel-src (the real fair.c).
  if (replay::have_kernel_src()) std::cout << fmt::format("\nkernel-src: {}", replay::kernel_src_version());
  std::cout << fmt::format("\n{:<14} {:>8} {:>15} {:>15} {:>9}\n", "kernel 6.12", "events", "6.12 ref ev/s",
                           "kernel-src ev/s", "ref/src");
  for (const auto& r : results) {
    if (r.models.size() >= 4) continue;
    const double ref = rate_of(r, "kernel-6.12"), src = rate_of(r, "kernel-src");
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
    results.push_back(bench::run_trace(name.substr(0, name.find(".trace")), text, {f.repetitions, 10000}));
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
  return [f] { return run(*f); };
}

}  // namespace eevdf::cli
