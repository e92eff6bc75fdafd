// The core.c orchestration around the real fair class (machine.h): our own code,
// written from docs/MODEL.md §6.4, §13, §19 and the verb table of docs/TRACE_FORMAT.md,
// the same call sequences as the reference model's core-inl.h / core_events-inl.h.
#include "kernel_src/machine.h"

#include <string>

#include "base/assert.h"
#include "kernel_src/tree_build.h"
#include "model/features.h"
#include "model/tunables.h"
#include "model/weights.h"

namespace eevdf::kernel_src {

namespace {

// sched_features the harness reads, from the trace's feature set.
unsigned feature_bits(const model::Config& cfg) {
  using model::Feature;
  struct Pair {
    Feature f;
    unsigned bit;
  };
  static constexpr Pair pairs[] = {
      {Feature::PLACE_LAG, c::KSRC_FEAT_PLACE_LAG},
      {Feature::PLACE_DEADLINE_INITIAL, c::KSRC_FEAT_PLACE_DEADLINE_INITIAL},
      {Feature::PLACE_REL_DEADLINE, c::KSRC_FEAT_PLACE_REL_DEADLINE},
      {Feature::RUN_TO_PARITY, c::KSRC_FEAT_RUN_TO_PARITY},
      {Feature::PREEMPT_SHORT, c::KSRC_FEAT_PREEMPT_SHORT},
      {Feature::NEXT_BUDDY, c::KSRC_FEAT_NEXT_BUDDY},
      {Feature::PICK_BUDDY, c::KSRC_FEAT_PICK_BUDDY},
      {Feature::DELAY_DEQUEUE, c::KSRC_FEAT_DELAY_DEQUEUE},
      {Feature::DELAY_ZERO, c::KSRC_FEAT_DELAY_ZERO},
      {Feature::WAKEUP_PREEMPTION, c::KSRC_FEAT_WAKEUP_PREEMPTION},
  };
  unsigned bits = 0;
  for (const Pair& p : pairs)
    if (cfg.feat(p.f)) bits |= p.bit;
  return bits;
}

const char* state_word(model::task_state s) {
  static constexpr const char* words[] = {"new", "running", "queued", "delayed", "blocked", "exited"};
  return words[static_cast<int>(s)];
}

std::string illegal(const char* verb, int id, model::task_state s) {
  return std::string("`") + verb + "` is illegal for task " + std::to_string(id) + ", which is " + state_word(s);
}

c::load_weight weight_of(int nice) {
  const model::load_weight lw = model::load_weight_for_nice(nice);
  return {static_cast<unsigned long>(lw.weight), lw.inv_weight};
}

// NICE_TO_PRIO: what prio_changed_fair compares.
int prio_of(int nice) { return 120 + nice; }

}  // namespace

namespace {
thread_local unsigned thread_mutant = 0;
thread_local unsigned long* thread_mutant_reached = nullptr;
}  // namespace

void set_thread_mutant(unsigned mutant, unsigned long* reached) {
  thread_mutant = mutant;
  thread_mutant_reached = reached;
}

const char* kernel_version() { return selected_api()->kernel_version; }

Machine::Machine(const model::Config& config, const std::vector<model::TaskSpec>& tasks, const c::ksrc_api* api)
    : api_(api != nullptr ? api : selected_api()),
      cfg_(config),
      rqs_(static_cast<std::size_t>(config.topology.ncpus())),
      tasks_(tasks.size()),
      extra_(tasks.size()),
      cpus_(static_cast<std::size_t>(config.topology.ncpus())) {
  tunables_.sysctl_sched_base_slice = cfg_.sysctl_base_slice;
  tunables_.normalized_sysctl_sched_base_slice = cfg_.normalized_base_slice;
  tunables_.sysctl_sched_migration_cost = 500'000;  // the kernel's default; read only by WF_SYNC wakeups
  tunables_.tick_nsec = cfg_.tick_nsec;
  tunables_.features = feature_bits(cfg_);
  tunables_.mutant = thread_mutant;
  tunables_.mutant_reached = thread_mutant_reached;
  hooks_.block_task = &Machine::block_task_hook;
  install();
  for (std::size_t i = 0; i < rqs_.size(); ++i) {
    rqs_[i] = c::rq{};
    rqs_[i].cpu = static_cast<int>(i);
    rqs_[i].driver = this;
    rqs_[i].cfs_tasks.next = rqs_[i].cfs_tasks.prev = &rqs_[i].cfs_tasks;
    api_->init_cfs_rq(&rqs_[i].cfs);
  }
  // __sched_fork() and set_load_weight() (§2): a declared task before its first wakeup.
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const model::TaskSpec& spec = tasks[i];
    c::task_struct& p = tasks_[i];
    p = c::task_struct{};
    p.index = static_cast<int>(i);
    p.static_prio = p.prio = prio_of(spec.nice);
    p.policy = c::KSRC_SCHED_NORMAL;
    p.cpu = spec.default_cpu >= 0 ? spec.default_cpu : 0;
    p.rq = &rqs_[static_cast<std::size_t>(p.cpu)];
    p.se.load = weight_of(spec.nice);
    p.se.custom_slice = spec.slice_ns != 0;
    p.se.slice = spec.slice_ns != 0 ? model::clamp_custom_slice(spec.slice_ns) : cfg_.sysctl_base_slice;
    extra_[i] = TaskExtra{spec.id, spec.nice, spec.default_cpu};
    index_of_id_.emplace(spec.id, static_cast<int>(i));
  }
}

Machine::~Machine() = default;

void Machine::install() { api_->install(&tunables_, &hooks_); }

void Machine::collect_warnings() {
  const char* function = nullptr;
  if (const char* check = api_->first_warning(&function); check != nullptr) {
    last_warning_ = std::string(check) + " in " + function;
    if (first_warning_.empty()) first_warning_ = last_warning_;
  }
  warnings_ += api_->warnings_taken();
  if (const char* why = api_->oops_taken(); why != nullptr && oops_.empty()) {
    oops_condition_ = why;
    oops_ = oops_condition_ + " (at t=" + std::to_string(now_) + " ns)";
  }
}

int Machine::task_index(int id) const {
  const auto it = index_of_id_.find(id);
  return it == index_of_id_.end() ? -1 : it->second;
}

// §19: every runqueue clock equals the event time whenever the kernel reads it.
// Callers test stopped() first: after an oops the kernel state is as the crash left it.
void Machine::advance(std::uint64_t t) {
  EEVDF_ASSERT(t >= now_, "time goes backwards");
  now_ = t;
  last_warning_.clear();
  for (c::rq& rq : rqs_) rq.clock_task = t;
  install();
}

bool Machine::running(int p) const {
  const TaskExtra& x = extra(p);
  return x.forked && !x.exited && rq(task(p).cpu).curr == &task(p);
}

model::task_state Machine::state_of(int p) const {
  const TaskExtra& x = extra(p);
  if (!x.forked) return model::task_state::new_;
  if (x.exited) return model::task_state::exited;
  if (running(p)) return model::task_state::running;
  if (task(p).on_rq == 0) return model::task_state::blocked;
  return task(p).se.sched_delayed ? model::task_state::delayed : model::task_state::queued;
}

int Machine::curr_index(int cpu) const {
  const c::task_struct* curr = rq(cpu).curr;
  return curr == nullptr ? -1 : curr->index;
}

// core.c activate_task(): enqueue, then publish p->on_rq.
void Machine::activate_task(c::rq& rq, c::task_struct& p, int flags) {
  EEVDF_ASSERT(p.rq == &rq, "activate on a foreign runqueue");
  api_->enqueue_task_fair(&rq, &p, flags);
  p.on_rq = c::TASK_ON_RQ_QUEUED;
  cpus_[static_cast<std::size_t>(rq.cpu)].ever_enqueued = true;
}

// core.c deactivate_task(): p->on_rq says "migrating" during a non-sleep dequeue.
void Machine::deactivate_task(c::rq& rq, c::task_struct& p, int flags) {
  EEVDF_ASSERT((flags & c::DEQUEUE_SLEEP) == 0, "deactivate_task never sleeps");
  p.on_rq = c::TASK_ON_RQ_MIGRATING;
  const bool done = api_->dequeue_task_fair(&rq, &p, flags);
  EEVDF_ASSERT(done, "a non-sleep dequeue completes");
}

// core.c block_task(): the class dequeue; __block_task unless it was delayed.
void Machine::block_task(c::rq& rq, c::task_struct& p, int flags) {
  if (api_->dequeue_task_fair(&rq, &p, c::DEQUEUE_SLEEP | c::DEQUEUE_NOCLOCK | flags)) block_task_complete(rq, p);
}

// sched.h __block_task(): the sleep is complete; iowait is counted here (§13.1).
void Machine::block_task_complete(c::rq& rq, c::task_struct& p) {
  const TaskExtra& x = extra_[static_cast<std::size_t>(p.index)];
  CpuExtra& cpu = cpus_[static_cast<std::size_t>(rq.cpu)];
  if (x.in_iowait) cpu.nr_iowait++;
  if (x.in_iowait_acct) cpu.nr_iowait_acct++;
  p.on_rq = 0;
  if (const c::ksrc_mirror_hooks* m = hooks_.mirror; m != nullptr && m->block_completed != nullptr)
    m->block_completed(m->ctx, rq.cpu, p.index);
}

// The fair class completes a delayed sleep from inside a pick (dequeue_entities).
void Machine::block_task_hook(c::rq* rq, c::task_struct* p) {
  static_cast<Machine*>(rq->driver)->block_task_complete(*rq, *p);
}

void Machine::record_hooks(std::vector<HookCall>* out) {
  hook_calls_ = out;
  hooks_.placed = out != nullptr ? &Machine::placed_hook : nullptr;
  hooks_.picked = out != nullptr ? &Machine::picked_hook : nullptr;
  hooks_.reweighted = out != nullptr ? &Machine::reweighted_hook : nullptr;
  install();
}

// rq_of() and task_of(): cfs and se are the first members of rq and task_struct.
void Machine::record(c::cfs_rq* cfs, HookCall call) {
  c::rq* rq = reinterpret_cast<c::rq*>(cfs);
  call.cpu = rq->cpu;
  hook_calls_->push_back(call);
}

static int task_id_of(const Machine& m, const c::sched_entity* se) {
  return se == nullptr ? 0 : m.extra(reinterpret_cast<const c::task_struct*>(se)->index).id;
}

void Machine::placed_hook(c::cfs_rq* cfs, c::sched_entity* se, int) {
  Machine& m = *static_cast<Machine*>(reinterpret_cast<c::rq*>(cfs)->driver);
  m.record(cfs, {Hook::placed, 0, task_id_of(m, se), se->vruntime, se->deadline, 0});
}

void Machine::picked_hook(c::cfs_rq* cfs, c::sched_entity* se) {
  Machine& m = *static_cast<Machine*>(reinterpret_cast<c::rq*>(cfs)->driver);
  if (m.picking_) m.record(cfs, {Hook::picked, 0, task_id_of(m, se), 0, 0, 0});
}

void Machine::reweighted_hook(c::cfs_rq* cfs, c::sched_entity* se, unsigned long weight) {
  Machine& m = *static_cast<Machine*>(reinterpret_cast<c::rq*>(cfs)->driver);
  m.record(cfs, {Hook::reweighted, 0, task_id_of(m, se), 0, 0, weight});
}

// core.c __schedule(): block a sleeping or dying prev, pick (pick_next_task_fair:
// put_prev/set_next only when the pick changes), switch.
void Machine::schedule(c::rq& rq, bool prev_blocks, bool prev_dies) {
  c::task_struct* prev = rq.curr;
  if (prev != nullptr && (prev_blocks || prev_dies)) {
    block_task(rq, *prev, prev_dies ? c::DEQUEUE_SPECIAL : 0);  // TASK_DEAD is a special state
    if (prev_dies) extra_[static_cast<std::size_t>(prev->index)].exited = true;
  }
  picking_ = true;
  c::task_struct* next = api_->pick_task_fair(&rq);
  picking_ = false;
  if (prev != nullptr && prev != next) api_->put_prev_entity(&rq.cfs, &prev->se);
  if (next != nullptr && next != prev) api_->set_next_entity(&rq.cfs, &next->se, 1);
  rq.need_resched = 0;
  rq.curr = rq.donor = next;
}

// §19 immediate preemption: every CPU asked to reschedule, in ascending order.
void Machine::schedule_pending() {
  for (c::rq& rq : rqs_)
    if (rq.need_resched != 0) schedule(rq, false, false);
  collect_warnings();
}

// core.c ttwu_do_activate(): the local iowait decrement, enqueue, preemption check.
void Machine::ttwu_do_activate(c::rq& rq, c::task_struct& p, int wake_flags) {
  int en_flags = c::ENQUEUE_WAKEUP | c::ENQUEUE_NOCLOCK;
  TaskExtra& x = extra_[static_cast<std::size_t>(p.index)];
  if ((wake_flags & c::WF_MIGRATED) != 0) {
    en_flags |= c::ENQUEUE_MIGRATED;
  } else {
    if (x.in_iowait) cpus_[static_cast<std::size_t>(rq.cpu)].nr_iowait--;
    if (x.in_iowait_acct) cpus_[static_cast<std::size_t>(rq.cpu)].nr_iowait_acct--;
  }
  activate_task(rq, p, en_flags);
  api_->wakeup_preempt(&rq, &p, wake_flags);
}

// wake_up_new_task(): ENQUEUE_INITIAL (half-slice deadline), then the WF_FORK check.
std::string Machine::fork(std::uint64_t t, int pi, int cpu) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (state_of(pi) != model::task_state::new_) return illegal("fork", extra(pi).id, state_of(pi));
  advance(t);
  c::task_struct& p = task_at(pi);
  extra_[static_cast<std::size_t>(pi)].forked = true;
  p.cpu = cpu >= 0 ? cpu : (extra(pi).default_cpu >= 0 ? extra(pi).default_cpu : 0);
  p.rq = &rq_at(p.cpu);
  activate_task(*p.rq, p, c::ENQUEUE_NOCLOCK | c::ENQUEUE_INITIAL);
  api_->wakeup_preempt(p.rq, &p, c::WF_FORK);
  schedule_pending();
  return {};
}

// try_to_wake_up(): a delayed task is requeued where it is (ttwu_runnable); a blocked
// one is activated on the target CPU, its iowait count dropping where it slept.
std::string Machine::wake(std::uint64_t t, int pi, int cpu) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  const model::task_state s = state_of(pi);
  const int id = extra(pi).id;
  if (s != model::task_state::delayed && s != model::task_state::blocked) return illegal("wake", id, s);
  c::task_struct& p = task_at(pi);
  if (s == model::task_state::delayed && cpu >= 0 && cpu != p.cpu)
    return "task " + std::to_string(id) + " is delayed on CPU " + std::to_string(p.cpu) +
           ": a wakeup requeues it there, so `cpu=" + std::to_string(cpu) + "` is illegal";
  advance(t);
  TaskExtra& x = extra_[static_cast<std::size_t>(pi)];
  if (s == model::task_state::delayed) {
    api_->enqueue_task_fair(p.rq, &p, c::ENQUEUE_NOCLOCK | c::ENQUEUE_DELAYED);
    api_->wakeup_preempt(p.rq, &p, c::WF_TTWU);
  } else {
    const int target = cpu >= 0 ? cpu : (x.default_cpu >= 0 ? x.default_cpu : p.cpu);
    int wake_flags = c::WF_TTWU;
    if (target != p.cpu) {
      CpuExtra& counted = cpus_[static_cast<std::size_t>(p.cpu)];
      if (x.in_iowait) counted.nr_iowait--;
      if (x.in_iowait_acct) counted.nr_iowait_acct--;
      wake_flags |= c::WF_MIGRATED;
      p.cpu = target;  // set_task_cpu
      p.rq = &rq_at(target);
    }
    ttwu_do_activate(*p.rq, p, wake_flags);
  }
  x.in_iowait = x.in_iowait_acct = false;  // io_schedule_finish
  p.in_iowait = 0;
  schedule_pending();
  return {};
}

// schedule() from an io or plain sleep: DEQUEUE_SLEEP, possibly delayed (§10).
std::string Machine::sleep(std::uint64_t t, int pi, model::io_sleep io) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (!running(pi)) return illegal("sleep", extra(pi).id, state_of(pi));
  advance(t);
  TaskExtra& x = extra_[static_cast<std::size_t>(pi)];
  x.in_iowait = io != model::io_sleep::none;
  x.in_iowait_acct = io == model::io_sleep::io;
  task_at(pi).in_iowait = x.in_iowait ? 1 : 0;
  schedule(rq_at(task(pi).cpu), true, false);
  schedule_pending();
  return {};
}

// sched_tick(): task_tick_fair on a busy CPU; idle CPUs do nothing.
std::string Machine::tick(std::uint64_t t, int cpu) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  advance(t);
  for (c::rq& rq : rqs_)
    if ((cpu < 0 || rq.cpu == cpu) && rq.curr != nullptr) api_->task_tick_fair(&rq, rq.curr);
  schedule_pending();
  return {};
}

// move_queued_task(): deactivate, set_task_cpu, activate(ENQUEUE_MIGRATED), check.
std::string Machine::migrate(std::uint64_t t, int pi, int cpu) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  const model::task_state s = state_of(pi);
  c::task_struct& p = task_at(pi);
  if (s != model::task_state::queued && s != model::task_state::delayed) return illegal("migrate", extra(pi).id, s);
  if (cpu == p.cpu) return "task " + std::to_string(extra(pi).id) + " is already on CPU " + std::to_string(cpu);
  advance(t);
  deactivate_task(*p.rq, p, c::DEQUEUE_NOCLOCK);
  p.cpu = cpu;
  p.rq = &rq_at(cpu);
  activate_task(*p.rq, p, c::ENQUEUE_NOCLOCK | c::ENQUEUE_MIGRATED);
  api_->wakeup_preempt(p.rq, &p, 0);
  schedule_pending();
  return {};
}

// set_user_nice() / sched_setattr(): dequeue(SAVE), put, set_load_weight (the
// class's reweight_task), enqueue(RESTORE), set; `nice` unchanged for setslice.
void Machine::set_param(c::task_struct& p, bool renice, int nice) {
  c::rq& rq = *p.rq;
  const bool queued = p.on_rq == c::TASK_ON_RQ_QUEUED;
  const bool is_running = running(p.index);
  if (queued) api_->dequeue_task_fair(&rq, &p, c::DEQUEUE_SAVE | c::DEQUEUE_NOCLOCK);
  if (is_running) api_->put_prev_entity(&rq.cfs, &p.se);
  const int old_prio = p.prio;
  if (renice) {
    extra_[static_cast<std::size_t>(p.index)].nice = nice;
    p.static_prio = p.prio = prio_of(nice);
  }
  const c::load_weight lw = weight_of(extra(p.index).nice);
  api_->reweight_task_fair(&rq, &p, &lw);
  if (queued) api_->enqueue_task_fair(&rq, &p, c::ENQUEUE_RESTORE | c::ENQUEUE_NOCLOCK);
  if (is_running) api_->set_next_entity(&rq.cfs, &p.se, 0);
  if (renice) api_->prio_changed_fair(&rq, &p, old_prio);
}

std::string Machine::renice(std::uint64_t t, int pi, int nice) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (extra(pi).exited) return illegal("renice", extra(pi).id, model::task_state::exited);
  if (nice == extra(pi).nice) return {};
  advance(t);
  set_param(task_at(pi), true, nice);
  schedule_pending();
  return {};
}

// sched_setattr() with the same nice: SAVE without MOVE (__sched_setscheduler drops
// MOVE when the effective priority is unchanged), __setparam_fair, a same-weight
// reweight, no prio change (so no preemption check).
std::string Machine::setslice(std::uint64_t t, int pi, std::uint64_t slice_ns) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (extra(pi).exited) return illegal("setslice", extra(pi).id, model::task_state::exited);
  c::task_struct& p = task_at(pi);
  if (slice_ns == p.se.slice) return {};  // compared before clamping
  advance(t);
  // __setscheduler_params runs between the dequeue and the enqueue: set the slice
  // there by splitting set_param around it.
  c::rq& rq = *p.rq;
  const bool queued = p.on_rq == c::TASK_ON_RQ_QUEUED;
  const bool is_running = running(pi);
  if (queued) api_->dequeue_task_fair(&rq, &p, c::DEQUEUE_SAVE | c::DEQUEUE_NOCLOCK);
  if (is_running) api_->put_prev_entity(&rq.cfs, &p.se);
  p.se.custom_slice = slice_ns != 0;
  p.se.slice = slice_ns != 0 ? model::clamp_custom_slice(slice_ns) : cfg_.sysctl_base_slice;
  const c::load_weight lw = weight_of(extra(pi).nice);
  api_->reweight_task_fair(&rq, &p, &lw);
  if (queued) api_->enqueue_task_fair(&rq, &p, c::ENQUEUE_RESTORE | c::ENQUEUE_NOCLOCK);
  if (is_running) api_->set_next_entity(&rq.cfs, &p.se, 0);
  schedule_pending();
  return {};
}

// sched_yield(): yield_task_fair, then schedule().
std::string Machine::yield(std::uint64_t t, int pi) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (!running(pi)) return illegal("yield", extra(pi).id, state_of(pi));
  advance(t);
  c::rq& rq = *task_at(pi).rq;
  api_->yield_task_fair(&rq);
  schedule(rq, false, false);
  schedule_pending();
  return {};
}

// do_task_dead(): __schedule with TASK_DEAD, a special state: never delayed.
std::string Machine::exit(std::uint64_t t, int pi) {
  if (!oops_.empty()) return "kernel-src stopped: the kernel would have crashed: " + oops_;
  if (!running(pi)) return illegal("exit", extra(pi).id, state_of(pi));
  advance(t);
  TaskExtra& x = extra_[static_cast<std::size_t>(pi)];
  x.in_iowait = x.in_iowait_acct = false;
  task_at(pi).in_iowait = 0;
  schedule(*task_at(pi).rq, false, true);
  schedule_pending();
  return {};
}

// V as the tree's own avg_vruntime() computes it, on a copy of the runqueue.
std::uint64_t Machine::avg_vruntime_of(int cpu) const { return api_->avg_vruntime(const_cast<c::rq*>(&rq(cpu))); }

bool Machine::eligible(int p) const {
  c::rq& r = const_cast<c::rq&>(rq(task(p).cpu));  // entity_eligible only reads
  return api_->entity_eligible(&r.cfs, const_cast<c::sched_entity*>(&task(p).se)) != 0;
}

bool Machine::protected_slice(int p) const {
  return running(p) && api_->protect_slice(const_cast<c::sched_entity*>(&task(p).se));
}

// Filled in observe_room_ (room for every task and curr, allocated once), then the
// n entities copied: the property mirror observes at every hook, and a vector resized
// to the task count each time would clear it each time.
void Machine::observe(int cpu, Observation& out, unsigned ask) const {
  observe_room_.resize(extra_.size() + 1);
  out.rq = c::ksrc_obs_rq{};
  out.rq.ask = ask;
  out.rq.capacity = static_cast<int>(observe_room_.size());
  out.rq.entities = observe_room_.data();
  api_->observe(const_cast<c::rq*>(&rq(cpu)), &out.rq);  // pure: avg_vruntime runs on a copy
  out.entities.assign(observe_room_.begin(), observe_room_.begin() + out.rq.n);
  out.rq.entities = out.entities.data();
  out.rq.capacity = out.rq.n;
}

Observation Machine::observe(int cpu) const {
  Observation out;
  observe(cpu, out);
  return out;
}

}  // namespace eevdf::kernel_src
