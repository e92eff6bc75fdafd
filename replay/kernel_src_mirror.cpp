// See kernel_src_mirror.h.
#include "replay/kernel_src_mirror.h"

#include <algorithm>

#include <fmt/format.h>

#include <type_traits>

#include "base/assert.h"
#include "model/flags.h"
#include "properties/kernel_src_judged.h"
#include "properties/lag.h"  // lag_limit: the lag_stored hook's bound

namespace eevdf::replay {
namespace {

using model::KernelArith;
namespace c = kernel_src::c;

// What no check is named: a selection of it runs no property.
const std::string kNone = "kernel_matches_reference";

bool listed(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

properties::Selection kernel_src_selection(const properties::Selection& user) {
  properties::Selection s;
  for (const std::string_view p : properties::kJudgedOnKernelSrc)
    if ((user.check.empty() || listed(user.check, p)) && !listed(user.skip, p)) s.check.emplace_back(p);
  if (s.check.empty()) s.check = {kNone};
  return s;
}

properties::Selection reference_selection(const properties::Selection& user) {
  properties::Selection s = user;
  if (user.check.empty()) {
    for (const std::string_view p : properties::kJudgedOnKernelSrc)
      if (p != "kernel_warn") s.skip.emplace_back(p);  // kernel_warn: each side reports its own
    return s;
  }
  s.check.clear();
  for (const std::string& p : user.check)
    if (!properties::judged_on_kernel_src(p)) s.check.push_back(p);
  if (s.check.empty()) s.check = {kNone};
  return s;
}

std::string_view forms_for_shape(unsigned shape) {
  // Debian's 6.12: zero_vruntime (the back-port), protection stashed in vlag, the
  // sums in scaled-down weights.
  const unsigned vprot_only = c::KSRC_SHAPE_VPROT_IN_VLAG | c::KSRC_SHAPE_MAX_SLICE | c::KSRC_SHAPE_SUM_SHIFT |
                              c::KSRC_SHAPE_LAG_KEEPS_DELAYED | c::KSRC_SHAPE_WAKEUP_LIMITS_ALWAYS |
                              c::KSRC_SHAPE_WAKEUP_PICKS_BUDDY | c::KSRC_SHAPE_BUDDY_ONLY_PROTECTED |
                              c::KSRC_SHAPE_CALC_DELTA_DIVIDES | c::KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT;
  if ((shape & c::KSRC_SHAPE_VPROT) == 0)
    return (shape & c::KSRC_SHAPE_ZERO_VRUNTIME) != 0 && (shape & vprot_only) == 0 ? model::profile_6_12::name
                                                                                  : std::string_view{};
  // se->vprot (in vlag's storage or its own), either v0, either name of the sums: the
  // 6.18 profile's state. The augmented min_slice is what set_protect_slice reads.
  if ((shape & c::KSRC_SHAPE_MIN_SLICE) == 0) return {};
  return model::profile_6_18::name;
}

properties::TreeTraits tree_traits(unsigned shape, bool reference_lockstep) {
  properties::TreeTraits t;
  t.reference_lockstep = reference_lockstep;
  t.vprot = (shape & c::KSRC_SHAPE_VPROT) != 0;
  return t;
}

namespace {

// The mirror's selection: the user's within what kernel-src judges on a tree of `t`.
properties::Selection mirror_selection(const properties::Selection& user, const properties::TreeTraits& t) {
  properties::Selection s;
  const auto add = [&](std::string_view p) {
    if (properties::judged_on_tree(p, t) && (user.check.empty() || listed(user.check, p)) && !listed(user.skip, p))
      s.check.emplace_back(p);
  };
  for (const std::string_view p : properties::kJudgedOnKernelSrc) add(p);
  if (t.vprot) add("min_slice_exact");
  if (s.check.empty()) s.check = {kNone};
  return s;
}

}  // namespace

template <class P>
BasicKernelSrcMirror<P>::BasicKernelSrcMirror(const model::Config& config, const std::vector<model::TaskSpec>& specs,
                                              kernel_src::Machine& k, properties::Sink& sink,
                                              const properties::Selection& selection,
                                              const properties::TreeTraits& traits)
    : k_(k), mirror_(config, specs), env_(mirror_, sink), checker_(env_),
      obs_(static_cast<std::size_t>(k.ncpus())), times_(static_cast<std::size_t>(k.ncpus())),
      members_(static_cast<std::size_t>(k.ncpus())) {
  const properties::Selection judged = mirror_selection(selection, traits);
  properties::add_properties(checker_, env_, judged);
  walk_tree_ = listed(judged.check, "augmented_consistent");
  if (walk_tree_) env_.augmented.resize(static_cast<std::size_t>(k.ncpus()));
  for (int cpu = 0; cpu < k_.ncpus(); ++cpu) {
    observe(cpu);
    times_[static_cast<std::size_t>(cpu)] = model::VirtualTimes::initial(obs_[static_cast<std::size_t>(cpu)].rq.v0);
  }
  const unsigned shape = k_.ncpus() > 0 ? obs_[0].rq.shape : 0;
  if (forms_for_shape(shape) != Profile::name)  // make_kernel_src_mirror chose by the shape
    throw UnknownShape(fmt::format("kernel-src's observation shape {:#x} is not the {} forms' shape", shape,
                                   Profile::name));
  if ((shape & c::KSRC_SHAPE_SUM_SHIFT) != 0) env_.full_weight_sums.resize(static_cast<std::size_t>(k_.ncpus()));
  if ((shape & c::KSRC_SHAPE_H_NR_DELAYED) != 0) env_.h_nr_delayed.resize(static_cast<std::size_t>(k_.ncpus()));
  load_tasks();
  for (int cpu = 0; cpu < k_.ncpus(); ++cpu) load_rq(cpu);
  if (checker_.empty()) return;
  hooks_.ctx = this;
  hooks_.placed = &BasicKernelSrcMirror::on_placed;
  hooks_.placement_done = &BasicKernelSrcMirror::on_placement_done;
  hooks_.picked = &BasicKernelSrcMirror::on_picked;
  hooks_.lag_stored = &BasicKernelSrcMirror::on_lag_stored;
  hooks_.set_next = &BasicKernelSrcMirror::on_set_next;
  hooks_.buddy_set = &BasicKernelSrcMirror::on_buddy_set;
  hooks_.charged = &BasicKernelSrcMirror::on_charged;
  hooks_.protection_set = &BasicKernelSrcMirror::on_protection_set;
  hooks_.block_completed = &BasicKernelSrcMirror::on_block_completed;
  hooks_.v0_moved = &BasicKernelSrcMirror::on_v0_moved;
  hooks_.yielded = &BasicKernelSrcMirror::on_yielded;
  // A vprot tree whose v0 is zero_vruntime (6.19+) moves it by a zero_vruntime rule
  // (to V), not the 6.18 forms' update_min_vruntime: where its shape says.
  if ((shape & c::KSRC_SHAPE_V0_BY_TREE_CHANGE) != 0) env_.v0_rule = properties::V0Rule::zero_by_tree_change;
  else if ((shape & c::KSRC_SHAPE_ZERO_VRUNTIME) != 0) env_.v0_rule = properties::V0Rule::zero_in_avg_vruntime;
  env_.wakeup_limits_protection_always = (shape & c::KSRC_SHAPE_WAKEUP_LIMITS_ALWAYS) != 0;
  env_.wakeup_picks_buddy = (shape & c::KSRC_SHAPE_WAKEUP_PICKS_BUDDY) != 0;
  // The preempt-action form of the check is also the one with returns before its pick.
  env_.wakeup_returns_before_pick = env_.wakeup_limits_protection_always;
  env_.wakeup_buddy_only_protected = (shape & c::KSRC_SHAPE_BUDDY_ONLY_PROTECTED) != 0;
  env_.lag_limit_by_max_slice = (shape & c::KSRC_SHAPE_MAX_SLICE) != 0;
  env_.delayed_lag_keeps_stored = (shape & c::KSRC_SHAPE_LAG_KEEPS_DELAYED) != 0;
  env_.calc_delta_divides = (shape & c::KSRC_SHAPE_CALC_DELTA_DIVIDES) != 0;
  env_.v0_at_heavy_placement = (shape & c::KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT) != 0;
  hooks_.wakeup_entered = &BasicKernelSrcMirror::on_wakeup_entered;
  hooks_.wakeup_pick_step = &BasicKernelSrcMirror::on_wakeup_pick_step;
  hooks_.wakeup_decided = &BasicKernelSrcMirror::on_wakeup_decided;
  hooks_.delay_entered = &BasicKernelSrcMirror::on_delay_entered;
  hooks_.delay_left = &BasicKernelSrcMirror::on_delay_left;
  k_.set_mirror_hooks(&hooks_);
}

template <class P>
BasicKernelSrcMirror<P>::~BasicKernelSrcMirror() { k_.set_mirror_hooks(nullptr); }

// Every task from the driver's task_struct (core.c state, the run-time counters, an
// off-queue entity); load_rq then writes the queued entities from the observation.
template <class P>
void BasicKernelSrcMirror<P>::load_tasks() {
  model::MirrorLoader<Profile>::set_now(mirror_, k_.now());
  for (int p = 0; p < k_.ntasks(); ++p) load_task(p);
}

template <class P>
void BasicKernelSrcMirror<P>::load_task(int p) {
  {
    model::MirrorLoader<Profile>::changed(mirror_, mirror_.tasks().at(static_cast<std::size_t>(p)).cpu);
    const kernel_src::TaskExtra& x = k_.extra(p);
    const c::task_struct& ts = k_.task(p);
    model::MirrorTask t;
    t.forked = x.forked;
    t.exited = x.exited;
    t.on_rq = ts.on_rq != 0;
    t.in_iowait = x.in_iowait;
    t.in_iowait_acct = x.in_iowait_acct;
    t.cpu = ts.cpu;
    t.nice = x.nice;
    t.se_on_rq = ts.se.on_rq != 0;
    t.sched_delayed = ts.se.sched_delayed != 0;
    t.rel_deadline = ts.se.rel_deadline != 0;
    t.custom_slice = ts.se.custom_slice != 0;
    t.vruntime = ts.se.vruntime;
    t.deadline = ts.se.deadline;
    t.slice = ts.se.slice;
    t.weight = ts.se.load.weight;
    t.inv_weight = ts.se.load.inv_weight;
    t.vlag = ts.se.vlag;
    t.exec_start = ts.se.exec_start;
    t.sum_exec_runtime = ts.se.sum_exec_runtime;
    t.prev_sum_exec_runtime = ts.se.prev_sum_exec_runtime;
    model::MirrorLoader<Profile>::load_task(mirror_, p, t, times_[static_cast<std::size_t>(ts.cpu)]);
  }
}

// CPU `cpu` from its last observation (obs_): the queued entities' values, the tree in
// its own order, curr, the buddy, the sums and counters.
template <class P>
void BasicKernelSrcMirror<P>::load_rq(int cpu) {
  const kernel_src::Observation& o = obs_[static_cast<std::size_t>(cpu)];
  const model::VirtualTimes& times = times_[static_cast<std::size_t>(cpu)];
  model::MirrorRq& r = rq_scratch_;  // reused: its tree's storage is allocated once;
  r.tree.clear();                    // every other field is set below
  r.cfs_curr = -1;
  for (const c::ksrc_obs_entity& e : o.entities) {
    const c::task_struct& ts = k_.task(e.task);
    model::MirrorTask t;
    t.forked = k_.extra(e.task).forked;
    t.exited = k_.extra(e.task).exited;
    t.on_rq = ts.on_rq != 0;
    t.in_iowait = k_.extra(e.task).in_iowait;
    t.in_iowait_acct = k_.extra(e.task).in_iowait_acct;
    t.cpu = ts.cpu;
    t.nice = k_.extra(e.task).nice;
    t.se_on_rq = e.on_rq != 0;
    t.sched_delayed = e.sched_delayed != 0;
    t.rel_deadline = e.rel_deadline != 0;
    t.custom_slice = e.custom_slice != 0;
    t.vruntime = e.vruntime;
    t.deadline = e.deadline;
    t.slice = e.slice;
    t.weight = e.weight;
    t.inv_weight = e.inv_weight;
    t.vlag = e.vlag;
    // Without se->vprot, curr's vlag holds the deadline stashed at its pick (6.12
    // protection), except once update_entity_lag has stored its lag there.
    t.vlag_is_time = !o.has(c::KSRC_SHAPE_VPROT) && e.is_curr != 0 && e.on_rq != 0 && e.task != lag_task_;
    t.has_vprot = o.has(c::KSRC_SHAPE_VPROT);
    t.vprot = e.vprot;
    t.exec_start = ts.se.exec_start;  // the run-time counters are not in the observation
    t.sum_exec_runtime = ts.se.sum_exec_runtime;
    t.prev_sum_exec_runtime = ts.se.prev_sum_exec_runtime;
    model::MirrorLoader<Profile>::changed(mirror_, mirror_.tasks().at(static_cast<std::size_t>(e.task)).cpu);
    model::MirrorLoader<Profile>::load_task(mirror_, e.task, t, times);
    if (e.in_tree) r.tree.push_back(e.task);
    if (e.is_curr) r.cfs_curr = e.task;
  }
  auto& members = members_[static_cast<std::size_t>(cpu)];
  members.clear();
  for (const c::ksrc_obs_entity& e : o.entities) members.push_back(e.task);
  r.curr = o.rq.curr;
  r.next = o.rq.next;
  r.need_resched = o.rq.need_resched != 0;
  r.nr_running = o.rq.rq_nr_running;
  r.nr_queued = o.rq.nr_queued;
  r.h_nr_queued = o.rq.h_nr_queued;
  r.h_nr_runnable = static_cast<std::int32_t>(o.rq.h_nr_runnable);
  r.load_weight = o.rq.load_weight;
  // In the model's scaled-down weights: a sum_shift tree's keep full weights.
  const bool full = o.has(c::KSRC_SHAPE_SUM_SHIFT);
  r.sum = full ? model::sum_scaled_down(o.rq.sum_w_vruntime, o.rq.sum_shift) : o.rq.sum_w_vruntime;
  r.sum_weight = full ? static_cast<std::uint64_t>(model::sum_scaled_down(static_cast<std::int64_t>(o.rq.sum_weight),
                                                                           o.rq.sum_shift))
                      : o.rq.sum_weight;
  // sums_consistent recounts those in the tree's own terms.
  if (full) env_.full_weight_sums.at(static_cast<std::size_t>(cpu)) = {true, o.rq.sum_shift, o.rq.sum_w_vruntime,
                                                                         o.rq.sum_weight};
  // counters_consistent recounts it where the tree keeps it.
  if (o.has(c::KSRC_SHAPE_H_NR_DELAYED)) env_.h_nr_delayed.at(static_cast<std::size_t>(cpu)) = o.rq.h_nr_delayed;
  r.nr_iowait = k_.cpu_extra(cpu).nr_iowait;
  r.nr_iowait_acct = k_.cpu_extra(cpu).nr_iowait_acct;
  r.ever_enqueued = k_.cpu_extra(cpu).ever_enqueued;
  model::MirrorLoader<Profile>::load_rq(mirror_, cpu, r, times);
}

// Only what can have changed since the CPU was last loaded: the tasks it held then
// (one may have left it), the event's task (it may have moved or blocked anywhere),
// then the runqueue with the tasks it holds now.
template <class P>
void BasicKernelSrcMirror<P>::load(int cpu) {
  observe(cpu);
  load_leavers(cpu);
  load_rq(cpu);
}

// The rbtree as its own children link it: the tree's members come first in the
// observation, in tree order, so an entity's index is its node's.
template <class P>
void BasicKernelSrcMirror<P>::load_tree(int cpu) {
  const kernel_src::Observation& o = obs_[static_cast<std::size_t>(cpu)];
  properties::AugmentedTree& t = env_.augmented.at(static_cast<std::size_t>(cpu));
  t.kept = true;
  t.has_min_slice = o.has(c::KSRC_SHAPE_MIN_SLICE);
  t.has_max_slice = o.has(c::KSRC_SHAPE_MAX_SLICE);
  t.root = o.rq.root;
  t.nodes.clear();
  for (const c::ksrc_obs_entity& e : o.entities)
    if (e.in_tree != 0)
      t.nodes.push_back({e.task, e.left, e.right, e.vruntime, e.slice, e.min_vruntime, e.min_slice, e.max_slice});
}

template <class P>
void BasicKernelSrcMirror<P>::observe(int cpu, unsigned ask) {
  // V and eligibility are never read; the tree's shape only after an event.
  k_.observe(cpu, obs_[static_cast<std::size_t>(cpu)], ask);
  auto& times = times_[static_cast<std::size_t>(cpu)];
  times = times.moved_to(obs_[static_cast<std::size_t>(cpu)].rq.v0);
}

// A task still on the CPU is loaded from the observation by load_rq.
template <class P>
void BasicKernelSrcMirror<P>::load_leavers(int cpu) {
  model::MirrorLoader<Profile>::set_now(mirror_, k_.now());
  const kernel_src::Observation& o = obs_[static_cast<std::size_t>(cpu)];
  const auto stays = [&](int p) {
    return std::any_of(o.entities.begin(), o.entities.end(), [&](const c::ksrc_obs_entity& e) { return e.task == p; });
  };
  for (const int p : members_[static_cast<std::size_t>(cpu)])
    if (!stays(p)) load_task(p);
  if (event_task_ >= 0 && !stays(event_task_)) load_task(event_task_);
}

// As CheckedRun's: the event's task's CPU (before and after), its `cpu=`, and every
// busy CPU for `tick all`; from the driver, whose task_cpu is the real one.
template <class P>
void BasicKernelSrcMirror<P>::add_touched(const trace::Event& e) {
  if (event_task_ >= 0) env_.touched.push_back(k_.task(event_task_).cpu);
  if (e.cpu) env_.touched.push_back(*e.cpu);
  if (e.all_cpus)
    for (int cpu = 0; cpu < k_.ncpus(); ++cpu)
      if (k_.curr_index(cpu) >= 0) env_.touched.push_back(cpu);
}

template <class P>
void BasicKernelSrcMirror<P>::before(const trace::Event& e) {
  env_.line = e.line;
  env_.now = e.time_ns;
  env_.event = &e;
  env_.touched.clear();
  event_task_ = e.task != 0 ? k_.task_index(e.task) : -1;
  if (checker_.empty()) return;
  add_touched(e);
  checker_.before_event(e);
}

template <class P>
void BasicKernelSrcMirror<P>::after(const trace::Event& e) {
  if (checker_.empty()) return;
  flush_placed();
  add_touched(e);
  auto& cpus = env_.touched;
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  for (const int cpu : cpus) observe(cpu, walk_tree_ ? static_cast<unsigned>(c::KSRC_OBS_TREE) : 0u);
  for (const int cpu : cpus) load_leavers(cpu);
  for (const int cpu : cpus) load_rq(cpu);
  if (walk_tree_)
    for (const int cpu : cpus) load_tree(cpu);
  checker_.after_event(e);
  last_ = e;
  last_checked_ = cpus;
  applied_ = true;
  env_.event = nullptr;
  event_task_ = -1;
}

template <class P>
void BasicKernelSrcMirror<P>::finish() {
  if (checker_.empty()) return;
  if (applied_) {
    for (int cpu = 0; cpu < k_.ncpus(); ++cpu) observe(cpu);
    load_tasks();
    for (int cpu = 0; cpu < k_.ncpus(); ++cpu) load_rq(cpu);
    env_.line = last_.line;
    env_.now = last_.time_ns;
    env_.event = &last_;
    checker_.after_trace(last_, last_checked_);
    env_.event = nullptr;
  }
  checker_.finish();
}

template <class P>
void BasicKernelSrcMirror<P>::taint(const std::set<int>& cpus) { env_.overflowed.insert(cpus.begin(), cpus.end()); }

// ---- the hooks: each loads its CPU as the real code holds it at that call --------

// The model fires `placed` at the end of enqueue_entity (or of a requeue's
// re-placement), once the entity is back in the sums; the real place_entity returns
// before that: kept until the placement is complete (placement_done).
template <class P>
void BasicKernelSrcMirror<P>::on_placed(void* ctx, int cpu, int task, int flags, std::int64_t vlag, int had_rel,
                                std::int64_t rel) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.placed_ = {true, cpu, task, flags, vlag, rel, had_rel != 0};
}

template <class P>
void BasicKernelSrcMirror<P>::on_placement_done(void* ctx) { static_cast<BasicKernelSrcMirror*>(ctx)->flush_placed(); }

// The kernel's ENQUEUE_* bits as the model's (the ones the placement rules read:
// deadline_rule's ENQUEUE_INITIAL).
template <class P>
void BasicKernelSrcMirror<P>::flush_placed() {
  if (!placed_.pending) return;
  placed_.pending = false;
  load(placed_.cpu);
  unsigned model_flags = 0;
  if ((placed_.flags & c::ENQUEUE_WAKEUP) != 0) model_flags |= model::ENQUEUE_WAKEUP;
  if ((placed_.flags & c::ENQUEUE_RESTORE) != 0) model_flags |= model::ENQUEUE_RESTORE;
  if ((placed_.flags & c::ENQUEUE_MIGRATED) != 0) model_flags |= model::ENQUEUE_MIGRATED;
  if ((placed_.flags & c::ENQUEUE_INITIAL) != 0) model_flags |= model::ENQUEUE_INITIAL;
  if ((placed_.flags & c::ENQUEUE_DELAYED) != 0) model_flags |= model::ENQUEUE_DELAYED;
  checker_.placed(rq(placed_.cpu).cfs, se(placed_.task), model_flags,
                  KernelArith::from_s64(placed_.vlag), placed_.had_rel,
                  placed_.had_rel ? KernelArith::from_s64(placed_.rel) : KernelArith::value{});
}

template <class P>
void BasicKernelSrcMirror<P>::on_picked(void* ctx, int cpu, int task, int buddy) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.picked(m.rq(cpu), task < 0 ? nullptr : &m.se(task), buddy != 0);
}

// The hook's raw lag, limit and V are recounted from the loaded queue (the real
// code's own are gone with its stack); no property reads them. The vlag before the
// store is what a delayed entity's store may keep (Env::vlag_before_store).
template <class P>
void BasicKernelSrcMirror<P>::on_lag_stored(void* ctx, int cpu, int task, std::int64_t vlag_before) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.lag_task_ = task;
  m.load(cpu);
  m.lag_task_ = -1;
  const auto& se = m.se(task);
  const auto& cfs = m.rq(cpu).cfs;
  const KernelArith::value V = m.env_.facts(cpu).avg_vruntime();
  m.env_.vlag_before_store = KernelArith::from_s64(vlag_before);
  m.checker_.lag_stored(cfs, se, V - se.vruntime, properties::lag_detail::lag_limit(m.env_, cfs, se), V);
}

template <class P>
void BasicKernelSrcMirror<P>::on_set_next(void* ctx, int cpu, int task) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.set_next(m.rq(cpu).cfs, m.se(task));
}

template <class P>
void BasicKernelSrcMirror<P>::on_buddy_set(void* ctx, int cpu, int task) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.buddy_set(m.rq(cpu).cfs, m.se(task));
}

// Loaded after update_curr returned: its resched_curr and clear_buddies have run,
// which the model's `charged` precedes; no check reads need_resched or the buddy there.
template <class P>
void BasicKernelSrcMirror<P>::on_charged(void* ctx, int cpu, int task, std::uint64_t delta, int renewed, int resched) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.charged(m.rq(cpu).cfs, m.se(task), delta, renewed != 0, resched != 0);
}

template <class P>
void BasicKernelSrcMirror<P>::on_block_completed(void* ctx, int cpu, int task) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.load_task(task);  // off every runqueue now, it may be no member of cpu's observation
  m.checker_.block_completed(m.rq(cpu), m.mirror_.tasks().at(static_cast<std::size_t>(task)));
}

// Fired before the re-base, as the model's (the state still has the old v0), or once
// v0 has moved (`done`: the state has the new one). No point where a placement is
// complete: __enqueue_entity re-bases v0 before enqueue_entity counts the entity.
template <class P>
void BasicKernelSrcMirror<P>::on_v0_moved(void* ctx, int cpu, std::int64_t delta, int done, int placing) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.load(cpu);
  if (placing >= 0) m.load_task(placing);  // not in the tree while it is placed
  const KernelArith::value now = m.times_[static_cast<std::size_t>(cpu)].base;
  const KernelArith::value from = done != 0 ? now - KernelArith::from_s64(delta) : now;
  m.env_.v0_placing = placing >= 0 ? &m.se(placing) : nullptr;
  m.checker_.v0_moved(m.rq(cpu).cfs, from, from + KernelArith::from_s64(delta));
  m.env_.v0_placing = nullptr;
}

// The kernel's dequeue flags as the model's (the ones delayed_entry reads).
template <class P>
void BasicKernelSrcMirror<P>::on_delay_entered(void* ctx, int cpu, int task, int flags) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  unsigned model_flags = 0;
  if ((flags & c::DEQUEUE_SLEEP) != 0) model_flags |= model::DEQUEUE_SLEEP;
  if ((flags & c::DEQUEUE_SPECIAL) != 0) model_flags |= model::DEQUEUE_SPECIAL;
  if ((flags & c::DEQUEUE_DELAYED) != 0) model_flags |= model::DEQUEUE_DELAYED;
  m.checker_.delay_entered(m.rq(cpu).cfs, m.se(task), model_flags);
}

// As the model: a delayed dequeue's finish counts as by_pick (also when a migrate or
// renice forces it), a requeue as by_wake; one after the wakeup check's pick as
// by_wakeup_pick.
template <class P>
void BasicKernelSrcMirror<P>::on_delay_left(void* ctx, int cpu, int task, int how) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.load_task(task);  // a finished delayed dequeue left the runqueue
  m.checker_.delay_left(m.rq(cpu).cfs, m.se(task),
                        how == 1   ? model::delay_exit::by_wake
                        : how == 2 ? model::delay_exit::by_wakeup_pick
                                   : model::delay_exit::by_pick);
}

template <class P>
void BasicKernelSrcMirror<P>::on_wakeup_entered(void* ctx, int cpu, int task) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.wakeup_entered(m.rq(cpu), m.se(task));
}

template <class P>
void BasicKernelSrcMirror<P>::on_wakeup_pick_step(void* ctx, int cpu, int curr, int task, int short_) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.wakeup_pick_step(m.rq(cpu), m.se(curr), m.se(task), short_ != 0);
}

// Loaded before the check's resched_curr, as the model fires it.
template <class P>
void BasicKernelSrcMirror<P>::on_wakeup_decided(void* ctx, int cpu, int task, int preempted) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.wakeup_decided(m.rq(cpu), m.se(task), preempted != 0);
}

template <class P>
void BasicKernelSrcMirror<P>::on_yielded(void* ctx, int cpu, int task) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.yielded(m.rq(cpu), m.se(task));
}

template <class P>
void BasicKernelSrcMirror<P>::tally(std::map<std::string, std::uint64_t>& evaluated) const {
  checker_.for_each([&](const auto& p) { evaluated[std::string(p.name())] += p.evaluated(); });
}

// set_protect_slice() set curr's protection from `min_slice`, the augmented minimum
// of the tree it read (6.18's protection_set; the 6.12 stash never fires it).
template <class P>
void BasicKernelSrcMirror<P>::on_protection_set(void* ctx, int cpu, int task, std::uint64_t min_slice) {
  BasicKernelSrcMirror& m = *static_cast<BasicKernelSrcMirror*>(ctx);
  m.flush_placed();
  m.load(cpu);
  m.checker_.protection_set(m.rq(cpu).cfs, m.se(task), min_slice);
}

template class BasicKernelSrcMirror<model::profile_6_12>;
template class BasicKernelSrcMirror<model::profile_6_18>;

std::unique_ptr<MirrorDriver> make_kernel_src_mirror(const model::Config& config,
                                                     const std::vector<model::TaskSpec>& specs,
                                                     kernel_src::Machine& k, properties::Sink& sink,
                                                     const properties::Selection& selection, bool reference_lockstep) {
  kernel_src::Observation o;
  k.observe(0, o);
  const std::string_view forms = forms_for_shape(o.rq.shape);
  const properties::TreeTraits traits = tree_traits(o.rq.shape, reference_lockstep);
  if (forms == model::profile_6_12::name)
    return std::make_unique<BasicKernelSrcMirror<model::profile_6_12>>(config, specs, k, sink, selection, traits);
  if (forms == model::profile_6_18::name)
    return std::make_unique<BasicKernelSrcMirror<model::profile_6_18>>(config, specs, k, sink, selection, traits);
  throw UnknownShape(fmt::format("kernel-src {}: the property mirror has no forms for this tree's shape (observation "
                                 "shape bits {:#x}: kernel_src/observe.h KSRC_SHAPE_*)",
                                 kernel_src::kernel_version(), o.rq.shape));
}

}  // namespace eevdf::replay
