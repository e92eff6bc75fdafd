/* The kernel-src harness: Debian's 6.12 fair-class functions (extracted at build time
 * into fair_extract.c, never committed) compiled as C against our shim, with the
 * observer wrappers and the exported entry points of harness.h. */
#include <setjmp.h>

#include "kernel_src/shim/kernel.h"
#include "kernel_src/harness.h"
#include "kernel_src/observe.h"
#include "ksrc_version.h"

_Thread_local unsigned long ksrc_warnings;
_Thread_local const char *ksrc_warning_check, *ksrc_warning_function;
_Thread_local struct ksrc_tunables ksrc_tunables;
_Thread_local struct ksrc_hooks ksrc_hooks;

/* The entry point's escape while the kernel code runs, and the last oops. */
static _Thread_local jmp_buf *ksrc_escape;
static _Thread_local const char *ksrc_oops_reason;

_Noreturn void ksrc_oops(const char *why) {
  if (!ksrc_oops_reason) ksrc_oops_reason = why; /* the first one counts */
  if (ksrc_escape) longjmp(*ksrc_escape, 1);
  __builtin_trap(); /* an oops outside an entry point is a harness bug */
}

/* Runs `call` (a statement) with an escape for ksrc_oops; `on_oops` afterwards. Nests:
 * an observation from a mirror hook runs inside an entry point's call. */
#define KSRC_GUARDED(call, on_oops)       \
  do {                                     \
    jmp_buf escape;                        \
    jmp_buf *const outer = ksrc_escape;    \
    if (setjmp(escape) != 0) {             \
      ksrc_escape = outer;                 \
      on_oops;                             \
    }                                      \
    ksrc_escape = &escape;                 \
    call;                                  \
    ksrc_escape = outer;                   \
  } while (0)

/* Functions the kernel file declares ahead of their definitions, and the wrappers
 * that take the kernel names of the renamed real functions. */
static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se);
static int dequeue_entities(struct rq *rq, struct sched_entity *se, int flags);
static void requeue_delayed_entity(struct sched_entity *se);
static void set_next_buddy(struct sched_entity *se);
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
static struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq);
static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight);
static _Thread_local int ksrc_in_pick_task; /* inside pick_task_fair() */
static void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);
static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se);
static bool did_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *curr);
static void update_curr(struct cfs_rq *cfs_rq);
static void update_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta);
static void set_delayed(struct sched_entity *se);
static void clear_delayed(struct sched_entity *se);
static void finish_delayed_dequeue_entity(struct sched_entity *se);
static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
static bool do_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *pse, struct sched_entity *se);
static struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq);
/* Inside pick_next_entity(): whether it called pick_eevdf() (else a buddy pick). */
static _Thread_local int ksrc_eevdf_picked;
/* The wakee of the wakeup check in progress (NULL: none). */
static _Thread_local struct sched_entity *ksrc_wakee;
/* Inside ksrc_observe(): its own reads fire no mirror hook. */
static _Thread_local int ksrc_observing;
/* The property mirror's hooks (NULL while observing or when none is installed). */
static inline const struct ksrc_mirror_hooks *ksrc_mirror(void) { return ksrc_observing ? NULL : ksrc_hooks.mirror; }
static inline int ksrc_mirror_task(struct sched_entity *se) { return se ? task_of(se)->index : -1; }

#include "fair_extract.c"

/* The wrappers: the real function, then the observer hook (the points where the
 * reference model fires placed / picked / reweighted). */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags) {
  const s64 vlag = se->vlag, rel = (s64)se->deadline;
  const int had_rel = se->rel_deadline;
  ksrc_real_place_entity(cfs_rq, se, flags);
  if (ksrc_hooks.placed) ksrc_hooks.placed(cfs_rq, se, flags);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placed) m->placed(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), flags, vlag, had_rel, rel);
}

static struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq) {
  struct sched_entity *se = ksrc_real_pick_eevdf(cfs_rq);
  if (ksrc_hooks.picked) ksrc_hooks.picked(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (ksrc_in_pick_task) ksrc_eevdf_picked = 1;
  if (m && m->picked && ksrc_in_pick_task) m->picked(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), 0);
  if (m && m->wakeup_decided && !ksrc_in_pick_task && ksrc_wakee)
    m->wakeup_decided(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(ksrc_wakee), se == ksrc_wakee);
  /* pick_next_entity() reads se->sched_delayed at once; the wakeup check only compares. */
  if (!se && ksrc_in_pick_task)
    ksrc_oops(KSRC_OOPS_NULL_PICK ": pick_eevdf() found nothing eligible");
  return se;
}

static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight) {
  ksrc_real_reweight_entity(cfs_rq, se, weight);
  if (ksrc_hooks.reweighted) ksrc_hooks.reweighted(cfs_rq, se, weight);
}

/* The wrappers for the property mirror alone. */
static void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  ksrc_real_update_entity_lag(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->lag_stored) m->lag_stored(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se));
}

static void set_next_buddy(struct sched_entity *se) {
  ksrc_real_set_next_buddy(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->buddy_set && cfs_rq_of(se)->next == se) m->buddy_set(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se));
}

static void update_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->v0_moved && delta != 0) m->v0_moved(m->ctx, rq_of(cfs_rq)->cpu, delta);
  ksrc_real_update_zero_vruntime(cfs_rq, delta);
}

static struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq) {
  const int outer = ksrc_eevdf_picked;
  ksrc_eevdf_picked = 0;
  struct sched_entity *se = ksrc_real_pick_next_entity(rq, cfs_rq);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->picked && !ksrc_eevdf_picked && se) m->picked(m->ctx, rq->cpu, ksrc_mirror_task(se), 1);
  ksrc_eevdf_picked = outer;
  return se;
}

static bool do_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *pse, struct sched_entity *se) {
  const bool short_ = ksrc_real_do_preempt_short(cfs_rq, pse, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->wakeup_pick_step)
    m->wakeup_pick_step(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), ksrc_mirror_task(pse), short_);
  return short_;
}

/* Delay entry and exit. dequeue_entity() keeps its flags for set_delayed()'s hook. */
static _Thread_local int ksrc_dequeue_flags;

static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags) {
  const int outer = ksrc_dequeue_flags;
  ksrc_dequeue_flags = flags;
  const bool done = ksrc_real_dequeue_entity(cfs_rq, se, flags);
  ksrc_dequeue_flags = outer;
  return done;
}

static void set_delayed(struct sched_entity *se) {
  ksrc_real_set_delayed(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_entered) m->delay_entered(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), ksrc_dequeue_flags);
}

static void clear_delayed(struct sched_entity *se) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placement_done) m->placement_done(m->ctx); /* a requeue's re-placement is complete */
  ksrc_real_clear_delayed(se);
}

static void finish_delayed_dequeue_entity(struct sched_entity *se) {
  ksrc_real_finish_delayed_dequeue_entity(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_left) m->delay_left(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), 0);
}

static void requeue_delayed_entity(struct sched_entity *se) {
  ksrc_real_requeue_delayed_entity(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_left) m->delay_left(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), 1);
}

/* update_curr()'s decisions for the mirror's `charged`: what its update_deadline()
 * and did_preempt_short() returned during the call. */
static _Thread_local int ksrc_renewed, ksrc_preempt_short;
#ifndef KSRC_CFS_NR_QUEUED /* the tree's name of cfs_rq->nr_queued (also below) */
#define KSRC_CFS_NR_QUEUED nr_running
#endif

static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const bool renewed = ksrc_real_update_deadline(cfs_rq, se);
  ksrc_renewed |= renewed;
  return renewed;
}

static bool did_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *curr) {
  const bool preempt = ksrc_real_did_preempt_short(cfs_rq, curr);
  ksrc_preempt_short |= preempt;
  return preempt;
}

static void update_curr(struct cfs_rq *cfs_rq) {
  struct sched_entity *curr = cfs_rq->curr;
  const u64 before = curr ? curr->sum_exec_runtime : 0;
  ksrc_renewed = ksrc_preempt_short = 0;
  ksrc_real_update_curr(cfs_rq);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->charged && curr && curr->sum_exec_runtime != before) {
    const int resched = cfs_rq->KSRC_CFS_NR_QUEUED != 1 && (ksrc_renewed || ksrc_preempt_short);
    m->charged(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(curr), curr->sum_exec_runtime - before, ksrc_renewed,
               resched);
  }
}

/* core.c wakeup_preempt(): the fair hook under a fair curr; an idle CPU (the idle
 * class is below fair) reschedules. */
static void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags) {
  ksrc_wakee = &p->se;
  if (rq->curr) check_preempt_wakeup_fair(rq, p, flags);
  else resched_curr(rq);
  ksrc_wakee = NULL;
}

const char *ksrc_kernel_version(void) { return KSRC_KERNEL_VERSION; }

void ksrc_install(const struct ksrc_tunables *tunables, const struct ksrc_hooks *hooks) {
  ksrc_tunables = *tunables;
  ksrc_hooks = *hooks;
}

const char *ksrc_first_warning(const char **function) {
  *function = ksrc_warnings != 0 ? ksrc_warning_function : NULL;
  return ksrc_warnings != 0 ? ksrc_warning_check : NULL;
}

unsigned long ksrc_warnings_taken(void) {
  const unsigned long n = ksrc_warnings;
  ksrc_warnings = 0;
  return n;
}

const char *ksrc_oops_taken(void) {
  const char *why = ksrc_oops_reason;
  ksrc_oops_reason = NULL;
  return why;
}

/* Every entry point that runs kernel code can oops: the caller checks ksrc_oops_taken(). */
void ksrc_init_cfs_rq(struct cfs_rq *cfs_rq) { init_cfs_rq(cfs_rq); }
void ksrc_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags) {
  KSRC_GUARDED(enqueue_task_fair(rq, p, flags), return);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placement_done) m->placement_done(m->ctx);
}
bool ksrc_dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags) {
  bool done = false;
  KSRC_GUARDED(done = dequeue_task_fair(rq, p, flags), return true);
  return done;
}
struct task_struct *ksrc_pick_task_fair(struct rq *rq) {
  struct task_struct *next = NULL;
  ksrc_in_pick_task = 1;
  KSRC_GUARDED(next = pick_task_fair(rq), ksrc_in_pick_task = 0; return NULL);
  ksrc_in_pick_task = 0;
  return next;
}
void ksrc_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev) {
  KSRC_GUARDED(put_prev_entity(cfs_rq, prev), return);
}
void ksrc_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->set_next) m->set_next(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se));
  KSRC_GUARDED(set_next_entity(cfs_rq, se), return);
}
void ksrc_wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags) {
  KSRC_GUARDED(wakeup_preempt(rq, p, wake_flags), ksrc_wakee = NULL; return);
}
/* task_tick_fair() of a flat hierarchy: entity_tick() on the root cfs_rq; NUMA, misfit
 * and core-scheduling work are outside the model. */
void ksrc_task_tick_fair(struct rq *rq, struct task_struct *curr) {
  KSRC_GUARDED(entity_tick(&rq->cfs, &curr->se, 0), return);
}
void ksrc_yield_task_fair(struct rq *rq) { KSRC_GUARDED(yield_task_fair(rq), return); }
void ksrc_reweight_task_fair(struct rq *rq, struct task_struct *p, const struct load_weight *lw) {
  KSRC_GUARDED(reweight_task_fair(rq, p, lw), return);
}
void ksrc_prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio) {
  KSRC_GUARDED(prio_changed_fair(rq, p, oldprio), return);
}
int ksrc_entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se) { return entity_eligible(cfs_rq, se); }
bool ksrc_protect_slice(struct sched_entity *se) { return protect_slice(se); }

/* ---- the observation (observe.h) ---------------------------------------------- */
/* The tree's field names and shape; a generated config names the tree's own. */
#ifndef KSRC_CFS_NR_QUEUED
#define KSRC_CFS_NR_QUEUED nr_running
#endif
#ifndef KSRC_CFS_SUM
#define KSRC_CFS_SUM avg_vruntime
#endif
#ifndef KSRC_CFS_SUM_WEIGHT
#define KSRC_CFS_SUM_WEIGHT avg_load
#endif
#ifndef KSRC_CFS_V0
#define KSRC_CFS_V0 zero_vruntime
#endif
#ifndef KSRC_SHAPE
#define KSRC_SHAPE (KSRC_SHAPE_ZERO_VRUNTIME | KSRC_SHAPE_MIN_SLICE | KSRC_SHAPE_H_NR_DELAYED)
#endif

static int ksrc_task_index_of(const struct sched_entity *se) { return se ? task_of((struct sched_entity *)se)->index : -1; }

static void ksrc_observe_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, struct ksrc_obs_entity *e) {
  e->task = ksrc_task_index_of(se);
  e->left = e->right = -1;
  e->in_tree = 0;
  e->is_curr = cfs_rq->curr == se;
  e->on_rq = se->on_rq;
  e->sched_delayed = se->sched_delayed;
  e->rel_deadline = se->rel_deadline;
  e->custom_slice = se->custom_slice;
  e->eligible = entity_eligible(cfs_rq, se) != 0;
  e->vruntime = se->vruntime;
  e->deadline = se->deadline;
  e->slice = se->slice;
  e->weight = se->load.weight;
  e->inv_weight = se->load.inv_weight;
  e->vlag = se->vlag;
#if KSRC_SHAPE & KSRC_SHAPE_VPROT
  e->vprot = se->vprot;
#else
  e->vprot = 0;
#endif
  e->min_vruntime = se->min_vruntime;
#if KSRC_SHAPE & KSRC_SHAPE_MIN_SLICE
  e->min_slice = se->min_slice;
#else
  e->min_slice = 0;
#endif
#if KSRC_SHAPE & KSRC_SHAPE_MAX_SLICE
  e->max_slice = se->max_slice;
#else
  e->max_slice = 0;
#endif
}

static int ksrc_obs_index(const struct ksrc_obs_rq *out, const struct rb_node *node) {
  if (!node) return -1;
  const int task = ksrc_task_index_of(rb_entry(node, struct sched_entity, run_node));
  for (int i = 0; i < out->n; ++i)
    if (out->entities[i].in_tree && out->entities[i].task == task) return i;
  return -1;
}

/* The runqueue as the tree's own structures hold it: the rbtree walked in order with
 * the tree's rb_first_cached / rb_next, then curr when it is not in the tree. Pure:
 * avg_vruntime() (which re-bases v0) runs on a copy. */
static void ksrc_observe_rq(struct rq *rq, struct ksrc_obs_rq *out);
void ksrc_observe(struct rq *rq, struct ksrc_obs_rq *out) {
  const int was = ksrc_observing;
  ksrc_observing = 1;
  ksrc_observe_rq(rq, out);
  ksrc_observing = was;
}

static void ksrc_observe_rq(struct rq *rq, struct ksrc_obs_rq *out) {
  struct cfs_rq *cfs_rq = &rq->cfs;
  out->shape = KSRC_SHAPE;
  out->cpu = rq->cpu;
  out->curr = rq->curr ? rq->curr->index : -1;
  out->next = ksrc_task_index_of(cfs_rq->next);
  out->need_resched = rq->need_resched;
  out->rq_nr_running = rq->nr_running;
  out->nr_queued = cfs_rq->KSRC_CFS_NR_QUEUED;
  out->h_nr_queued = cfs_rq->h_nr_queued;
  out->h_nr_runnable = cfs_rq->h_nr_runnable;
#if KSRC_SHAPE & KSRC_SHAPE_H_NR_DELAYED
  out->h_nr_delayed = cfs_rq->h_nr_delayed;
#else
  out->h_nr_delayed = 0;
#endif
  out->load_weight = cfs_rq->load.weight;
  out->sum_w_vruntime = cfs_rq->KSRC_CFS_SUM;
  out->sum_weight = cfs_rq->KSRC_CFS_SUM_WEIGHT;
#if KSRC_SHAPE & KSRC_SHAPE_SUM_SHIFT
  out->sum_shift = cfs_rq->sum_shift;
#else
  out->sum_shift = 0;
#endif
  out->v0 = cfs_rq->KSRC_CFS_V0;
  {
    /* Neither a warning nor a crash of this read counts: only the events' do. */
    struct rq copy = *rq;
    const char *oops = ksrc_oops_reason;
    const unsigned long warnings = ksrc_warnings;
    KSRC_GUARDED(out->V = avg_vruntime(&copy.cfs), out->V = 0);
    ksrc_oops_reason = oops;
    ksrc_warnings = warnings;
  }
  out->n = 0;
  bool curr_in_tree = false;
  for (struct rb_node *node = rb_first_cached(&cfs_rq->tasks_timeline); node && out->n < out->capacity;
       node = rb_next(node)) {
    struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
    struct ksrc_obs_entity *e = &out->entities[out->n++];
    ksrc_observe_entity(cfs_rq, se, e);
    e->in_tree = 1;
    curr_in_tree |= se == cfs_rq->curr;
  }
  {
    /* Children by a second in-order walk: the i-th node is entities[i]. */
    int i = 0;
    for (struct rb_node *node = rb_first_cached(&cfs_rq->tasks_timeline); node && i < out->n; node = rb_next(node), ++i) {
      out->entities[i].left = ksrc_obs_index(out, node->rb_left);
      out->entities[i].right = ksrc_obs_index(out, node->rb_right);
    }
    out->root = ksrc_obs_index(out, cfs_rq->tasks_timeline.rb_root.rb_node);
  }
  if (cfs_rq->curr && !curr_in_tree && out->n < out->capacity)
    ksrc_observe_entity(cfs_rq, cfs_rq->curr, &out->entities[out->n++]);
}
