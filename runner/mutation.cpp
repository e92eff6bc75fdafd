// The mutation analysis of mutation.h.
#include "runner/mutation.h"

#ifdef EEVDF_HAVE_KERNEL_SRC

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <map>
#include <memory>

#include "replay/implementation.h"
#include "runner/kernel_src_oracle.h"
#include "runner/trace_run.h"
#include "trace/writer.h"

namespace eevdf::runner {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The outcome through the pipe: fields as <length>:<bytes>.
void put(std::string& out, const std::string& field) { out += std::to_string(field.size()) + ":" + field; }
bool take(const std::string& in, std::size_t& at, std::string& field) {
  const std::size_t colon = in.find(':', at);
  if (colon == std::string::npos) return false;
  const std::size_t n = std::stoul(in.substr(at, colon - at));
  if (colon + 1 + n > in.size()) return false;
  field = in.substr(colon + 1, n);
  at = colon + 1 + n;
  return true;
}

std::string encode(const MutantOutcome& o) {
  std::string s;
  for (const std::string& f :
       {std::to_string(static_cast<int>(o.verdict)), o.by, std::to_string(o.trace), std::to_string(o.traces_run),
        std::to_string(o.events), std::to_string(o.reached), std::to_string(o.diff_trace),
        std::to_string(o.diff_line), o.difference, o.shrunk, std::to_string(o.budget_reached ? 1 : 0)})
    put(s, f);
  return s;
}

bool decode(const std::string& s, MutantOutcome& o) {
  std::vector<std::string> f(11);
  std::size_t at = 0;
  for (std::string& x : f)
    if (!take(s, at, x)) return false;
  o.verdict = static_cast<Verdict>(std::stoi(f[0]));
  o.by = f[1];
  o.trace = std::stoull(f[2]);
  o.traces_run = std::stoull(f[3]);
  o.events = std::stoull(f[4]);
  o.reached = std::stoul(f[5]);
  o.diff_trace = std::stoull(f[6]);
  o.diff_line = std::stoi(f[7]);
  o.difference = f[8];
  o.shrunk = f[9];
  o.budget_reached = f[10] == "1";
  return true;
}

bool is_crash(const FirstViolation& v) { return v.explanation.find("would have crashed") != std::string::npos; }

// The campaign on mutant `id` (0: the unmutated code), to its first violation that
// the baseline does not have.
MutantOutcome campaign(const Options& o, unsigned id, const Baseline& baseline, double budget_s) {
  MutantOutcome out;
  const Clock::time_point start = Clock::now();
  kernel_src::set_thread_mutant(id, &out.reached);
  for (std::uint64_t index = 0; index < o.traces_max; ++index) {
    if (index > 0 && budget_s > 0 && ms_since(start) >= budget_s * 1000) {
      out.budget_reached = true;
      break;
    }
    const TraceOutcome t = run_trace(o, index);
    ++out.traces_run;
    out.events += t.tally.events;
    if (!t.tally.internal_error.empty()) {
      out.verdict = Verdict::crashed;
      out.by = "the checker failed: " + t.tally.internal_error;
      out.trace = index;
      break;
    }
    for (const auto& [finding, v] : t.tally.first_finding)
      if (baseline.findings.count(finding) == 0) {
        out.verdict = Verdict::crashed;
        out.by = fmt::format("{} ({})", finding, v.property);
        out.trace = index;
      }
    for (const auto& [property, v] : t.tally.first_failure)
      if (baseline.properties.count(property) == 0 && out.by.empty()) {
        out.verdict = is_crash(v) ? Verdict::crashed : Verdict::killed;
        out.by = is_crash(v) ? "crash: " + v.values : property;
        out.trace = index;
      }
    if (!out.by.empty()) break;
  }
  kernel_src::set_thread_mutant(0, nullptr);
  return out;
}

replay::ImplementationFactory implementation(const kernel_src::c::ksrc_api* api, unsigned id, std::string name) {
  return replay::kernel_src_implementation(
      [api, id](const model::Config& c, const std::vector<model::TaskSpec>& specs) {
        auto m = std::make_unique<kernel_src::Machine>(c, specs, api);
        m->set_mutant(id, nullptr);
        return m;
      },
      std::move(name));
}

// The mutant no property killed against the unmutated code, in lockstep.
void compare(const kernel_src::MutantTree& tree, const MutationOptions& options, unsigned id, MutantOutcome& out) {
  TreeDiffOptions d = options.diff;
  d.jobs = 1;
  d.traces = out.traces_run;  // the campaign's traces (fewer when it reached the budget)
  d.oracle = kernel_src_oracle(tree.tree.api);
  kernel_src::set_thread_mutant(id, nullptr);  // the traces valid on the mutant
  const auto a = implementation(tree.tree.api, id, "mutant " + tree.mutants[id - 1].id);
  const auto b = implementation(tree.tree.api, 0, "unmutated");
  const TreeDiffResult r = run_tree_diff(d, a, b);
  if (!r.first) {
    out.verdict = Verdict::equivalent;
  } else {
    out.verdict = Verdict::survived;
    out.diff_trace = r.first->index;
    out.diff_line = r.first->line;
    out.difference = r.first->difference;
    const ShrunkDifference s = shrink_difference(d, *r.first, a, b, options.shrink_seconds);
    out.shrunk = trace::to_text(s.trace);
  }
  kernel_src::set_thread_mutant(0, nullptr);
}

MutantOutcome analyse(const kernel_src::MutantTree& tree, const MutationOptions& options, const Baseline& baseline,
                      unsigned id) {
  MutantOutcome out = campaign(options.run, id, baseline, options.budget_s);
  if (!out.by.empty()) return out;
  if (out.reached == 0) {
    out.verdict = Verdict::not_reached;
    return out;
  }
  compare(tree, options, id, out);
  return out;
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::size_t index = 0;
  Clock::time_point start;
  std::string data;
};

void write_all(int fd, const std::string& s) {
  std::size_t at = 0;
  while (at < s.size()) {
    const ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n <= 0) return;
    at += static_cast<std::size_t>(n);
  }
}

// Ends a child: its outcome, or the crash that stopped it from giving one.
MutantOutcome reap(Child& c, bool timed_out, double timeout_s) {
  if (timed_out) ::kill(c.pid, SIGKILL);
  int status = 0;
  ::waitpid(c.pid, &status, 0);
  ::close(c.fd);
  MutantOutcome out;
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 && decode(c.data, out)) {
  } else {
    out = MutantOutcome{};
    out.verdict = Verdict::crashed;
    out.by = timed_out              ? fmt::format("no answer within {} s", timeout_s)
             : WIFSIGNALED(status) ? fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                                   : "the analysis process failed";
  }
  out.ms = ms_since(c.start);
  return out;
}

}  // namespace

Baseline run_baseline(const Options& run) {
  Baseline b;
  kernel_src::set_thread_mutant(0, nullptr);
  for (std::uint64_t index = 0; index < run.traces_max; ++index) {
    const TraceOutcome t = run_trace(run, index);
    for (const auto& [property, v] : t.tally.first_failure) b.properties.insert(property);
    for (const auto& [finding, v] : t.tally.first_finding) b.findings.insert(finding);
  }
  return b;
}

std::vector<MutantOutcome> analyse_mutants(const kernel_src::MutantTree& tree, const MutationOptions& options,
                                           const Baseline& baseline,
                                           const std::function<void(std::size_t, const MutantOutcome&)>& done) {
  std::vector<MutantOutcome> outcomes(tree.mutants.size());
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < tree.mutants.size() || !running.empty()) {
    while (next < tree.mutants.size() && static_cast<int>(running.size()) < options.jobs) {
      int fds[2];
      if (::pipe(fds) != 0) throw std::runtime_error("mutate: cannot make a pipe");
      Child c;
      c.index = next++;
      c.start = Clock::now();
      c.pid = ::fork();
      if (c.pid < 0) throw std::runtime_error("mutate: cannot fork");
      if (c.pid == 0) {
        ::close(fds[0]);
        const MutantOutcome o = analyse(tree, options, baseline, static_cast<unsigned>(c.index + 1));
        write_all(fds[1], encode(o));
        ::close(fds[1]);
        ::_exit(0);
      }
      ::close(fds[1]);
      c.fd = fds[0];
      running.push_back(std::move(c));
    }
    std::vector<pollfd> fds;
    for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 200);
    for (std::size_t k = running.size(); k-- > 0;) {
      Child& c = running[k];
      bool ended = false;
      if ((fds[k].revents & (POLLIN | POLLHUP)) != 0) {
        char buf[65536];
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n > 0) c.data.append(buf, static_cast<std::size_t>(n));
        else ended = true;
      }
      const bool timed_out = !ended && ms_since(c.start) > options.timeout_s * 1000;
      if (!ended && !timed_out) continue;
      outcomes[c.index] = reap(c, timed_out, options.timeout_s);
      if (done) done(c.index, outcomes[c.index]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return outcomes;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::killed: return "killed";
    case Verdict::crashed: return "killed (crash)";
    case Verdict::survived: return "survived";
    case Verdict::not_reached: return "not reached";
    case Verdict::equivalent: return "equivalent (suspected)";
  }
  return "?";
}

}  // namespace eevdf::runner

#else

namespace eevdf::runner {
const char* verdict_name(Verdict) { return "?"; }
}  // namespace eevdf::runner

#endif
