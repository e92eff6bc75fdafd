/* The C entry points of the kernel-src harness (harness.c): the real fair-class
 * functions of a kernel tree, compiled against our shim, reached through one table
 * (struct ksrc_api) by the C++ driver (machine.h), which does what core.c does. */
#ifndef EEVDF_KERNEL_SRC_HARNESS_H
#define EEVDF_KERNEL_SRC_HARNESS_H

#include "kernel_src/shim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The start of the oops text of the NULL pick after an overflow (the known finding
 * kernel-src-null-pick-after-overflow); the shim's divide errors read otherwise. */
#define KSRC_OOPS_NULL_PICK "NULL dereference in pick_next_entity()"

struct ksrc_obs_rq;

/* The entry points of one build of the harness (one tree), the same for every tree:
 * the C++ driver calls only these. Every entry point that runs kernel code can oops:
 * the caller checks oops_taken(). */
#define KSRC_ABI 4
struct ksrc_api {
  unsigned abi; /* KSRC_ABI */
  /* The kernel release the code was read from ("6.18.2", a Debian package version). */
  const char *kernel_version;
  /* Installs a machine's sysctls, features and hooks for the calls that follow on this
   * thread (the kernel keeps them in globals). */
  void (*install)(const struct ksrc_tunables *tunables, const struct ksrc_hooks *hooks);
  /* SCHED_WARN_ON / WARN_ON_ONCE fired on this thread since the last reset. */
  unsigned long (*warnings_taken)(void);
  /* The first of them (NULL: none): the check's text, e.g. "SCHED_WARN_ON(!se->on_rq)",
   * and in `*function` the kernel function it is in. Call before warnings_taken. */
  const char *(*first_warning)(const char **function);
  /* Why the kernel code would have crashed in the last call (NULL: it did not); reset.
   * The state is then as the crash left it: the driver stops the machine. */
  const char *(*oops_taken)(void);
  void (*init_cfs_rq)(struct cfs_rq *cfs_rq);
  void (*enqueue_task_fair)(struct rq *rq, struct task_struct *p, int flags);
  bool (*dequeue_task_fair)(struct rq *rq, struct task_struct *p, int flags);
  struct task_struct *(*pick_task_fair)(struct rq *rq);
  void (*put_prev_entity)(struct cfs_rq *cfs_rq, struct sched_entity *prev);
  /* `first`: the schedule path's switch (put_prev_set_next_task), not a class change. */
  void (*set_next_entity)(struct cfs_rq *cfs_rq, struct sched_entity *se, int first);
  /* core.c wakeup_preempt() (fair hook or idle resched). */
  void (*wakeup_preempt)(struct rq *rq, struct task_struct *p, int wake_flags);
  void (*task_tick_fair)(struct rq *rq, struct task_struct *curr);
  void (*yield_task_fair)(struct rq *rq);
  void (*reweight_task_fair)(struct rq *rq, struct task_struct *p, const struct load_weight *lw);
  void (*prio_changed_fair)(struct rq *rq, struct task_struct *p, int oldprio);
  /* Pure reads: no state changes (avg_vruntime is not among them: it moves v0). */
  int (*entity_eligible)(struct cfs_rq *cfs_rq, struct sched_entity *se);
  bool (*protect_slice)(struct sched_entity *se);
  /* avg_vruntime() on a copy of the runqueue (neither its warnings nor a crash count). */
  u64 (*avg_vruntime)(struct rq *rq);
  /* The runqueue as observe.h describes it (pure; out->entities has out->capacity room). */
  void (*observe)(struct rq *rq, struct ksrc_obs_rq *out);
};

/* The one exported symbol of a build. */
const struct ksrc_api *ksrc_get_api(void);

#ifdef __cplusplus
}
#endif

#endif
