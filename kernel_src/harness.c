/* The kernel-src harness: Debian's 6.12 fair-class functions (extracted at build time
 * into fair_extract.c, never committed) compiled as C against our shim, with the
 * observer wrappers and the exported entry points of harness.h. */
#include <setjmp.h>

#include "kernel_src/shim/kernel.h"
#include "kernel_src/harness.h"
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

/* Runs `call` (a statement) with an escape for ksrc_oops; `on_oops` afterwards. */
#define KSRC_GUARDED(call, on_oops)       \
  do {                                     \
    jmp_buf escape;                        \
    if (setjmp(escape) != 0) {             \
      ksrc_escape = NULL;                  \
      on_oops;                             \
    }                                      \
    ksrc_escape = &escape;                 \
    call;                                  \
    ksrc_escape = NULL;                    \
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

#include "fair_extract.c"

/* The wrappers: the real function, then the observer hook (the points where the
 * reference model fires placed / picked / reweighted). */
static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags) {
  ksrc_real_place_entity(cfs_rq, se, flags);
  if (ksrc_hooks.placed) ksrc_hooks.placed(cfs_rq, se, flags);
}

static struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq) {
  struct sched_entity *se = ksrc_real_pick_eevdf(cfs_rq);
  if (ksrc_hooks.picked) ksrc_hooks.picked(cfs_rq, se);
  /* pick_next_entity() reads se->sched_delayed at once; the wakeup check only compares. */
  if (!se && ksrc_in_pick_task)
    ksrc_oops(KSRC_OOPS_NULL_PICK ": pick_eevdf() found nothing eligible");
  return se;
}

static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight) {
  ksrc_real_reweight_entity(cfs_rq, se, weight);
  if (ksrc_hooks.reweighted) ksrc_hooks.reweighted(cfs_rq, se, weight);
}

/* core.c wakeup_preempt(): the fair hook under a fair curr; an idle CPU (the idle
 * class is below fair) reschedules. */
static void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags) {
  if (rq->curr) check_preempt_wakeup_fair(rq, p, flags);
  else resched_curr(rq);
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
  KSRC_GUARDED(set_next_entity(cfs_rq, se), return);
}
void ksrc_wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags) {
  KSRC_GUARDED(wakeup_preempt(rq, p, wake_flags), return);
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
