// The lab's tables (report.h). Values are kept as integers (ns, counts) until printed;
// ms and us are printed with fixed precision, so the text is the same on any machine.
#include "lab/report.h"

#include <algorithm>  // sort, min, max
#include <map>        // metrics by key

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace eevdf::lab {
namespace {

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }
double us(std::uint64_t ns) { return static_cast<double>(ns) / 1e3; }

struct GroupTotals {
  int tasks = 0;
  TaskStats sum;  // wakeup latencies merged, sorted
  std::uint64_t share_min = ~0ull, share_max = 0;  // per task runtime
};

std::vector<GroupTotals> totals(const RunResult& r) {
  std::vector<GroupTotals> g(r.group_names.size());
  for (std::size_t p = 0; p < r.tasks.size(); ++p) {
    GroupTotals& t = g[static_cast<std::size_t>(r.task_group[p])];
    const TaskStats& s = r.tasks[p];
    ++t.tasks;
    t.sum.runtime_ns += s.runtime_ns;
    t.sum.switches += s.switches;
    t.sum.delays += s.delays;
    t.sum.delay_sum_ns += s.delay_sum_ns;
    t.sum.delay_max_ns = std::max(t.sum.delay_max_ns, s.delay_max_ns);
    t.sum.wakeup_latencies_ns.insert(t.sum.wakeup_latencies_ns.end(), s.wakeup_latencies_ns.begin(),
                                     s.wakeup_latencies_ns.end());
    t.sum.preempt_wakeup += s.preempt_wakeup;
    t.sum.preempt_tick += s.preempt_tick;
    t.sum.preempt_other += s.preempt_other;
    t.share_min = std::min(t.share_min, s.runtime_ns);
    t.share_max = std::max(t.share_max, s.runtime_ns);
  }
  for (GroupTotals& t : g) std::sort(t.sum.wakeup_latencies_ns.begin(), t.sum.wakeup_latencies_ns.end());
  return g;
}

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

constexpr unsigned kPercentiles[] = {500, 900, 990, 999};
const char* percentile_name(unsigned pm) {
  switch (pm) {
    case 500: return "p50";
    case 900: return "p90";
    case 990: return "p99";
    default: return "p99.9";
  }
}

// The unit a metric is printed in, from its name's suffix.
int decimals(const std::string& name) {
  if (name.ends_with("_ms") || name.ends_with("_us") || name.ends_with("_pct")) return 3;
  return 0;
}

std::string number(const std::string& name, double v) { return fmt::format("{:.{}f}", v, decimals(name)); }

std::string perf_table(const RunResult& r) {
  std::string out = fmt::format(
      " {:<16} | {:>12} | {:>9} | {:>13} | {:>13} | {:>13} | {:>17} | {:>14}\n", "Task group", "Runtime ms",
      "Switches", "Avg delay us", "Max delay us", "Sum delay ms", "Preempt wake/tick", "CPU % min..max");
  out += std::string(out.size() - 1, '-') + "\n";
  const std::vector<GroupTotals> g = totals(r);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const TaskStats& s = g[i].sum;
    const double avg = s.delays == 0 ? 0.0 : us(s.delay_sum_ns) / static_cast<double>(s.delays);
    out += fmt::format(" {:<16} | {:>12.3f} | {:>9} | {:>13.3f} | {:>13.3f} | {:>13.3f} | {:>17} | {:>14}\n",
                       fmt::format("{}:({})", r.group_names[i], g[i].tasks), ms(s.runtime_ns), s.switches, avg,
                       us(s.delay_max_ns), ms(s.delay_sum_ns),
                       fmt::format("{}/{}", s.preempt_wakeup, s.preempt_tick),
                       fmt::format("{:.1f}..{:.1f}", percent(g[i].share_min, r.duration_ns),
                                   percent(g[i].share_max, r.duration_ns)));
  }
  out += "\n Wakeup latency us   |      P50 |      P90 |      P99 |    P99.9 |      max | wakeups\n";
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto& v = g[i].sum.wakeup_latencies_ns;
    out += fmt::format(" {:<19}", r.group_names[i]);
    for (const unsigned pm : kPercentiles) out += fmt::format(" | {:>8.3f}", us(percentile(v, pm)));
    out += fmt::format(" | {:>8.3f} | {:>7}\n", us(v.empty() ? 0 : v.back()), v.size());
  }
  out += fmt::format("\n iowait time: {:.3f} ms by nr_iowait, {:.3f} ms by nr_iowait_acct ({} events, {:.3f} s)\n",
                     ms(r.iowait_ns), ms(r.iowait_acct_ns), r.events, static_cast<double>(r.duration_ns) / 1e9);
  return out;
}

struct Spread {
  double mean = 0, min = 0, max = 0;
};

Spread spread(const std::vector<double>& v) {
  Spread s{0, v.empty() ? 0 : v.front(), v.empty() ? 0 : v.front()};
  for (const double x : v) {
    s.mean += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  if (!v.empty()) s.mean /= static_cast<double>(v.size());
  return s;
}

// Per side, each metric's values over the runs, keyed by (group, name) in first order.
struct Collected {
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<std::map<std::pair<std::string, std::string>, std::vector<double>>> per_side;
};

Collected collect(const std::vector<Side>& sides) {
  Collected c;
  for (const Side& side : sides) {
    auto& m = c.per_side.emplace_back();
    for (const RunResult& r : side.runs)
      for (const Metric& x : metrics(r)) {
        const auto key = std::make_pair(x.group, x.name);
        if (std::find(c.keys.begin(), c.keys.end(), key) == c.keys.end()) c.keys.push_back(key);
        m[key].push_back(x.value);
      }
  }
  return c;
}

std::string cell(const std::string& name, const std::vector<double>& v) {
  if (v.empty()) return "-";
  const Spread s = spread(v);
  if (v.size() == 1) return number(name, s.mean);
  return fmt::format("{} [{}..{}]", number(name, s.mean), number(name, s.min), number(name, s.max));
}

std::string comparison_table(const std::vector<Side>& sides) {
  const Collected c = collect(sides);
  std::vector<std::string> head{"group", "metric"};
  for (std::size_t s = 0; s < sides.size(); ++s)
    head.push_back(sides.size() == 1 ? sides[s].label
                                     : fmt::format("{}: {}", static_cast<char>('A' + s), sides[s].label));
  if (sides.size() == 2) head.push_back("B - A");
  std::vector<std::vector<std::string>> rows{head};
  for (const auto& key : c.keys) {
    std::vector<std::string> row{key.first.empty() ? "(all)" : key.first, key.second};
    for (const auto& m : c.per_side) {
      const auto it = m.find(key);
      row.push_back(it == m.end() ? "-" : cell(key.second, it->second));
    }
    if (sides.size() == 2) {
      const auto a = c.per_side[0].find(key), b = c.per_side[1].find(key);
      if (a != c.per_side[0].end() && b != c.per_side[1].end()) {
        const double ma = spread(a->second).mean, mb = spread(b->second).mean;
        std::string d = fmt::format("{}{}", mb - ma > 0 ? "+" : "", number(key.second, mb - ma));
        if (ma != 0) d += fmt::format(" ({:+.1f}%)", 100.0 * (mb - ma) / ma);
        row.push_back(d);
      } else {
        row.push_back("-");
      }
    }
    rows.push_back(row);
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out += " ";
    for (std::size_t i = 0; i < rows[r].size(); ++i)
      out += i < 2 ? fmt::format("{:<{}}  ", rows[r][i], width[i]) : fmt::format("{:>{}}  ", rows[r][i], width[i]);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
    if (r == 0) out += " " + std::string(out.size() - 2, '-') + "\n";
  }
  return out;
}

// What the properties judged on a side: how many properties, how often, what they found.
std::string checked_line(const Side& side) {
  std::map<std::string, std::uint64_t> evaluated;
  std::uint64_t violations = 0;
  for (const RunResult& r : side.runs) {
    for (const auto& [name, count] : r.evaluated) evaluated[name] += count;
    for (const auto& [name, count] : r.violation_counts) violations += count;
  }
  std::uint64_t judged = 0;
  for (const auto& [name, count] : evaluated) judged += count;
  return fmt::format(" checked ({}): {} properties judged {} times, {} violation{}\n", side.label, evaluated.size(),
                     judged, violations, violations == 1 ? "" : "s");
}

}  // namespace

std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, unsigned per_mille) {
  if (sorted.empty()) return 0;
  const std::size_t rank = (per_mille * sorted.size() + 999) / 1000;  // ceil(q n), at least 1
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

std::vector<Metric> metrics(const RunResult& r) {
  std::vector<Metric> out;
  const std::vector<GroupTotals> g = totals(r);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const std::string& name = r.group_names[i];
    const TaskStats& s = g[i].sum;
    const auto& v = s.wakeup_latencies_ns;
    out.push_back({name, "runtime_ms", ms(s.runtime_ns)});
    out.push_back({name, "switches", static_cast<double>(s.switches)});
    out.push_back({name, "avg_delay_us", s.delays == 0 ? 0.0 : us(s.delay_sum_ns) / static_cast<double>(s.delays)});
    out.push_back({name, "max_delay_us", us(s.delay_max_ns)});
    out.push_back({name, "sum_delay_ms", ms(s.delay_sum_ns)});
    for (const unsigned pm : kPercentiles)
      out.push_back({name, fmt::format("wakeup_{}_us", percentile_name(pm)), us(percentile(v, pm))});
    out.push_back({name, "wakeup_max_us", us(v.empty() ? 0 : v.back())});
    out.push_back({name, "wakeups", static_cast<double>(v.size())});
    out.push_back({name, "preempt_wakeup", static_cast<double>(s.preempt_wakeup)});
    out.push_back({name, "preempt_tick", static_cast<double>(s.preempt_tick)});
    out.push_back({name, "cpu_pct", percent(s.runtime_ns, r.duration_ns)});
  }
  out.push_back({"", "iowait_ms", ms(r.iowait_ns)});
  out.push_back({"", "iowait_acct_ms", ms(r.iowait_acct_ns)});
  out.push_back({"", "events", static_cast<double>(r.events)});
  return out;
}

std::string format_report(const std::vector<Side>& sides) {
  std::string out =
      sides.size() == 1 && sides[0].runs.size() == 1 ? perf_table(sides[0].runs[0]) : comparison_table(sides);
  out += "\n";
  for (const Side& side : sides) out += checked_line(side);
  return out;
}

nlohmann::json report_json(const std::vector<Side>& sides) {
  nlohmann::json j = nlohmann::json::array();
  for (const Side& side : sides) {
    nlohmann::json runs = nlohmann::json::array();
    for (const RunResult& r : side.runs) {
      nlohmann::json groups = nlohmann::json::object();
      nlohmann::json run = {{"seed", r.seed},           {"duration_ns", r.duration_ns}, {"events", r.events},
                            {"iowait_ns", r.iowait_ns}, {"iowait_acct_ns", r.iowait_acct_ns},
                            {"halted", r.halted}};
      for (const Metric& m : metrics(r))
        if (!m.group.empty()) groups[m.group][m.name] = m.value;
      run["groups"] = groups;
      nlohmann::json tasks = nlohmann::json::object();
      for (std::size_t p = 0; p < r.tasks.size(); ++p)
        tasks[r.task_names[p]] = {{"runtime_ns", r.tasks[p].runtime_ns}, {"switches", r.tasks[p].switches},
                                  {"delay_sum_ns", r.tasks[p].delay_sum_ns},
                                  {"delay_max_ns", r.tasks[p].delay_max_ns},
                                  {"preempt_wakeup", r.tasks[p].preempt_wakeup},
                                  {"preempt_tick", r.tasks[p].preempt_tick}};
      run["tasks"] = tasks;
      nlohmann::json violations = nlohmann::json::object();
      for (const auto& [name, count] : r.violation_counts) violations[name] = count;
      run["violations"] = violations;
      nlohmann::json evaluated = nlohmann::json::object();
      for (const auto& [name, count] : r.evaluated) evaluated[name] = count;
      run["evaluated"] = evaluated;
      runs.push_back(run);
    }
    j.push_back({{"label", side.label}, {"runs", runs}});
  }
  return j;
}

std::string format_violations(const std::vector<Side>& sides) {
  std::string out;
  for (const Side& side : sides)
    for (const RunResult& r : side.runs) {
      for (const auto& [name, count] : r.violation_counts)
        out += fmt::format("{} seed {}: property {} violated {} time{}\n", side.label, r.seed, name, count,
                           count == 1 ? "" : "s");
      for (const properties::Violation& v : r.violations)
        out += fmt::format("  {} at {} ns (trace line {}){}: {}{}\n", v.property, v.time_ns, v.line,
                           v.cpu >= 0 ? fmt::format(" on CPU {}", v.cpu) : "", v.values,
                           v.explanation.empty() ? "" : " (" + v.explanation + ")");
      if (r.halted) out += fmt::format("{} seed {}: the implementation halted at {} ns\n", side.label, r.seed, r.duration_ns);
    }
  return out;
}

}  // namespace eevdf::lab
