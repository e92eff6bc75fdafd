// The generation loop; see generator.h. Each step proposes an event whose target
// is drawn from the tasks or CPUs in a state where the verb is legal, applies it to
// the model, and hands it to the sink. Ticks keep the physical rule: a CPU with two
// or more queued entities is ticked at least every TICK_NSEC (the kernel keeps the
// tick running then), unless Options::unphysical.
#include "generator/generator.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <optional>
#include <vector>

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "generator/draw.h"
#include "model/arith_kernel.h"
#include "model/features.h"
#include "model/injections.h"
#include "model/machine.h"
#include "model/tunables.h"
#include "replay/apply_event.h"
#include "trace/writer.h"

namespace eevdf::generator {
namespace {

// The kernel-arithmetic reference under the trace's profile (Options::profile).
using Machine618 = model::Machine<model::KernelArith, model::profile_6_18>;
using Machine612 = model::Machine<model::KernelArith, model::profile_6_12>;
using model::task_state;

// A proposal fails when no task is in a state its verb needs; after this many the
// step falls back to a tick, which is always legal.
constexpr int kProposalTriesMax = 16;
// The unphysical mode's longest tick-less gap: about 2.8 hours, enough to overflow
// s64 sums of key*w with heavy weights (docs/PROPERTIES.md no_overflow).
constexpr std::uint64_t kUnphysicalGapNsMax = 10'000'000'000'000ull;

std::vector<model::TaskSpec> specs_of(const trace::Header& h) {
  std::vector<model::TaskSpec> specs;
  for (const trace::TaskDecl& t : h.tasks) specs.push_back({t.id, t.nice, t.slice_ns, t.cpu.value_or(-1)});
  return specs;
}

// The same configuration a replay builds from the header (replay/model_config.cpp),
// features and injections included, so the generator's model is the replayed one.
model::Config config_of(const trace::Header& h, const model::Topology& topo) {
  model::Config c;
  c.topology = topo;
  for (const auto& [name, on] : h.features) {
    const auto f = model::feature_by_name(name);
    EEVDF_ASSERT(f.has_value(), "unknown feature " + name);
    c.features.set(*f, on);
  }
  for (const std::string& name : h.injections) {
    const auto i = model::injection_by_name(name);
    EEVDF_ASSERT(i.has_value(), "unknown injection " + name);
    c.injections.set(*i);
  }
  c.tick_nsec = model::tick_nsec(static_cast<std::uint64_t>(h.hz_or_default()));
  c.sysctl_base_slice = model::sched_base_slice(c.normalized_base_slice, topo.ncpus());
  return c;
}

// The generation loop's view of an Oracle: the few members of model::Machine it reads.
class OracleMachine {
 public:
  struct Rq {
    int cpu;
    struct {
      unsigned nr_queued;
    } cfs;
  };
  OracleMachine(std::unique_ptr<Oracle> oracle, const model::Config& config)
      : oracle_(std::move(oracle)), config_(config), rqs_(static_cast<std::size_t>(config.topology.ncpus())) {
    refresh();
  }
  const std::vector<Oracle::Task>& tasks() const { return oracle_->tasks(); }
  model::task_state state_of(const Oracle::Task& t) const { return t.state; }
  const model::Config& config() const { return config_; }
  const std::vector<Rq>& rqs() const { return rqs_; }
  std::string apply(const trace::Event& e) {
    bool halted = false;
    std::string why = oracle_->apply(e, halted);
    refresh();
    if (halted) throw KernelWarn({"the system under test crashed", "the oracle's own report"});  // ends the trace

    return why;
  }
  void clear_overflows() {}
  std::vector<int> take_warnings() { return {}; }

 private:
  void refresh() {
    for (std::size_t c = 0; c < rqs_.size(); ++c) rqs_[c] = {static_cast<int>(c), {oracle_->nr_queued(static_cast<int>(c))}};
  }
  std::unique_ptr<Oracle> oracle_;
  model::Config config_;
  std::vector<Rq> rqs_;
};

template <class M>
std::string apply_to(M& m, const trace::Event& e) {
  return replay::apply_event(m, e);
}
std::string apply_to(OracleMachine& m, const trace::Event& e) { return m.apply(e); }

template <class Machine>
struct Generation {
  Prng& prng;
  const Options& o;
  const model::Topology& topo;
  const trace::Header& header;
  Machine m;
  std::vector<int> busy;
  std::array<std::uint32_t, 9> weights;
  std::vector<std::uint64_t> tick_due;  // per CPU: the latest time its next tick may come
  std::uint64_t now = 0;
  bool steady = false;

  std::vector<int> tasks_in(std::initializer_list<task_state> states) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < m.tasks().size(); ++i)
      for (task_state s : states)
        if (m.state_of(m.tasks()[i]) == s) out.push_back(static_cast<int>(i));
    return out;
  }
  int pick(const std::vector<int>& v) { return v[prng.range_inclusive(0, v.size() - 1)]; }
  int id_of(int index) const { return m.tasks()[static_cast<std::size_t>(index)].id; }
  int cpu_of(int index) const { return m.tasks()[static_cast<std::size_t>(index)].cpu; }
};

// An event of verb `v` legal now, or nothing when no task or CPU fits.
template <class G>
std::optional<trace::Event> propose(G& g, trace::Verb v) {
  trace::Event e;
  e.verb = v;
  const auto running = g.tasks_in({task_state::running});
  switch (v) {
    case trace::Verb::fork: {
      const auto c = g.tasks_in({task_state::new_});
      if (c.empty()) return std::nullopt;
      e.task = g.id_of(g.pick(c));
      return e;
    }
    case trace::Verb::wake: {
      const auto c = g.tasks_in({task_state::blocked, task_state::delayed});
      if (c.empty()) return std::nullopt;
      const int p = g.pick(c);
      e.task = g.id_of(p);
      if (g.m.state_of(g.m.tasks()[static_cast<std::size_t>(p)]) == task_state::blocked && g.prng.chance({1, 4}))
        e.cpu = nearby_cpu(g.prng, g.topo, g.cpu_of(p));
      return e;
    }
    case trace::Verb::sleep:
    case trace::Verb::yield:
    case trace::Verb::exit: {
      if (running.empty()) return std::nullopt;
      const int p = g.pick(running);
      if (g.prng.chance({1, 4})) e.cpu = g.cpu_of(p);
      else e.task = g.id_of(p);
      if (v == trace::Verb::sleep) {
        const std::uint64_t io = g.prng.range_inclusive(0, 9);
        e.io = io < 6 ? trace::Io::none : io < 9 ? trace::Io::io : trace::Io::noacct;
      }
      return e;
    }
    case trace::Verb::tick:
      if (g.steady || running.empty() || g.prng.chance(g.o.tick_all_cpus)) e.all_cpus = true;
      else e.cpu = g.cpu_of(g.pick(running));
      return e;
    case trace::Verb::migrate: {
      const auto c = g.tasks_in({task_state::queued, task_state::delayed});
      if (c.empty()) return std::nullopt;
      const int p = g.pick(c);
      const int dst = nearby_cpu(g.prng, g.topo, g.cpu_of(p));
      if (dst == g.cpu_of(p)) return std::nullopt;
      e.task = g.id_of(p);
      e.cpu = dst;
      return e;
    }
    case trace::Verb::renice:
    case trace::Verb::setslice: {
      const auto c = g.tasks_in({task_state::new_, task_state::running, task_state::queued, task_state::delayed,
                                 task_state::blocked});
      if (c.empty()) return std::nullopt;
      e.task = g.id_of(g.pick(c));
      if (v == trace::Verb::renice) e.nice = static_cast<int>(g.prng.range_inclusive_signed(-20, 19));
      else e.slice_ns = g.prng.chance({1, 3}) ? 0 : g.prng.range_inclusive(100'000, 100'000'000);
      return e;
    }
  }
  return std::nullopt;
}

// How far time moves before the next proposed event.
template <class G>
std::uint64_t draw_gap(G& g) {
  const std::uint64_t tick = g.m.config().tick_nsec;
  if (g.steady) return tick;  // every CPU ticked each TICK_NSEC, no tick-less stretch
  const std::uint64_t r = g.prng.range_inclusive(0, 15);
  if (r == 0) return 0;  // the same instant
  if (g.o.gap_max_ns != 0) return g.prng.range_inclusive(1, g.o.gap_max_ns);  // a dense workload
  if (r < 13) return g.prng.range_inclusive(1, tick);
  if (r < 15 || !g.o.unphysical) return g.prng.range_inclusive(tick, 1000 * tick);
  return g.prng.range_inclusive(tick, kUnphysicalGapNsMax);
}

template <class G>
trace::Verb draw_verb(G& g) {
  std::uint64_t total = 0;
  for (std::uint32_t w : g.weights) total += w;
  std::uint64_t x = g.prng.range_inclusive(1, total);
  for (std::size_t v = 0; v < g.weights.size(); ++v) {
    if (x <= g.weights[v]) return static_cast<trace::Verb>(v);
    x -= g.weights[v];
  }
  return trace::Verb::tick;
}

// The CPU whose physical tick is due first among those with >= 2 queued entities.
template <class G>
std::optional<int> first_tick_due(const G& g, std::uint64_t before) {
  std::optional<int> first;
  for (const auto& rq : g.m.rqs()) {
    const auto due = g.tick_due[static_cast<std::size_t>(rq.cpu)];
    if (rq.cfs.nr_queued >= 2 && due < before && (!first || due < g.tick_due[static_cast<std::size_t>(*first)]))
      first = rq.cpu;
  }
  return first;
}

// The next event: a due tick, or a drawn verb at a drawn time.
template <class G>
trace::Event next_event(G& g) {
  const std::uint64_t target = g.now + draw_gap(g);
  if (!g.o.unphysical) {
    if (const auto cpu = first_tick_due(g, target)) {
      trace::Event tick;
      tick.verb = trace::Verb::tick;
      tick.cpu = *cpu;
      tick.time_ns = g.tick_due[static_cast<std::size_t>(*cpu)];
      return tick;
    }
  }
  for (int tries = 0; tries < kProposalTriesMax; ++tries) {
    if (auto e = propose(g, draw_verb(g))) {
      e->time_ns = target;
      return *e;
    }
  }
  trace::Event tick;  // nothing else fits now: a tick is always legal
  tick.verb = trace::Verb::tick;
  tick.all_cpus = true;
  tick.time_ns = target;
  return tick;
}

template <class G>
void after_event(G& g, const trace::Event& e) {
  const std::uint64_t tick = g.m.config().tick_nsec;
  for (const auto& rq : g.m.rqs()) {
    const bool ticked = e.verb == trace::Verb::tick && (e.all_cpus || e.cpu == rq.cpu);
    auto& due = g.tick_due[static_cast<std::size_t>(rq.cpu)];
    // A CPU that just got its second entity starts its TICK_NSEC window now.
    if (ticked || rq.cfs.nr_queued < 2 || due < g.now) due = g.now + tick;
  }
}

// Draws the verb weights and the length after the header (the same draws whatever
// the profile).
template <class G>
std::uint64_t init_generation(G& g, Prng& prng, const Options& options, const model::Topology& topo) {
  g.weights = options.verb_weights;
  if (options.steady.numerator != 0) g.steady = prng.chance(options.steady);  // no draw when off
  if (g.steady) {
    // Steady: tasks only arrive (fork) and run; nothing sleeps, migrates or leaves.
    g.weights = {};
    g.weights[static_cast<std::size_t>(trace::Verb::fork)] = 1;
    g.weights[static_cast<std::size_t>(trace::Verb::tick)] = 3;
  } else if (std::all_of(g.weights.begin(), g.weights.end(), [](std::uint32_t w) { return w == 0; }))
    g.weights = draw_weights(prng);
  g.tick_due.assign(static_cast<std::size_t>(topo.ncpus()), g.m.config().tick_nsec);
  return prng.range_inclusive(options.events_min, options.events_max);
}

// One event: drawn, numbered, applied to the generator's model. `halted`: the model
// met a condition it cannot go past (KernelWarn): the trace ends with this event,
// which the replay reports as kernel_warn.
template <class G>
trace::Event step(G& g, std::uint64_t emitted, bool& halted) {
  trace::Event e = next_event(g);
  // Event lines number the body from 1: replay, static rules and shrinkers treat
  // line 0 as "never happened" (a fork at line 0 would not count as a fork).
  e.line = static_cast<int>(emitted + 1);
  g.now = e.time_ns;
  std::string reason;
  try {
    reason = apply_to(g.m, e);
  } catch (const KernelWarn&) {
    halted = true;
    return e;
  } catch (const InternalError& error) {  // name the event the model failed on
    throw InternalError(std::string(error.what()) + " (while generating `" + trace::format_event(e) + "`)");
  }
  EEVDF_ASSERT(reason.empty(), "the generator proposed an illegal event: " + reason);
  g.m.clear_overflows();  // overflows and warnings are the replay's to report
  (void)g.m.take_warnings();
  after_event(g, e);
  return e;
}

}  // namespace

struct Generator::State {
  Prng prng;
  Options options;
  model::Topology topo;
  trace::Header header;
  // One of the two, by Options::profile: validity depends on the profile's decisions.
  std::unique_ptr<Generation<Machine618>> g618;
  std::unique_ptr<Generation<Machine612>> g612;
  std::unique_ptr<Generation<OracleMachine>> go;
  std::uint64_t events = 0;
  std::uint64_t emitted = 0;
  bool halted = false;  // a kernel_warn ended the trace early

  State(std::uint64_t seed, const Options& o) : prng(seed), options(o), topo(topology_of(o.topology)) {
    EEVDF_ASSERT(o.profile == "6.18" || o.profile == "6.12", "unknown profile " + o.profile);
    std::vector<int> busy;
    header = draw_header(prng, options, topo, busy);
    const model::Config config = config_of(header, topo);
    // Aggregate-initialized in place: the model is neither copyable nor movable.
    if (o.oracle) {
      go.reset(new Generation<OracleMachine>{prng, options, topo, header,
                                             OracleMachine(o.oracle(config, specs_of(header)), config), busy,
                                             {}, {}, 0, false});
      events = init_generation(*go, prng, options, topo);
    } else if (o.profile == "6.12") {
      g612.reset(new Generation<Machine612>{prng, options, topo, header, Machine612(config, specs_of(header)), busy,
                                            {}, {}, 0, false});
      events = init_generation(*g612, prng, options, topo);
    } else {
      g618.reset(new Generation<Machine618>{prng, options, topo, header, Machine618(config, specs_of(header)), busy,
                                            {}, {}, 0, false});
      events = init_generation(*g618, prng, options, topo);
    }
  }
};

Generator::Generator(std::uint64_t seed, const Options& options)
    : state_(std::make_unique<State>(seed, options)) {}

Generator::~Generator() = default;

const trace::Header& Generator::header() const { return state_->header; }
bool Generator::steady() const {
  return state_->go ? state_->go->steady : state_->g612 ? state_->g612->steady : state_->g618->steady;
}
std::uint64_t Generator::draws() const { return state_->prng.draws(); }

std::optional<trace::Event> Generator::next() {
  if (state_->emitted == state_->events || state_->halted) return std::nullopt;
  trace::Event e = state_->go     ? step(*state_->go, state_->emitted, state_->halted)
                  : state_->g612 ? step(*state_->g612, state_->emitted, state_->halted)
                                 : step(*state_->g618, state_->emitted, state_->halted);
  ++state_->emitted;
  return e;
}

trace::Trace generate_trace(std::uint64_t seed, const Options& o) {
  Generator gen(seed, o);
  trace::Trace t;
  t.header = gen.header();
  while (auto e = gen.next()) t.body.emplace_back(*e);
  return t;
}

}  // namespace eevdf::generator
