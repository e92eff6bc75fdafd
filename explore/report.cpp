#include "explore/report.h"

#include <fmt/format.h>

#include "explore/tree.h"
#include "trace/writer.h"

namespace eevdf::explore {

namespace {

std::string ms(double seconds) { return fmt::format("{:.3f}", seconds); }

double states_per_second(const Result& r) { return r.cpu_seconds > 0 ? static_cast<double>(r.distinct) / r.cpu_seconds : 0; }

std::string verbs_of(const Alphabet& a) {
  std::string out;
  for (std::size_t v = 0; v < a.verbs.size(); ++v)
    if (a.verbs[v]) out += (out.empty() ? "" : ",") + std::string(trace::kVerbNames[v]);
  return out;
}

}  // namespace

std::string describe(const trace::Header& h, const Options& o) {
  const Alphabet& a = o.alphabet;
  std::string s = o.kernel_tree ? selected_tree_name() + ", " : std::string();
  s += fmt::format("kernel {}, {} CPUs, {} tasks, depth {}, quantum {} ns, gaps 0..{}, verbs {}",
                              h.kernel.value_or("6.18"), h.topology_or_default().ncpus(), h.tasks.size(), o.depth,
                              a.quantum_ns, a.max_gap, verbs_of(a));
  if (!a.nices.empty()) s += fmt::format(", nices {}", fmt::join(a.nices, ","));
  if (!a.slices.empty()) s += fmt::format(", slices(ns) {}", fmt::join(a.slices, ","));
  if (!a.io) s += ", no io sleeps";
  if (a.tick_all) s += ", tick all";
  for (const auto& [name, on] : h.features) s += fmt::format(", {}{}", on ? "" : "NO_", name);
  for (const auto& i : h.injections) s += fmt::format(", inject {}", i);
  s += fmt::format("; symmetry {}, POR {}, {} job{}", o.symmetry ? "on" : "off", o.por ? "on" : "off", o.jobs,
                   o.jobs == 1 ? "" : "s");
  return s;
}

std::string format_progress(int depth, const Result& r) {
  const Level& l = r.levels.back();
  return fmt::format("  depth {:>2}: {:>10} new states, {:>11} transitions, {:>10} distinct, {} s\n", depth, l.states,
                     l.transitions, r.distinct, ms(l.seconds));
}

std::string format_report(const std::string& setting, const Options& o, const Result& r) {
  std::string s = "explore: " + setting + "\n\n";
  s += fmt::format("{:>5} {:>12} {:>13} {:>11} {:>11} {:>9}\n", "depth", "new states", "transitions", "POR pruned",
                   "sym merged", "seconds");
  for (std::size_t d = 0; d < r.levels.size(); ++d) {
    const Level& l = r.levels[d];
    s += fmt::format("{:>5} {:>12} {:>13} {:>11} {:>11} {:>9}\n", d, l.states, l.transitions, l.pruned_por,
                     l.merged_symmetry, ms(l.seconds));
  }
  std::uint64_t pruned = 0, merged = 0, illegal = 0;
  for (const Level& l : r.levels) {
    pruned += l.pruned_por;
    merged += l.merged_symmetry;
    illegal += l.illegal;
  }
  s += fmt::format(
      "\ndistinct states {}, transitions {}, depth reached {}; {}\n", r.distinct, r.transitions, r.depth_reached,
      r.exhausted ? fmt::format("every state within depth {} visited", o.depth)
                  : fmt::format("stopped at depth {}", r.levels.size() - 1));
  s += fmt::format("reductions: POR left out {} moves; symmetry over {}{}", pruned,
                   r.symmetric_tasks ? "tasks" : "nothing", r.symmetric_cpus ? " and CPUs" : "");
  s += o.symmetry_stats ? fmt::format(" merged {} transitions into known states\n", merged)
                        : std::string(" (--symmetry-stats counts its merges)\n");
  if (illegal > 0) s += fmt::format("moves the implementation refused: {}\n", illegal);
  s += fmt::format("fingerprints: 64-bit, probability of a collision among them <= {:.2g}\n", r.collision_probability);
  s += fmt::format("speed: {:.0f} distinct states per CPU second ({} s CPU, {} s wall), memory {:.1f} MiB\n",
                   states_per_second(r), ms(r.cpu_seconds), ms(r.wall_seconds),
                   static_cast<double>(r.memory_bytes) / (1 << 20));
  if (!r.coverage.empty()) {
    s += "kernel paths taken (transitions):";
    for (std::size_t k = 0; k < r.coverage.size(); ++k)
      s += fmt::format("{}{} {}", k == 0 ? " " : ", ", r.coverage[k].first, r.coverage[k].second);
    s += "\n";
  }
  if (r.reach_asked)
    s += r.reached ? fmt::format("reach: reachable in {} events (the witness below)\n", r.witness.events.size())
                   : fmt::format("reach: not reachable within depth {}\n", o.depth);
  for (const Counterexample& c : r.findings)
    s += fmt::format("known finding {} ({}) at depth {}: {}\n", c.finding, c.property, c.depth, c.values);
  if (r.violations.empty()) {
    s += r.findings.empty() ? "result: clean\n" : "result: no violation but known findings\n";
  } else {
    for (const Counterexample& c : r.violations)
      s += fmt::format("violation {} at depth {}: {} ({})\n", c.property, c.depth, c.values, c.explanation);
    s += fmt::format("result: {} propert{} violated\n", r.violations.size(), r.violations.size() == 1 ? "y" : "ies");
  }
  return s;
}

nlohmann::json report_json(const trace::Header& h, const Options& o, const Result& r) {
  nlohmann::json levels = nlohmann::json::array();
  for (const Level& l : r.levels)
    levels.push_back({{"states", l.states},
                      {"transitions", l.transitions},
                      {"pruned_por", l.pruned_por},
                      {"merged_symmetry", l.merged_symmetry},
                      {"illegal", l.illegal},
                      {"seconds", l.seconds}});
  const auto list = [](const std::vector<Counterexample>& cs) {
    nlohmann::json out = nlohmann::json::array();
    for (const Counterexample& c : cs) {
      nlohmann::json events = nlohmann::json::array();
      for (const auto& e : c.path.events) events.push_back(trace::format_event(e));
      out.push_back(
          {{"property", c.property}, {"depth", c.depth}, {"values", c.values}, {"explanation", c.explanation}, {"events", events}});
      if (!c.finding.empty()) out.back()["finding"] = c.finding;
    }
    return out;
  };
  nlohmann::json j{{"setting", describe(h, o)},
                   {"depth_bound", o.depth},
                   {"levels", levels},
                   {"distinct_states", r.distinct},
                   {"transitions", r.transitions},
                   {"depth_reached", r.depth_reached},
                   {"exhausted", r.exhausted},
                   {"symmetric_tasks", r.symmetric_tasks},
                   {"symmetric_cpus", r.symmetric_cpus},
                   {"collision_probability", r.collision_probability},
                   {"memory_bytes", r.memory_bytes},
                   {"cpu_seconds", r.cpu_seconds},
                   {"wall_seconds", r.wall_seconds},
                   {"states_per_cpu_second", states_per_second(r)},
                   {"violations", list(r.violations)},
                   {"findings", list(r.findings)}};
  nlohmann::json coverage = nlohmann::json::object();
  for (const auto& [name, n] : r.coverage) coverage[name] = n;
  if (!r.coverage.empty()) j["coverage"] = coverage;
  if (r.reach_asked) {
    nlohmann::json witness = nlohmann::json::array();
    for (const auto& e : r.witness.events) witness.push_back(trace::format_event(e));
    j["reach"] = {{"reached", r.reached}, {"witness", witness}};
  }
  return j;
}

std::string counterexample_text(const trace::Header& header, const Options& o, const Result& r) {
  trace::Trace t;
  t.header = header;
  t.header.expect_violations.clear();
  t.header.expect_findings.clear();
  t.header.expect_clean = false;
  t.header.preamble.clear();
  const Path* path = nullptr;
  if (!r.violations.empty()) {
    const Counterexample& c = r.violations.front();
    t.header.preamble.push_back(fmt::format(" eevdf-check explore: the shortest path to a violation of {} ({} events", c.property,
                                            c.depth));
    t.header.preamble.push_back(fmt::format(" after the start state; {}).", describe(header, o)));
    for (const Counterexample& same : r.violations)  // every property the same path violated
      if (same.path.events == c.path.events) t.header.expect_violations.push_back(same.property);
    path = &c.path;
  } else if (!r.findings.empty() && !r.reach_asked) {
    const Counterexample& c = r.findings.front();
    t.header.preamble.push_back(fmt::format(" eevdf-check explore: the shortest path to the known finding {} ({} events",
                                            c.finding, c.depth));
    t.header.preamble.push_back(fmt::format(" after the start state; {}).", describe(header, o)));
    t.header.expect_findings.push_back(c.finding);
    path = &c.path;
  } else if (r.reached) {
    t.header.preamble.push_back(" eevdf-check explore: the shortest path to a state where the --reach query holds");
    t.header.preamble.push_back(fmt::format(" ({}).", describe(header, o)));
    path = &r.witness;
  } else {
    return "";
  }
  for (const auto& e : path->events) t.body.emplace_back(e);
  if (r.violations.empty())
    for (const auto& x : o.reach) t.body.emplace_back(x);
  return trace::to_text(t);
}

}  // namespace eevdf::explore
