/* The C entry points of the kernel-src harness (harness.c): the real fair-class
 * functions of the installed kernel source, compiled against our shim, each exported
 * under a ksrc_ name for the C++ driver (driver.h), which does what core.c does. */
#ifndef EEVDF_KERNEL_SRC_HARNESS_H
#define EEVDF_KERNEL_SRC_HARNESS_H

#include "kernel_src/shim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel release the code was read from (the generated version.h). */
const char *ksrc_kernel_version(void);

/* Installs a machine's sysctls, features and hooks for the calls that follow on this
 * thread (the kernel keeps them in globals). */
void ksrc_install(const struct ksrc_tunables *tunables, const struct ksrc_hooks *hooks);
/* SCHED_WARN_ON / WARN_ON_ONCE fired on this thread since the last reset. */
unsigned long ksrc_warnings_taken(void);
/* The first of them (NULL: none): the check's text, e.g. "SCHED_WARN_ON(!se->on_rq)",
 * and in `*function` the kernel function it is in. Call before ksrc_warnings_taken. */
const char *ksrc_first_warning(const char **function);
/* The start of the oops text of the NULL pick after an overflow (the known finding
 * kernel-src-null-pick-after-overflow); the shim's divide errors read otherwise. */
#define KSRC_OOPS_NULL_PICK "NULL dereference in pick_next_entity()"

/* Why the kernel code would have crashed in the last call (NULL: it did not); reset.
 * The state is then as the crash left it: the driver stops the machine. */
const char *ksrc_oops_taken(void);

void ksrc_init_cfs_rq(struct cfs_rq *cfs_rq);
void ksrc_enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags);
bool ksrc_dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags);
struct task_struct *ksrc_pick_task_fair(struct rq *rq);
void ksrc_put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev);
void ksrc_set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* core.c wakeup_preempt() (fair hook or idle resched). */
void ksrc_wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags);
void ksrc_task_tick_fair(struct rq *rq, struct task_struct *curr);
void ksrc_yield_task_fair(struct rq *rq);
void ksrc_reweight_task_fair(struct rq *rq, struct task_struct *p, const struct load_weight *lw);
void ksrc_prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio);
/* Pure reads: no state changes (avg_vruntime is not among them: it moves v0). */
int ksrc_entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
bool ksrc_protect_slice(struct sched_entity *se);
/* The runqueue as observe.h describes it (pure; out->entities has out->capacity room). */
struct ksrc_obs_rq;
void ksrc_observe(struct rq *rq, struct ksrc_obs_rq *out);

#ifdef __cplusplus
}
#endif

#endif
