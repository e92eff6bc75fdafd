/* The kernel-src harness: a tree's fair-class functions (extracted into fair_extract.c,
 * never committed; the ones this file reaches, closure.h) compiled as C against our
 * shim, with the observer wrappers and the exported entry points of harness.h. The
 * tree's shape (ksrc_config.h, detected from its source) selects the call forms. */
#include <setjmp.h>

#include "ksrc_config.h" /* the tree's detected shape (generated) */
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
      ksrc_in_pick_next_entity = 0;        \
      on_oops;                             \
    }                                      \
    ksrc_escape = &escape;                 \
    call;                                  \
    ksrc_escape = outer;                   \
  } while (0)

static _Thread_local int ksrc_in_pick_task;        /* inside pick_task_fair() */
static _Thread_local int ksrc_in_pick_next_entity; /* inside pick_next_entity() */
/* Inside pick_next_entity(): whether it called pick_eevdf() (else a buddy pick). */
static _Thread_local int ksrc_eevdf_picked;
/* The wakee of the wakeup check in progress (NULL: none). */
static _Thread_local struct sched_entity *ksrc_wakee;
/* Inside ksrc_observe(): its own reads fire no mirror hook. */
static _Thread_local int ksrc_observing;
/* The entity whose place_entity() runs, where place_entity() itself re-bases
 * zero_vruntime (KSRC_REBASES_V0_IN_place_entity), else NULL. */
static _Thread_local struct sched_entity *ksrc_placing;
/* The property mirror's hooks (NULL while observing or when none is installed). */
static inline const struct ksrc_mirror_hooks *ksrc_mirror(void) { return ksrc_observing ? NULL : ksrc_hooks.mirror; }
static inline int ksrc_mirror_task(struct sched_entity *se) { return se ? task_of(se)->index : -1; }


/* The extracted tree: a prototype of every function, then the items (the functions the
 * harness wraps below are renamed ksrc_real_<name> there). */
#include "fair_extract.c"

/* The wrappers: the real function, then the observer hook (the points where the
 * reference model fires placed / picked / reweighted). Their signatures follow the
 * tree's (KSRC_NARGS_<fn>, detected). */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags) {
  const s64 vlag = se->vlag, rel = (s64)se->deadline;
  const int had_rel = se->rel_deadline;
#if KSRC_REBASES_V0_IN_place_entity
  struct sched_entity *const was_placing = ksrc_placing;
  ksrc_placing = se;
  ksrc_real_place_entity(cfs_rq, se, flags);
  ksrc_placing = was_placing;
#else
  ksrc_real_place_entity(cfs_rq, se, flags);
#endif
  if (ksrc_hooks.placed) ksrc_hooks.placed(cfs_rq, se, flags);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placed) m->placed(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), flags, vlag, had_rel, rel);
}

/* pick_next_entity() reads se->sched_delayed of what pick_eevdf() returned at once:
 * NULL there is the real code's NULL dereference. The wakeup check of most trees
 * calls pick_eevdf() itself and only compares; 7.1's goes through pick_next_entity(). */
#if KSRC_HAS_set_preempt_buddy
#define KSRC_PICK_TAKES_BUDDY 1
#else
#define KSRC_PICK_TAKES_BUDDY 0
#endif
static struct sched_entity *ksrc_picked(struct cfs_rq *cfs_rq, struct sched_entity *se, bool protect) {
  if (ksrc_hooks.picked) ksrc_hooks.picked(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (ksrc_in_pick_task) ksrc_eevdf_picked = 1;
  /* From 6.19 __pick_eevdf() itself returns an eligible next buddy first (PICK_BUDDY;
   * in 7.1 when it protects): that is a buddy pick too. Those trees came with the
   * NEXT_BUDDY rework that added set_preempt_buddy(); where pick_next_entity() takes
   * the buddy first (6.12 to 6.18, reported by ksrc_picked_next), every pick here is
   * an EEVDF pick and is judged as one. */
  const int buddy = KSRC_PICK_TAKES_BUDDY && se && se == cfs_rq->next && sched_feat(PICK_BUDDY) && protect;
  if (m && m->picked && ksrc_in_pick_task) m->picked(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), buddy);
  /* 7.1's check picks through pick_next_entity(), which completes a delayed pick's
   * dequeue and picks again: only the pick it decides on is its decision. */
  const int picks_again = se && se->sched_delayed && ksrc_in_pick_next_entity;
  if (m && m->wakeup_decided && !ksrc_in_pick_task && ksrc_wakee && !picks_again)
    m->wakeup_decided(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(ksrc_wakee), se == ksrc_wakee);
  if (!se && ksrc_in_pick_next_entity)
    ksrc_oops(KSRC_OOPS_NULL_PICK ": pick_eevdf() found nothing eligible");
  return se;
}
/* The wakeup check's pick step where no do_preempt_short() marks it (the vprot trees):
 * its pick, once its update_curr() ran and it chose `protect` (false: PREEMPT_SHORT),
 * before any change of curr's protection, which all follow the pick. */
static void ksrc_wakeup_pick_step(struct cfs_rq *cfs_rq, bool protect) {
#if KSRC_HAS_do_preempt_short
  (void)cfs_rq, (void)protect;
#else
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  struct rq *rq = rq_of(cfs_rq);
  if (m && m->wakeup_pick_step && ksrc_wakee && !ksrc_in_pick_task && rq->curr)
    m->wakeup_pick_step(m->ctx, rq->cpu, rq->curr->index, ksrc_mirror_task(ksrc_wakee), !protect);
#endif
}
/* Where pick_eevdf() forwards to __pick_eevdf() (6.18 to 7.0), the wakeup check calls
 * __pick_eevdf() itself: that is the call wrapped, so both picks are seen once. */
#if KSRC_HAS___pick_eevdf
static struct sched_entity *__pick_eevdf(struct cfs_rq *cfs_rq, bool protect) {
  ksrc_wakeup_pick_step(cfs_rq, protect);
  return ksrc_picked(cfs_rq, ksrc_real___pick_eevdf(cfs_rq, protect), protect);
}
#elif KSRC_NARGS_pick_eevdf == 2
static struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect) {
  ksrc_wakeup_pick_step(cfs_rq, protect);
  return ksrc_picked(cfs_rq, ksrc_real_pick_eevdf(cfs_rq, protect), protect);
}
#else
static struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq) {
  return ksrc_picked(cfs_rq, ksrc_real_pick_eevdf(cfs_rq), true);
}
#endif
/* Around the real pick_next_entity(): a pick that did not go through pick_eevdf() is
 * a buddy pick (the mirror's picked with buddy set). */
static struct sched_entity *ksrc_picked_next(struct rq *rq, struct sched_entity *se, int outer) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->picked && !ksrc_eevdf_picked && se && ksrc_in_pick_task) m->picked(m->ctx, rq->cpu, ksrc_mirror_task(se), 1);
  ksrc_eevdf_picked = outer;
  ksrc_in_pick_next_entity = 0;
  return se;
}
#if KSRC_NARGS_pick_next_entity == 3
static struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq, bool protect) {
  const int outer = ksrc_eevdf_picked;
  ksrc_eevdf_picked = 0;
  ksrc_in_pick_next_entity = 1;
  return ksrc_picked_next(rq, ksrc_real_pick_next_entity(rq, cfs_rq, protect), outer);
}
#else
static struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq) {
  const int outer = ksrc_eevdf_picked;
  ksrc_eevdf_picked = 0;
  ksrc_in_pick_next_entity = 1;
  return ksrc_picked_next(rq, ksrc_real_pick_next_entity(rq, cfs_rq), outer);
}
#endif

static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight) {
  ksrc_real_reweight_entity(cfs_rq, se, weight);
  if (ksrc_hooks.reweighted) ksrc_hooks.reweighted(cfs_rq, se, weight);
}

/* The wrappers for the property mirror alone, each where the tree has the function in
 * the form the mirror reads (6.12's; a tree without it gives the mirror no such call). */
#if KSRC_HAS_update_entity_lag && KSRC_NARGS_update_entity_lag == 2 && KSRC_VOID_update_entity_lag
static void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const s64 before = se->vlag;
  ksrc_real_update_entity_lag(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->lag_stored) m->lag_stored(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), before);
}
#elif KSRC_HAS_update_entity_lag && KSRC_NARGS_update_entity_lag == 2
/* 7.1: it also says whether the caller must move vruntime. */
static bool update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const s64 before = se->vlag;
  const bool move = ksrc_real_update_entity_lag(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->lag_stored) m->lag_stored(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), before);
  return move;
}
#endif

#if KSRC_HAS_set_next_buddy
static void set_next_buddy(struct sched_entity *se) {
  ksrc_real_set_next_buddy(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->buddy_set && cfs_rq_of(se)->next == se) m->buddy_set(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se));
}
#endif

#if KSRC_HAS_update_zero_vruntime && KSRC_NARGS_update_zero_vruntime == 2
static void update_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->v0_moved && delta != 0) m->v0_moved(m->ctx, rq_of(cfs_rq)->cpu, delta, 0, ksrc_placing ? ksrc_mirror_task(ksrc_placing) : -1);
  ksrc_real_update_zero_vruntime(cfs_rq, delta);
}
#endif

/* 6.19: __enqueue_entity() and __dequeue_entity() re-base v0 := avg_vruntime() (pure
 * there) in the middle of their tree change; reported once the change is complete, the
 * entity in (or out of) both the tree and the sums. */
#if KSRC_HAS_update_zero_vruntime && KSRC_NARGS_update_zero_vruntime == 1 && KSRC_VOID_update_zero_vruntime
#define KSRC_SHAPE_V0_BY_TREE_CHANGE_BIT KSRC_SHAPE_V0_BY_TREE_CHANGE
static void ksrc_tree_changed(struct cfs_rq *cfs_rq, u64 before) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  const s64 delta = (s64)(cfs_rq->zero_vruntime - before);
  if (m && m->v0_moved && delta != 0) m->v0_moved(m->ctx, rq_of(cfs_rq)->cpu, delta, 1, -1);
}
static void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const u64 before = cfs_rq->zero_vruntime;
  ksrc_real___enqueue_entity(cfs_rq, se);
  ksrc_tree_changed(cfs_rq, before);
}
static void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const u64 before = cfs_rq->zero_vruntime;
  ksrc_real___dequeue_entity(cfs_rq, se);
  ksrc_tree_changed(cfs_rq, before);
}
#else
#define KSRC_SHAPE_V0_BY_TREE_CHANGE_BIT 0
#endif

/* 6.18.2: min_vruntime moves forward (update_min_vruntime); reported once it moved. */
#if KSRC_HAS_update_min_vruntime && KSRC_NARGS_update_min_vruntime == 1 && KSRC_VOID_update_min_vruntime
static void update_min_vruntime(struct cfs_rq *cfs_rq) {
  const u64 before = cfs_rq->min_vruntime;
  ksrc_real_update_min_vruntime(cfs_rq);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  const s64 delta = (s64)(cfs_rq->min_vruntime - before);
  if (m && m->v0_moved && delta != 0) m->v0_moved(m->ctx, rq_of(cfs_rq)->cpu, delta, 1, -1);
}
#endif

#if KSRC_HAS_do_preempt_short
static bool do_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *pse, struct sched_entity *se) {
  const bool short_ = ksrc_real_do_preempt_short(cfs_rq, pse, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->wakeup_pick_step)
    m->wakeup_pick_step(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), ksrc_mirror_task(pse), short_);
  return short_;
}
#endif

/* Delay entry and exit. dequeue_entity() keeps its flags for set_delayed()'s hook. */
static _Thread_local int ksrc_dequeue_flags;

#if KSRC_HAS_dequeue_entity
static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags) {
  const int outer = ksrc_dequeue_flags;
  ksrc_dequeue_flags = flags;
  const bool done = ksrc_real_dequeue_entity(cfs_rq, se, flags);
  ksrc_dequeue_flags = outer;
  return done;
}
#endif

#if KSRC_HAS_set_delayed
static void set_delayed(struct sched_entity *se) {
  ksrc_real_set_delayed(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_entered) m->delay_entered(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), ksrc_dequeue_flags);
}
#endif

/* How a completed delayed dequeue left (ksrc_mirror_hooks.delay_left): after the
 * wakeup check's pick (2), which 7.1 makes through pick_next_entity(), or another (0). */
static inline int ksrc_delay_done_how(void) {
  return ksrc_in_pick_next_entity && !ksrc_in_pick_task && ksrc_wakee ? 2 : 0;
}

#if KSRC_HAS_clear_delayed
static void clear_delayed(struct sched_entity *se) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placement_done) m->placement_done(m->ctx); /* a requeue's re-placement is complete */
  ksrc_real_clear_delayed(se);
#if !KSRC_HAS_finish_delayed_dequeue_entity
  /* A tree without finish_delayed_dequeue_entity() (7.1) completes a delayed dequeue
   * here, inside dequeue_entity(DEQUEUE_DELAYED): the same point, the same hook. */
  if (m && m->delay_left && (ksrc_dequeue_flags & DEQUEUE_DELAYED))
    m->delay_left(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), ksrc_delay_done_how());
#endif
}
#endif

#if KSRC_HAS_finish_delayed_dequeue_entity
static void finish_delayed_dequeue_entity(struct sched_entity *se) {
  ksrc_real_finish_delayed_dequeue_entity(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_left) m->delay_left(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), ksrc_delay_done_how());
}
#endif

#if KSRC_HAS_requeue_delayed_entity
static void requeue_delayed_entity(struct sched_entity *se) {
  ksrc_real_requeue_delayed_entity(se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->delay_left) m->delay_left(m->ctx, task_of(se)->cpu, ksrc_mirror_task(se), 1);
}
#endif

/* update_curr()'s decisions for the mirror's `charged`: what its update_deadline()
 * and did_preempt_short() returned during the call. */
static _Thread_local int ksrc_renewed, ksrc_preempt_short;

#if KSRC_HAS_update_deadline
static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const bool renewed = ksrc_real_update_deadline(cfs_rq, se);
  ksrc_renewed |= renewed;
  return renewed;
}
#endif

#if KSRC_HAS_did_preempt_short
static bool did_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *curr) {
  const bool preempt = ksrc_real_did_preempt_short(cfs_rq, curr);
  ksrc_preempt_short |= preempt;
  return preempt;
}
#endif

/* A vprot tree's set_protect_slice(): the minimum slice it reads, for the mirror's
 * protection_set (min_slice_exact). */
#if KSRC_HAS_set_protect_slice && KSRC_NARGS_set_protect_slice == 2 && KSRC_HAS_cfs_rq_min_slice
static void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se) {
  const u64 min_slice = cfs_rq_min_slice(cfs_rq);
  ksrc_real_set_protect_slice(cfs_rq, se);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->protection_set) m->protection_set(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se), min_slice);
}
#endif

/* The tree's name of cfs_rq->nr_queued (nr_running before 6.13). */
#if KSRC_FIELD_nr_queued
#define KSRC_CFS_NR_QUEUED nr_queued
#else
#define KSRC_CFS_NR_QUEUED nr_running
#endif

#if KSRC_HAS_update_curr
static void update_curr(struct cfs_rq *cfs_rq) {
  struct sched_entity *curr = cfs_rq->curr;
  const u64 before = curr ? curr->sum_exec_runtime : 0;
  const unsigned long resched_calls = rq_of(cfs_rq)->resched_calls;
  (void)resched_calls;
  ksrc_renewed = ksrc_preempt_short = 0;
  ksrc_real_update_curr(cfs_rq);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->charged && curr && curr->sum_exec_runtime != before) {
#if KSRC_HAS_did_preempt_short
    const int resched = cfs_rq->KSRC_CFS_NR_QUEUED != 1 && (ksrc_renewed || ksrc_preempt_short);
#else /* the decision is the resched_curr() the call made */
    const int resched = rq_of(cfs_rq)->resched_calls != resched_calls;
#endif
    m->charged(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(curr), curr->sum_exec_runtime - before, ksrc_renewed,
               resched);
  }
}
#endif

/* core.c wakeup_preempt(): the fair hook under a fair curr (renamed in 7.0); an idle
 * CPU (the idle class is below fair) reschedules. */
static void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  ksrc_wakee = &p->se;
  if (m && m->wakeup_entered && rq->curr) m->wakeup_entered(m->ctx, rq->cpu, ksrc_mirror_task(&p->se));
#if KSRC_HAS_wakeup_preempt_fair
  if (rq->curr) wakeup_preempt_fair(rq, p, flags);
#else
  if (rq->curr) check_preempt_wakeup_fair(rq, p, flags);
#endif
  else resched_curr(rq);
  ksrc_wakee = NULL;
}

static void ksrc_install(const struct ksrc_tunables *tunables, const struct ksrc_hooks *hooks) {
  ksrc_tunables = *tunables;
  ksrc_hooks = *hooks;
}

static const char *ksrc_first_warning(const char **function) {
  *function = ksrc_warnings != 0 ? ksrc_warning_function : NULL;
  return ksrc_warnings != 0 ? ksrc_warning_check : NULL;
}

static unsigned long ksrc_warnings_taken(void) {
  const unsigned long n = ksrc_warnings;
  ksrc_warnings = 0;
  return n;
}

static const char *ksrc_oops_taken(void) {
  const char *why = ksrc_oops_reason;
  ksrc_oops_reason = NULL;
  return why;
}

/* Every entry point that runs kernel code can oops: the caller checks ksrc_oops_taken(). */
static void ksrc_init_cfs_rq(struct cfs_rq *cfs_rq) { init_cfs_rq(cfs_rq); }
static void ksrc_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags) {
  KSRC_GUARDED(enqueue_task_fair(rq, p, flags), return);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->placement_done) m->placement_done(m->ctx);
}
static bool ksrc_dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags) {
  bool done = false;
  KSRC_GUARDED(done = dequeue_task_fair(rq, p, flags), return true);
  return done;
}
static struct task_struct *ksrc_pick_task_fair(struct rq *rq) {
  struct task_struct *next = NULL;
  ksrc_in_pick_task = 1;
#if KSRC_NARGS_pick_task_fair == 2
  KSRC_GUARDED(next = pick_task_fair(rq, NULL), ksrc_in_pick_task = 0; return NULL);
#else
  KSRC_GUARDED(next = pick_task_fair(rq), ksrc_in_pick_task = 0; return NULL);
#endif
  ksrc_in_pick_task = 0;
  return next;
}
static void ksrc_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev) {
  KSRC_GUARDED(put_prev_entity(cfs_rq, prev), return);
}
static void ksrc_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int first) {
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->set_next) m->set_next(m->ctx, rq_of(cfs_rq)->cpu, ksrc_mirror_task(se));
#if KSRC_NARGS_set_next_entity == 3
  KSRC_GUARDED(set_next_entity(cfs_rq, se, first), return);
#else
  (void)first;
  KSRC_GUARDED(set_next_entity(cfs_rq, se), return);
#endif
}
static void ksrc_wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags) {
  KSRC_GUARDED(wakeup_preempt(rq, p, wake_flags), ksrc_wakee = NULL; return);
}
/* task_tick_fair() of a flat hierarchy: entity_tick() on the root cfs_rq; NUMA, misfit
 * and core-scheduling work are outside the model. */
static void ksrc_task_tick_fair(struct rq *rq, struct task_struct *curr) {
  KSRC_GUARDED(entity_tick(&rq->cfs, &curr->se, 0), return);
}
static void ksrc_yield_task_fair(struct rq *rq) {
  struct task_struct *const yielding = rq->curr;
  KSRC_GUARDED(yield_task_fair(rq), return);
  const struct ksrc_mirror_hooks *m = ksrc_mirror();
  if (m && m->yielded && yielding) m->yielded(m->ctx, rq->cpu, yielding->index);
}
static void ksrc_reweight_task_fair(struct rq *rq, struct task_struct *p, const struct load_weight *lw) {
  KSRC_GUARDED(reweight_task_fair(rq, p, lw), return);
}
static void ksrc_prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio) {
  KSRC_GUARDED(prio_changed_fair(rq, p, oldprio), return);
}
static int ksrc_entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se) { return entity_eligible(cfs_rq, se); }
static bool ksrc_protect_slice(struct sched_entity *se) { return protect_slice(se); }
/* avg_vruntime() of the tree's code on a copy of the runqueue: V as the tree computes
 * it, without the re-base of v0 some trees do inside it. */
static u64 ksrc_avg_vruntime(struct rq *rq) {
  struct rq copy = *rq;
  const char *oops = ksrc_oops_reason;
  const unsigned long warnings = ksrc_warnings;
  u64 v = 0;
  KSRC_GUARDED(v = avg_vruntime(&copy.cfs), v = 0);
  ksrc_oops_reason = oops;
  ksrc_warnings = warnings;
  return v;
}

/* ---- the observation (observe.h) ---------------------------------------------- */
/* The tree's field names and shape, from what its code uses (ksrc_config.h). */
#if KSRC_FIELD_sum_w_vruntime
#define KSRC_CFS_SUM sum_w_vruntime
#define KSRC_CFS_SUM_WEIGHT sum_weight
#define KSRC_SHAPE_SUMS_BIT KSRC_SHAPE_SUM_W_VRUNTIME
#else
#define KSRC_CFS_SUM avg_vruntime
#define KSRC_CFS_SUM_WEIGHT avg_load
#define KSRC_SHAPE_SUMS_BIT 0
#endif
#if KSRC_HAS_update_zero_vruntime
#define KSRC_CFS_V0 zero_vruntime
#define KSRC_SHAPE_V0 KSRC_SHAPE_ZERO_VRUNTIME
#else
#define KSRC_CFS_V0 min_vruntime
#define KSRC_SHAPE_V0 0
#endif
#if KSRC_FIELD_vprot && defined(KSRC_SE_VPROT_IN_VLAG)
#define KSRC_SHAPE_VPROT_BITS (KSRC_SHAPE_VPROT | KSRC_SHAPE_VPROT_IN_VLAG)
#elif KSRC_FIELD_vprot
#define KSRC_SHAPE_VPROT_BITS KSRC_SHAPE_VPROT
#else
#define KSRC_SHAPE_VPROT_BITS 0
#endif
#if KSRC_FIELD_min_slice
#define KSRC_SHAPE_MIN_SLICE_BIT KSRC_SHAPE_MIN_SLICE
#else
#define KSRC_SHAPE_MIN_SLICE_BIT 0
#endif
#if KSRC_FIELD_max_slice
#define KSRC_SHAPE_MAX_SLICE_BIT KSRC_SHAPE_MAX_SLICE
#else
#define KSRC_SHAPE_MAX_SLICE_BIT 0
#endif
#if KSRC_FIELD_sum_shift
#define KSRC_SHAPE_SUM_SHIFT_BIT KSRC_SHAPE_SUM_SHIFT
#else
#define KSRC_SHAPE_SUM_SHIFT_BIT 0
#endif
#if KSRC_FIELD_h_nr_delayed
#define KSRC_SHAPE_H_NR_DELAYED_BIT KSRC_SHAPE_H_NR_DELAYED
#else
#define KSRC_SHAPE_H_NR_DELAYED_BIT 0
#endif
#if KSRC_HAS_set_preempt_buddy
#define KSRC_SHAPE_WAKEUP_LIMITS_BIT KSRC_SHAPE_WAKEUP_LIMITS_ALWAYS
#else
#define KSRC_SHAPE_WAKEUP_LIMITS_BIT 0
#endif
/* The pick the wakeup check makes (pick_eevdf / __pick_eevdf) takes an eligible next
 * buddy first; KSRC_PICK_BUDDY_PROTECTED: only when it protects curr. */
#if KSRC_PICK_BUDDY_IN___pick_eevdf || KSRC_PICK_BUDDY_IN_pick_eevdf
#if KSRC_PICK_BUDDY_PROTECTED
#define KSRC_SHAPE_WAKEUP_BUDDY_BITS (KSRC_SHAPE_WAKEUP_PICKS_BUDDY | KSRC_SHAPE_BUDDY_ONLY_PROTECTED)
#else
#define KSRC_SHAPE_WAKEUP_BUDDY_BITS KSRC_SHAPE_WAKEUP_PICKS_BUDDY
#endif
#else
#define KSRC_SHAPE_WAKEUP_BUDDY_BITS 0
#endif
#if KSRC_HAS_update_entity_lag && !KSRC_VOID_update_entity_lag
#define KSRC_SHAPE_LAG_KEEPS_DELAYED_BIT KSRC_SHAPE_LAG_KEEPS_DELAYED
#else
#define KSRC_SHAPE_LAG_KEEPS_DELAYED_BIT 0
#endif
/* The inverse weight is what __calc_delta multiplies by, so a tree whose closure does not
 * reach __update_inv_weight divides. */
#if KSRC_HAS___update_inv_weight
#define KSRC_SHAPE_CALC_DELTA_BIT 0
#else
#define KSRC_SHAPE_CALC_DELTA_BIT KSRC_SHAPE_CALC_DELTA_DIVIDES
#endif
#if KSRC_REBASES_V0_IN_place_entity
#define KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT_BIT KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT
#else
#define KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT_BIT 0
#endif
#define KSRC_SHAPE                                                                       \
  (KSRC_SHAPE_V0 | KSRC_SHAPE_VPROT_BITS | KSRC_SHAPE_MIN_SLICE_BIT | KSRC_SHAPE_MAX_SLICE_BIT | \
   KSRC_SHAPE_SUM_SHIFT_BIT | KSRC_SHAPE_H_NR_DELAYED_BIT | KSRC_SHAPE_SUMS_BIT | KSRC_SHAPE_V0_BY_TREE_CHANGE_BIT | \
   KSRC_SHAPE_WAKEUP_LIMITS_BIT | KSRC_SHAPE_LAG_KEEPS_DELAYED_BIT | KSRC_SHAPE_WAKEUP_BUDDY_BITS | \
   KSRC_SHAPE_CALC_DELTA_BIT | KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT_BIT)

static int ksrc_task_index_of(const struct sched_entity *se) { return se ? task_of((struct sched_entity *)se)->index : -1; }

static void ksrc_observe_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, struct ksrc_obs_entity *e, int derived) {
  e->task = ksrc_task_index_of(se);
  e->left = e->right = -1;
  e->in_tree = 0;
  e->is_curr = cfs_rq->curr == se;
  e->on_rq = se->on_rq;
  e->sched_delayed = se->sched_delayed;
  e->rel_deadline = se->rel_deadline;
  e->custom_slice = se->custom_slice;
  e->eligible = derived && entity_eligible(cfs_rq, se) != 0;
  e->vruntime = se->vruntime;
  e->deadline = se->deadline;
  e->slice = se->slice;
  e->weight = se->load.weight;
  e->inv_weight = se->load.inv_weight;
  e->vlag = se->vlag;
#if KSRC_FIELD_vprot
  e->vprot = se->vprot;
#else
  e->vprot = 0;
#endif
  e->min_vruntime = se->min_vruntime;
#if KSRC_FIELD_min_slice
  e->min_slice = se->min_slice;
#else
  e->min_slice = 0;
#endif
#if KSRC_FIELD_max_slice
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
 * the tree's rb_first_cached / rb_next, then curr when it is not in the tree; the
 * derived values only when asked (out->ask). Pure: avg_vruntime() (which re-bases v0)
 * runs on a copy. */
static void ksrc_observe_rq(struct rq *rq, struct ksrc_obs_rq *out);
static void ksrc_observe(struct rq *rq, struct ksrc_obs_rq *out) {
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
#if KSRC_FIELD_h_nr_delayed
  out->h_nr_delayed = cfs_rq->h_nr_delayed;
#else
  out->h_nr_delayed = 0;
#endif
  out->load_weight = cfs_rq->load.weight;
  out->sum_w_vruntime = cfs_rq->KSRC_CFS_SUM;
  out->sum_weight = cfs_rq->KSRC_CFS_SUM_WEIGHT;
#if KSRC_FIELD_sum_shift
  out->sum_shift = cfs_rq->sum_shift;
#else
  out->sum_shift = 0;
#endif
  out->v0 = cfs_rq->KSRC_CFS_V0;
  const int derived = (out->ask & KSRC_OBS_DERIVED) != 0;
  out->V = derived ? ksrc_avg_vruntime(rq) : 0;
  out->root = -1;
  out->n = 0;
  bool curr_in_tree = false;
  for (struct rb_node *node = rb_first_cached(&cfs_rq->tasks_timeline); node && out->n < out->capacity;
       node = rb_next(node)) {
    struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
    struct ksrc_obs_entity *e = &out->entities[out->n++];
    ksrc_observe_entity(cfs_rq, se, e, derived);
    e->in_tree = 1;
    curr_in_tree |= se == cfs_rq->curr;
  }
  if (derived || (out->ask & KSRC_OBS_TREE) != 0) {
    /* Children by a second in-order walk: the i-th node is entities[i]. */
    int i = 0;
    for (struct rb_node *node = rb_first_cached(&cfs_rq->tasks_timeline); node && i < out->n; node = rb_next(node), ++i) {
      out->entities[i].left = ksrc_obs_index(out, node->rb_left);
      out->entities[i].right = ksrc_obs_index(out, node->rb_right);
    }
    out->root = ksrc_obs_index(out, cfs_rq->tasks_timeline.rb_root.rb_node);
  }
  if (cfs_rq->curr && !curr_in_tree && out->n < out->capacity)
    ksrc_observe_entity(cfs_rq, cfs_rq->curr, &out->entities[out->n++], derived);
}

static const struct ksrc_api ksrc_api_table = {
    .abi = KSRC_ABI,
    .kernel_version = KSRC_KERNEL_VERSION,
    .install = ksrc_install,
    .warnings_taken = ksrc_warnings_taken,
    .first_warning = ksrc_first_warning,
    .oops_taken = ksrc_oops_taken,
    .init_cfs_rq = ksrc_init_cfs_rq,
    .enqueue_task_fair = ksrc_enqueue_task_fair,
    .dequeue_task_fair = ksrc_dequeue_task_fair,
    .pick_task_fair = ksrc_pick_task_fair,
    .put_prev_entity = ksrc_put_prev_entity,
    .set_next_entity = ksrc_set_next_entity,
    .wakeup_preempt = ksrc_wakeup_preempt,
    .task_tick_fair = ksrc_task_tick_fair,
    .yield_task_fair = ksrc_yield_task_fair,
    .reweight_task_fair = ksrc_reweight_task_fair,
    .prio_changed_fair = ksrc_prio_changed_fair,
    .entity_eligible = ksrc_entity_eligible,
    .protect_slice = ksrc_protect_slice,
    .avg_vruntime = ksrc_avg_vruntime,
    .observe = ksrc_observe,
};

__attribute__((visibility("default"))) const struct ksrc_api *ksrc_get_api(void) { return &ksrc_api_table; }
