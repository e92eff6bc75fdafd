/* The kernel types the extracted fair-class code reads, reduced to what a flat
 * runqueue of task entities needs (our own definitions, written from docs/MODEL.md
 * §3 and the field names the functions use; not copied from any header). Readable
 * from C (harness.c, with the kernel code) and C++ (the driver, inside a namespace).
 * No CONFIG_SMP, CONFIG_FAIR_GROUP_SCHED, CONFIG_CFS_BANDWIDTH or schedstats: their
 * fields are absent and their functions are stubs (kernel.h). */
#ifndef EEVDF_KERNEL_SRC_SHIM_TYPES_H
#define EEVDF_KERNEL_SRC_SHIM_TYPES_H

#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

struct rb_node {
  unsigned long __rb_parent_color;
  struct rb_node *rb_right;
  struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
  struct rb_node *rb_node;
};

struct rb_root_cached {
  struct rb_root rb_root;
  struct rb_node *rb_leftmost;
};

struct rb_augment_callbacks {
  void (*propagate)(struct rb_node *node, struct rb_node *stop);
  void (*copy)(struct rb_node *old_node, struct rb_node *new_node);
  void (*rotate)(struct rb_node *old_node, struct rb_node *new_node);
};

struct load_weight {
  unsigned long weight;
  u32 inv_weight;
};

struct list_head {
  struct list_head *next, *prev;
};

/* PELT's per-entity average: the fields reweight_entity rescales (never read back). */
struct sched_avg {
  u64 load_sum, runnable_sum;
  u32 util_sum, period_contrib;
  unsigned long load_avg, runnable_avg, util_avg;
};

/* One layout for every tree (the C++ driver reads it): the union of the fields the
 * supported trees use, each under its own name. `vprot` is a macro of kernel.h naming
 * one of two places: vlag's storage (trees that keep them in a union) or its own. */
struct sched_entity {
  struct load_weight load;
  struct rb_node run_node;
  u64 deadline;
  u64 min_vruntime; /* augmented: subtree minimum */
  u64 min_slice;    /* augmented: subtree minimum (one-field callbacks: may go stale) */
  u64 max_slice;    /* augmented: subtree maximum (7.0 and later) */
  struct list_head group_node;
  unsigned char on_rq;
  unsigned char sched_delayed;
  unsigned char rel_deadline;
  unsigned char custom_slice;
  u64 exec_start;
  u64 sum_exec_runtime;
  u64 prev_sum_exec_runtime;
  u64 vruntime;
  union {
    s64 vlag; /* in 6.12 also the slice-protection stash while curr */
    u64 ksrc_vprot_in_vlag;
  };
  u64 ksrc_vprot_own;
  u64 slice;
  struct sched_avg avg;
};

struct cfs_rq {
  struct load_weight load;
  unsigned int nr_running; /* nr_queued from 6.13 */
  unsigned int nr_queued;
  unsigned int h_nr_queued;
  unsigned int h_nr_runnable;
  unsigned int h_nr_idle;
  unsigned int idle_nr_running;
  unsigned int idle_h_nr_running;
  unsigned int h_nr_delayed;
  s64 avg_vruntime; /* sum_w_vruntime from 7.0 */
  u64 avg_load;     /* sum_weight from 7.0 */
  s64 sum_w_vruntime;
  u64 sum_weight;
  unsigned int sum_shift;  /* 7.1: the sums' weights are shifted down by it */
  u64 zero_vruntime;
  u64 min_vruntime;        /* v0 before 6.19 (6.12.y has zero_vruntime) */
  struct rb_root_cached tasks_timeline;
  struct sched_entity *curr;
  struct sched_entity *next;
  struct {
    int lock;
  } removed;
};

struct rq_flags;
struct sched_class {
  int unused;
};

/* Policies the wakeup check tests (SCHED_NORMAL only in traces). */
enum { KSRC_SCHED_NORMAL = 0, KSRC_SCHED_BATCH = 3, KSRC_SCHED_IDLE = 5 };
/* p->on_rq values. */
enum { TASK_ON_RQ_QUEUED = 1, TASK_ON_RQ_MIGRATING = 2 };

struct task_struct {
  struct sched_entity se; /* first: container_of from se */
  int prio;
  int static_prio;
  int policy;
  int on_rq;
  int cpu;
  unsigned in_iowait;     /* read for cpufreq only */
  const struct sched_class *sched_class; /* NULL: &fair_sched_class (kernel.h) */
  struct rq *rq;          /* task_rq(p) */
  int index;              /* the driver's task index */
};

struct rq {
  struct cfs_rq cfs; /* first: rq_of() by container_of */
  unsigned int nr_running;
  struct task_struct *curr; /* NULL: the idle task */
  struct task_struct *donor; /* proxy execution's scheduling context: curr here */
  struct list_head cfs_tasks;
  u64 clock_task;
  int cpu;
  int need_resched; /* TIF_NEED_RESCHED of rq->curr (or of idle) */
  unsigned long resched_calls; /* resched_curr()s: the mirror's update_curr decision without did_preempt_short */
  unsigned long next_balance;
  void *driver;     /* the C++ driver that owns this rq */
};

/* Flag names the fair class tests (kernel/sched/sched.h names; only the names
 * matter, the values are ours). */
enum {
  DEQUEUE_SLEEP = 0x01,
  DEQUEUE_SAVE = 0x02,
  DEQUEUE_MOVE = 0x04,
  DEQUEUE_NOCLOCK = 0x08,
  DEQUEUE_SPECIAL = 0x10,
  DEQUEUE_MIGRATING = 0x100,
  DEQUEUE_DELAYED = 0x200,
  DEQUEUE_THROTTLE = 0x20000,
};
enum {
  ENQUEUE_WAKEUP = 0x01,
  ENQUEUE_RESTORE = 0x02,
  ENQUEUE_MOVE = 0x04,
  ENQUEUE_NOCLOCK = 0x08,
  ENQUEUE_HEAD = 0x10,
  ENQUEUE_REPLENISH = 0x20,
  ENQUEUE_MIGRATED = 0x40,
  ENQUEUE_INITIAL = 0x80,
  ENQUEUE_MIGRATING = 0x100,
  ENQUEUE_DELAYED = 0x200,
};
enum { WF_EXEC = 0x02, WF_FORK = 0x04, WF_TTWU = 0x08, WF_SYNC = 0x10, WF_MIGRATED = 0x20, WF_RQ_SELECTED = 0x80 };

/* The sched_features the extracted code reads, as bits of ksrc_tunables.features. */
enum {
  KSRC_FEAT_PLACE_LAG = 1u << 0,
  KSRC_FEAT_PLACE_DEADLINE_INITIAL = 1u << 1,
  KSRC_FEAT_PLACE_REL_DEADLINE = 1u << 2,
  KSRC_FEAT_RUN_TO_PARITY = 1u << 3,
  KSRC_FEAT_PREEMPT_SHORT = 1u << 4,
  KSRC_FEAT_NEXT_BUDDY = 1u << 5,
  KSRC_FEAT_PICK_BUDDY = 1u << 6,
  KSRC_FEAT_DELAY_DEQUEUE = 1u << 7,
  KSRC_FEAT_DELAY_ZERO = 1u << 8,
  KSRC_FEAT_WAKEUP_PREEMPTION = 1u << 9,
};

/* What the kernel keeps in globals (sysctls, sched_features, TICK_NSEC), per
 * machine: the harness installs a machine's tunables before each call into it. */
struct ksrc_tunables {
  u64 sysctl_sched_base_slice;
  u64 normalized_sysctl_sched_base_slice;
  u64 sysctl_sched_migration_cost;
  u64 tick_nsec;
  unsigned features;
  /* A mutant build's (kernel_src/mutate/schemata.h): the mutant whose copies run (0:
   * the tree's code) and the count of executions of its mutated statement (NULL: none). */
  unsigned mutant;
  unsigned long *mutant_reached;
};

/* The points where the driver and the observers take part: __block_task (core.c, the
 * driver's), and the wrapped place_entity / pick_eevdf / reweight_entity. Any may be
 * NULL. `ctx` is rq->driver. */
struct ksrc_hooks {
  void (*block_task)(struct rq *rq, struct task_struct *p);
  void (*placed)(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
  void (*picked)(struct cfs_rq *cfs_rq, struct sched_entity *se);
  void (*reweighted)(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight);
  const struct ksrc_mirror_hooks *mirror; /* the property mirror's (NULL: none) */
};

/* ---- the property mirror's calls (replay/kernel_src_mirror.h) ------------------
 * The wrapped calls the properties observe, by CPU and task index (-1: none), with
 * what the call consumed that its end no longer shows. Not fired while the harness
 * observes a runqueue (ksrc_observe). Any may be NULL. */
struct ksrc_mirror_hooks {
  void *ctx;
  /* place_entity() returned; `vlag` and (when `had_rel`) the relative deadline `rel`
   * are the entity's before the placement. */
  void (*placed)(void *ctx, int cpu, int task, int flags, s64 vlag, int had_rel, s64 rel);
  /* The last placement is complete (its entity back in the tree and the sums): an
   * enqueue entry point returned, or a requeue reached clear_delayed(). */
  void (*placement_done)(void *ctx);
  /* The schedule path picked `task`: its pick_eevdf() returned it, or (`buddy`)
   * pick_next_entity() took the eligible next buddy without calling pick_eevdf(). */
  void (*picked)(void *ctx, int cpu, int task, int buddy);
  /* update_entity_lag() stored se->vlag; `vlag_before` was se->vlag before the call. */
  void (*lag_stored)(void *ctx, int cpu, int task, s64 vlag_before);
  /* set_next_entity() is about to make `task` curr. */
  void (*set_next)(void *ctx, int cpu, int task);
  /* set_next_buddy() made `task` the next buddy. */
  void (*buddy_set)(void *ctx, int cpu, int task);
  /* update_curr() charged `delta` ns to curr `task`; `renewed`: update_deadline()
   * renewed its deadline; `resched`: it decided to reschedule (6.12: more than one
   * queued, and a renewal or did_preempt_short(); a tree without did_preempt_short:
   * it called resched_curr()). */
  void (*charged)(void *ctx, int cpu, int task, u64 delta, int renewed, int resched);
  /* v0 moves by `delta` != 0: about to (`done` 0: 6.12's and 7.0's update_zero_vruntime
   * re-base inside avg_vruntime(), 6.19's update_zero_vruntime()), or it has moved
   * (`done` 1: 6.18.2's update_min_vruntime()). `placing`: the task whose place_entity()
   * re-bases v0 itself (7.1: to a placed entity heavier than the queue), else -1. */
  void (*v0_moved)(void *ctx, int cpu, s64 delta, int done, int placing);
  /* The wakeup check of wakee `task` under a fair curr begins (core.c wakeup_preempt()). */
  void (*wakeup_entered)(void *ctx, int cpu, int task);
  /* The wakeup check reached its pick: do_preempt_short() for wakee `task` against
   * curr `curr` returned `short_` (before its cancel_protect_slice). */
  void (*wakeup_pick_step)(void *ctx, int cpu, int curr, int task, int short_);
  /* The wakeup check's pick_eevdf() returned: `preempted` iff it is wakee `task`. */
  void (*wakeup_decided)(void *ctx, int cpu, int task, int preempted);
  /* set_delayed() delayed `task` in a dequeue_entity() with `flags` (DEQUEUE_*). */
  void (*delay_entered)(void *ctx, int cpu, int task, int flags);
  /* `task` left the delayed state: its delayed dequeue completed (finish_delayed_dequeue_entity(),
   * or clear_delayed() in dequeue_entity(DEQUEUE_DELAYED)) after a pick of the schedule path
   * (`how` 0) or of the wakeup check (`how` 2, 7.1's pick_next_entity()), or
   * requeue_delayed_entity() returned (`how` 1). */
  void (*delay_left)(void *ctx, int cpu, int task, int how);
  /* The driver's __block_task() completed the sleep of `task` (core.c, machine.cpp). */
  void (*block_completed)(void *ctx, int cpu, int task);
  /* yield_task_fair() returned; `task` was the running task that yielded. */
  void (*yielded)(void *ctx, int cpu, int task);
  /* set_protect_slice(cfs_rq, se) (a vprot tree) set curr `task`'s protection; the
   * tree's augmented minimum slice was `min_slice` (cfs_rq_min_slice()) at the call. */
  void (*protection_set)(void *ctx, int cpu, int task, u64 min_slice);
};

#endif
