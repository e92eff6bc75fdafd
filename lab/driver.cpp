// The discrete-event driver (driver.h). One loop over simulated time: at each instant,
// forks, then timed wakeups, then the tick, then the bursts that end, in task and CPU
// order, so that a run is a function of the workload, the target and the seed alone.
#include "lab/driver.h"

#include <algorithm>  // min, max
#include <limits>     // the no-event time
#include <sstream>    // the header's line count

#include <fmt/format.h>

#include "generator/prng.h"
#include "lab/dist.h"
#include "lab/target_kernel_tree.h"
#include "model/tunables.h"
#include "trace/error.h"
#include "trace/writer.h"

namespace eevdf::lab {
namespace {

// A vector's element at an int index (task indices and CPUs are ints).
template <class V>
auto& el(V& v, int i) {
  return v[static_cast<std::size_t>(i)];
}

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kViolationsKept = 3;
// Statements one task may run at one instant before the driver calls the workload stuck.
constexpr int kStepsPerInstant = 100000;

enum class Mode { unstarted, active, sleeping, waiting };

struct TaskRun {
  int group = 0;
  int index = 0;  // within its group
  Mode mode = Mode::unstarted;
  std::size_t pc = 0;
  bool in_burst = false;
  std::uint64_t burst_left = 0;  // at oncpu_since, while in_burst
  std::uint64_t wake_at = kNever;
  std::uint64_t tokens = 0;     // wakes that came before its `wait`
  std::vector<int> cursor;      // per statement: the `wake ... one` turn
  std::uint64_t oncpu_since = 0;
  std::uint64_t runnable_since = 0;
  bool woken = false;           // runnable since a wake: its switch-in is a wakeup latency
  int last_cpu = -1;
};

class CollectingSink final : public properties::Sink {
 public:
  explicit CollectingSink(RunResult& r) : r_(r) {}
  void violation(const properties::Violation& v) override {
    if (r_.violations.size() < kViolationsKept) r_.violations.push_back(v);
    ++r_.violation_counts[std::string(v.property)];
  }
  void measure(std::string_view, const std::string&, const std::string&) override {}

 private:
  RunResult& r_;
};

class Driver {
 public:
  Driver(const Workload& w, const TargetSpec& spec, const RunOptions& o, RunResult& r)
      : w_(w), o_(o), r_(r), sink_(r), prng_(o.seed) {
    header_ = lab_header(w, o.features);
    if (spec.kind == TargetSpec::kernel_tree && !header_.kernel) header_.kernel = selected_tree_profile(o.file);
    target_ = make_target(spec, header_, sink_, o.file);
    ncpus_ = header_.topology_or_default().ncpus();
    tick_ns_ = model::tick_nsec(static_cast<std::uint64_t>(header_.hz_or_default()));
    end_ = o.duration_ns.value_or(w.duration_ns);
    for (std::size_t g = 0; g < w.groups.size(); ++g) {
      r.group_names.push_back(w.groups[g].name);
      for (int i = 0; i < w.groups[g].count; ++i) {
        TaskRun t;
        t.group = static_cast<int>(g);
        t.index = i;
        t.cursor.assign(w.groups[g].program.size(), 0);
        tasks_.push_back(t);
        r.task_names.push_back(fmt::format("{}.{}", w.groups[g].name, i));
        r.task_group.push_back(static_cast<int>(g));
      }
      first_of_group_.push_back(static_cast<int>(tasks_.size()) - w.groups[g].count);
      std::vector<int>& cpus = cpus_of_group_.emplace_back(w.groups[g].cpus);
      if (cpus.empty())
        for (int c = 0; c < ncpus_; ++c) cpus.push_back(c);  // none given: all
    }
    r.tasks.assign(tasks_.size(), {});
    curr_.assign(static_cast<std::size_t>(ncpus_), -1);
    if (o.window) {
      Timeline& t = r.timeline.emplace();
      t.from_ns = o.window->first;
      t.to_ns = std::min(o.window->second, end_);
      t.ncpus = ncpus_;
      t.task_names = r.task_names;
      t.task_group = r.task_group;
      t.group_names = r.group_names;
      for (const std::string& name : o.lag_of) {
        const auto it = std::find(r.task_names.begin(), r.task_names.end(), name);
        if (it == r.task_names.end())
          throw trace::TraceError({o.file, 0, 0}, fmt::format("--lag-of: no task `{}` in the workload", name));
        t.lag.push_back({static_cast<int>(it - r.task_names.begin()), {}});
      }
    }
    if (o.save != nullptr) trace::write_header(*o.save, header_);
    // The events' lines in the saved trace (--save), so that a violation names its line there.
    next_line_ = static_cast<int>(header_lines()) + 1;
  }

  void run() {
    std::uint64_t next_tick = tick_ns_;
    while (!target_->halted()) {
      const std::uint64_t t = std::min({next_tick, next_start(), next_wake(), next_burst_end()});
      if (t >= end_) break;
      advance(t);
      start_groups();
      wake_sleepers();
      if (t == next_tick) {
        emit_tick();
        next_tick += tick_ns_;
      }
      end_bursts();
    }
    if (!target_->halted()) advance(end_);
    r_.halted = target_->halted();
    r_.duration_ns = now_;
    for (int cpu = 0; cpu < ncpus_; ++cpu)
      if (el(curr_, cpu) >= 0) account_oncpu(el(curr_, cpu), cpu);
    target_->finish();
    target_->tally(r_.evaluated);
  }

 private:
  int ntasks() const { return static_cast<int>(tasks_.size()); }
  const Group& group_of(int p) const { return w_.groups[static_cast<std::size_t>(tasks_[static_cast<std::size_t>(p)].group)]; }
  TaskStats& stats(int p) { return r_.tasks[static_cast<std::size_t>(p)]; }

  std::size_t header_lines() const {
    std::ostringstream h;
    trace::write_header(h, header_);
    const std::string text = h.str();
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  }

  std::uint64_t next_start() const {
    std::uint64_t t = kNever;
    for (const TaskRun& p : tasks_)
      if (p.mode == Mode::unstarted) t = std::min(t, w_.groups[static_cast<std::size_t>(p.group)].start_ns);
    return t;
  }
  std::uint64_t next_wake() const {
    std::uint64_t t = kNever;
    for (const TaskRun& p : tasks_)
      if (p.mode == Mode::sleeping) t = std::min(t, p.wake_at);
    return t;
  }
  std::uint64_t next_burst_end() const {
    std::uint64_t t = kNever;
    for (const int p : curr_)
      if (p >= 0 && el(tasks_, p).in_burst) t = std::min(t, el(tasks_, p).oncpu_since + el(tasks_, p).burst_left);
    return t;
  }

  // Time passes to `t`: the iowait counters' integrals grow by their current values.
  void advance(std::uint64_t t) {
    const std::uint64_t dt = t - now_;
    r_.iowait_ns += iowait_ * dt;
    r_.iowait_acct_ns += iowait_acct_ * dt;
    now_ = t;
  }

  void start_groups() {
    for (int p = 0; p < ntasks(); ++p) {
      TaskRun& t = el(tasks_, p);
      if (t.mode != Mode::unstarted || group_of(p).start_ns != now_) continue;
      trace::Event e = event(trace::Verb::fork, p);
      e.cpu = place(p);
      t.mode = Mode::active;
      t.runnable_since = now_;
      t.woken = false;
      emit(e);
    }
    drain();
  }

  void wake_sleepers() {
    for (int p = 0; p < ntasks(); ++p)
      if (el(tasks_, p).mode == Mode::sleeping && el(tasks_, p).wake_at == now_) wake(p);
    drain();
  }

  void emit_tick() {
    trace::Event e = event(trace::Verb::tick, 0);
    e.all_cpus = true;
    emit(e);
    drain();
  }

  void end_bursts() {
    for (int cpu = 0; cpu < ncpus_; ++cpu) {
      const int p = el(curr_, cpu);
      if (p < 0 || !el(tasks_, p).in_burst || el(tasks_, p).oncpu_since + el(tasks_, p).burst_left != now_) continue;
      account_oncpu(p, cpu);
      TaskRun& t = el(tasks_, p);
      t.in_burst = false;
      next_statement(t);
      ready_.push_back(p);
    }
    drain();
  }

  // The CPU a fork or a wakeup of `p` goes to: the lab's stand-in for
  // select_task_rq_fair, which the model does not have. Its previous CPU when that
  // is idle, else the first idle CPU of its group's set after it, else its previous
  // CPU (a task never run starts from its index in the set).
  int place(int p) const {
    const std::vector<int>& set = el(cpus_of_group_, el(tasks_, p).group);
    const int n = static_cast<int>(set.size());
    const TaskRun& t = el(tasks_, p);
    int start = t.index % n;
    for (int k = 0; k < n && t.last_cpu >= 0; ++k)
      if (el(set, k) == t.last_cpu) start = k;
    for (int k = 0; k < n; ++k) {
      const int c = el(set, (start + k) % n);
      if (target_->curr(c) < 0) return c;
    }
    return el(set, start);
  }

  void wake(int p) {
    TaskRun& t = el(tasks_, p);
    trace::Event e = event(trace::Verb::wake, p);
    if (target_->state(p) != model::task_state::delayed) e.cpu = place(p);
    t.mode = Mode::active;
    t.wake_at = kNever;
    t.runnable_since = now_;
    t.woken = true;
    emit(e);
  }

  trace::Event event(trace::Verb verb, int p) const {
    trace::Event e;
    e.time_ns = now_;
    e.verb = verb;
    e.task = p < 0 || verb == trace::Verb::tick ? 0 : p + 1;
    return e;
  }

  // Applies `e` to the target, saves it, and follows what the scheduler did: who
  // was switched out and in on each CPU, and the iowait counts.
  void emit(trace::Event e) {
    e.line = next_line_++;
    const std::string reason = target_->apply(e);
    if (!reason.empty())
      throw trace::TraceError({o_.file, 0, 0}, fmt::format("the target refused `{}`: {} (a defect of the lab's driver)",
                                                           trace::format_event(e), reason));
    ++r_.events;
    if (o_.save != nullptr) {
      trace::write_statement(*o_.save, e);
    }
    observe(e);
  }

  void observe(const trace::Event& e) {
    std::vector<int> in;
    for (int cpu = 0; cpu < ncpus_; ++cpu) {
      const int c = target_->curr(cpu);
      if (c == el(curr_, cpu)) continue;
      if (el(curr_, cpu) >= 0) switch_out(el(curr_, cpu), cpu, e);
      el(curr_, cpu) = c;
      if (c >= 0) in.push_back(c);
    }
    for (const int p : in) switch_in(p, target_->cpu_of(p));
    iowait_ = iowait_acct_ = 0;
    for (int cpu = 0; cpu < ncpus_; ++cpu) {
      iowait_ += static_cast<std::uint64_t>(std::max<std::int64_t>(0, target_->nr_iowait(cpu)));
      iowait_acct_ += static_cast<std::uint64_t>(std::max<std::int64_t>(0, target_->nr_iowait_acct(cpu)));
    }
    sample_lag();
  }

  void account_oncpu(int p, int cpu) {
    TaskRun& t = el(tasks_, p);
    const std::uint64_t ran = now_ - t.oncpu_since;
    stats(p).runtime_ns += ran;
    if (t.in_burst) t.burst_left -= ran;
    if (r_.timeline && ran > 0) {
      Timeline& tl = *r_.timeline;
      const std::uint64_t from = std::max(t.oncpu_since, tl.from_ns), to = std::min(now_, tl.to_ns);
      if (from < to) {
        if (!tl.slices.empty() && tl.slices.back().cpu == cpu && tl.slices.back().task == p &&
            tl.slices.back().end_ns == from)
          tl.slices.back().end_ns = to;  // a burst's end, not a switch
        else
          tl.slices.push_back({cpu, p, from, to});
      }
    }
    t.oncpu_since = now_;
  }

  void switch_out(int p, int cpu, const trace::Event& e) {
    account_oncpu(p, cpu);
    TaskRun& t = el(tasks_, p);
    const model::task_state s = target_->state(p);
    if (s != model::task_state::queued) return;  // it slept or exited
    t.runnable_since = now_;
    t.woken = false;
    if (e.verb == trace::Verb::yield && e.task == p + 1) return;
    TaskStats& st = stats(p);
    if (e.verb == trace::Verb::wake || e.verb == trace::Verb::fork) ++st.preempt_wakeup;
    else if (e.verb == trace::Verb::tick) ++st.preempt_tick;
    else ++st.preempt_other;
  }

  void switch_in(int p, int cpu) {
    TaskRun& t = el(tasks_, p);
    TaskStats& st = stats(p);
    const std::uint64_t delay = now_ - t.runnable_since;
    ++st.switches;
    ++st.delays;
    st.delay_sum_ns += delay;
    st.delay_max_ns = std::max(st.delay_max_ns, delay);
    if (t.woken) st.wakeup_latencies_ns.push_back(delay);
    t.woken = false;
    t.oncpu_since = now_;
    t.last_cpu = cpu;
    if (!t.in_burst) ready_.push_back(p);
  }

  // Runs the programs of the tasks that got a CPU with no burst under way, until each
  // is in a burst, asleep, or off its CPU again.
  void drain() {
    while (!ready_.empty()) {
      const int p = ready_.front();
      ready_.erase(ready_.begin());
      if (el(curr_, target_->cpu_of(p)) == p && !el(tasks_, p).in_burst && el(tasks_, p).mode == Mode::active) step(p);
    }
  }

  bool running(int p) const { return el(curr_, target_->cpu_of(p)) == p; }

  void next_statement(TaskRun& t) {
    if (++t.pc == w_.groups[static_cast<std::size_t>(t.group)].program.size()) t.pc = 0;
  }

  void step(int p) {
    TaskRun& t = el(tasks_, p);
    const Group& g = group_of(p);
    for (int steps = 0; running(p) && t.mode == Mode::active && !t.in_burst; ++steps) {
      if (steps == kStepsPerInstant)
        throw trace::TraceError({o_.file, g.line, 0},
                                fmt::format("group `{}` runs {} statements at {} ns without spending time", g.name,
                                            kStepsPerInstant, now_));
      const Op& op = g.program[t.pc];
      switch (op.kind) {
        case Op::run:
          if (const std::uint64_t d = draw(op.dist, prng_); d > 0) {
            account_oncpu(p, target_->cpu_of(p));  // the burst's time counts from now
            t.in_burst = true;
            t.burst_left = d;
          } else {
            next_statement(t);
          }
          break;
        case Op::sleep: {
          const std::uint64_t d = draw(op.dist, prng_);
          next_statement(t);
          t.mode = Mode::sleeping;
          t.wake_at = now_ + d;
          emit_sleep(p, op.io);
          break;
        }
        case Op::wait:
          next_statement(t);
          if (t.tokens > 0) {
            --t.tokens;
          } else {
            t.mode = Mode::waiting;
            emit_sleep(p, op.io);
          }
          break;
        case Op::wake: {
          const std::size_t at = t.pc;
          next_statement(t);
          for (const int q : woken_by(p, op, t.cursor[at])) {
            if (el(tasks_, q).mode == Mode::waiting) wake(q);
            else if (el(tasks_, q).mode != Mode::unstarted) ++el(tasks_, q).tokens;
          }
          break;
        }
        case Op::yield:
          next_statement(t);
          emit(event(trace::Verb::yield, p));
          break;
        case Op::renice: {
          next_statement(t);
          trace::Event e = event(trace::Verb::renice, p);
          e.nice = op.nice;
          emit(e);
          break;
        }
      }
    }
  }

  void emit_sleep(int p, trace::Io io) {
    trace::Event e = event(trace::Verb::sleep, p);
    e.io = io;
    emit(e);
  }

  // The tasks a `wake` statement of task p reaches (docs/LAB.md, "Programs").
  std::vector<int> woken_by(int p, const Op& op, int& cursor) const {
    const int n = group_of(p).count;
    const int m = w_.groups[static_cast<std::size_t>(op.group)].count;
    const int first = first_of_group_[static_cast<std::size_t>(op.group)];
    const int i = el(tasks_, p).index;
    std::vector<int> out;
    switch (op.whom) {
      case WakeWhom::partner:
        if (m <= n) {
          out.push_back(first + i * m / n);
        } else {
          for (int j = i * m / n; j < (i + 1) * m / n; ++j) out.push_back(first + j);
        }
        break;
      case WakeWhom::all:
        for (int j = 0; j < m; ++j) out.push_back(first + j);
        break;
      case WakeWhom::one:
        out.push_back(first + cursor);
        cursor = (cursor + 1) % m;
        break;
    }
    return out;
  }

  void sample_lag() {
    if (!r_.timeline || r_.timeline->lag.empty()) return;
    Timeline& tl = *r_.timeline;
    if (now_ < tl.from_ns || now_ >= tl.to_ns) return;
    for (LagSeries& s : tl.lag) {
      const std::optional<std::int64_t> lag = target_->lag_ns(s.task);
      s.samples.push_back({now_, lag.has_value(), lag.value_or(0)});
    }
  }

  const Workload& w_;
  const RunOptions& o_;
  RunResult& r_;
  CollectingSink sink_;
  generator::Prng prng_;
  trace::Header header_;
  std::unique_ptr<Target> target_;
  int ncpus_ = 1;
  std::uint64_t tick_ns_ = 1'000'000;
  std::uint64_t end_ = 0;
  std::uint64_t now_ = 0;
  std::vector<TaskRun> tasks_;
  std::vector<int> first_of_group_;
  std::vector<std::vector<int>> cpus_of_group_;  // per group: the CPUs it may run on
  std::vector<int> curr_;   // per CPU, as last observed
  std::vector<int> ready_;  // tasks to step, in the order they got their CPU
  std::uint64_t iowait_ = 0, iowait_acct_ = 0;
  int next_line_ = 0;
};

}  // namespace

trace::Header lab_header(const Workload& w, const std::vector<std::pair<std::string, bool>>& features) {
  trace::Header h;
  for (const std::string& line : w.description) h.preamble.push_back(" " + line);  // the writer adds the #
  h.kernel = w.kernel;
  h.topology = w.topology;
  h.hz = w.hz;
  h.base_slice_ns = w.base_slice_ns;
  const auto set = [&h](const std::pair<std::string, bool>& f) {
    for (auto& [name, on] : h.features)
      if (name == f.first) return (void)(on = f.second);
    h.features.push_back(f);
  };
  for (const auto& f : w.features) set(f);
  for (const auto& f : features) set(f);
  int id = 1;
  for (const Group& g : w.groups)
    for (int i = 0; i < g.count; ++i) {
      trace::TaskDecl t;
      t.id = id++;
      t.nice = g.nice;
      t.slice_ns = g.slice_ns;
      t.name = fmt::format("{}.{}", g.name, i);
      h.tasks.push_back(t);
    }
  return h;
}

RunResult run_workload(const Workload& w, const TargetSpec& target, const RunOptions& options) {
  RunResult r;
  r.workload = w.name;
  r.seed = options.seed;
  Driver d(w, target, options, r);
  d.run();
  return r;
}

}  // namespace eevdf::lab
