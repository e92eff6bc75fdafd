/* The kernel environment the extracted fair-class code compiles in (C only, included
 * by harness.c before the generated file): our own minimal versions of the kernel's
 * helper macros and arithmetic (written from their documented meaning: 64-bit,
 * HZ-independent), and stubs for everything outside EEVDF (PELT, cgroups, bandwidth,
 * schedstats, tracing, cpufreq, the deadline server). */
#ifndef EEVDF_KERNEL_SRC_SHIM_KERNEL_H
#define EEVDF_KERNEL_SRC_SHIM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel_src/shim/types.h"

/* ---- our configuration: a 64-bit kernel with 128-bit arithmetic (x86-64, arm64),
 * as the extractor assumes for the top-level conditions (closure.h) ------------- */
#define CONFIG_64BIT 1
#define CONFIG_ARCH_SUPPORTS_INT128 1

/* ---- compiler and generic helpers ------------------------------------------- */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
#define EXPORT_SYMBOL(x)
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))
#define BITS_PER_LONG 64

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define __maybe_unused __attribute__((__unused__))
#define fallthrough __attribute__((__fallthrough__))
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/* The tree's vprot: vlag's storage when the tree keeps them in a union (detected). */
#ifdef KSRC_SE_VPROT_IN_VLAG
#define vprot ksrc_vprot_in_vlag
#else
#define vprot ksrc_vprot_own
#endif

/* Where the real kernel would crash (a NULL dereference, a divide error): the harness
 * records why and unwinds to the entry point that called into the kernel code
 * (harness.c), which leaves the machine stopped. Only reachable after an s64 overflow. */
_Noreturn void ksrc_oops(const char *why);

/* 64-bit kernel arithmetic (include/linux/math64.h semantics). In 6.12 div_s64 takes
 * an s32 divisor and truncates toward zero; the CPU faults on 0 and on INT64_MIN/-1. */
static inline s64 div_s64(s64 dividend, s32 divisor) {
  if (divisor == 0) ksrc_oops("divide error: div_s64 by 0 (an s32-truncated weight)");
  if (divisor == -1 && dividend == INT64_MIN) ksrc_oops("divide error: div_s64(INT64_MIN, -1)");
  return dividend / divisor;
}
static inline u64 mul_u32_u32(u32 a, u32 b) { return (u64)a * b; }
static inline u64 div_u64(u64 dividend, u32 divisor) {
  if (divisor == 0) ksrc_oops("divide error: div_u64 by 0");
  return dividend / divisor;
}
static inline long div64_long(long dividend, long divisor) {
  if (divisor == 0) ksrc_oops("divide error: div64_long by 0");
  if (divisor == -1 && dividend == INT64_MIN) ksrc_oops("divide error: div64_long(LONG_MIN, -1)");
  return dividend / divisor;
}
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift) {
  return (u64)(((unsigned __int128)a * mul) >> shift);
}
/* fls(): 1-based index of the most significant set bit, 0 for 0. */
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }

/* ---- lib/rbtree.c's exported functions (extracted; declared as its header does) -- */
void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
                           void (*augment_rotate)(struct rb_node *old_node, struct rb_node *new_node));
void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
                      void (*augment_rotate)(struct rb_node *old_node, struct rb_node *new_node));
struct rb_node *rb_next(const struct rb_node *node);

/* ---- the warnings: counted, so the harness can report that the kernel warned -- */
extern _Thread_local unsigned long ksrc_warnings;
extern _Thread_local const char *ksrc_warning_check, *ksrc_warning_function; /* the first since the reset */
static inline int ksrc_warn(int cond, const char *check, const char *function) {
  if (cond && ksrc_warnings++ == 0) {
    ksrc_warning_check = check;
    ksrc_warning_function = function;
  }
  return cond;
}
#define SCHED_WARN_ON(x) ksrc_warn(!!(x), "SCHED_WARN_ON(" #x ")", __func__)
#define BUG_ON(x) do { if (x) ksrc_oops("BUG_ON(" #x ") in a kernel function"); } while (0)
#define WARN_ON_ONCE(x) ksrc_warn(!!(x), "WARN_ON_ONCE(" #x ")", __func__)

/* ---- weights (§1.2, 64-bit) ----------------------------------------------------- */
#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT (2 * SCHED_FIXEDPOINT_SHIFT)
#define NICE_0_LOAD (1UL << NICE_0_LOAD_SHIFT)
#define scale_load_down(w) ({ unsigned long __w = (w); if (__w) __w = max(2UL, __w >> SCHED_FIXEDPOINT_SHIFT); __w; })

/* ---- tunables and features: the installed machine's (types.h) ------------------ */
extern _Thread_local struct ksrc_tunables ksrc_tunables;
extern _Thread_local struct ksrc_hooks ksrc_hooks;
#define sysctl_sched_base_slice (ksrc_tunables.sysctl_sched_base_slice)
#define normalized_sysctl_sched_base_slice (ksrc_tunables.normalized_sysctl_sched_base_slice)
#define sysctl_sched_migration_cost (ksrc_tunables.sysctl_sched_migration_cost)
#define TICK_NSEC (ksrc_tunables.tick_nsec)
/* The trace's setting for the features we model; the tree's default (KSRC_FEAT_FIXED_x,
 * from its features.h) for the others. */
#define sched_feat(x) (((ksrc_tunables.features & KSRC_FEAT_##x) != 0) || KSRC_FEAT_FIXED_##x)

/* ---- mutant schemata (kernel_src/mutate/schemata.h) -------------------------------
 * A mutated function's table slot: its mutant `first + k` when installed, else 0 (the
 * original). The mutated copy counts the executions of its mutated statement. */
static inline unsigned ksrc_mutant_slot(unsigned first, unsigned n) {
  const unsigned d = ksrc_tunables.mutant - first;
  return d < n ? d + 1 : 0;
}
static inline void ksrc_mutant_hit(void) {
  if (ksrc_tunables.mutant_reached) ++*ksrc_tunables.mutant_reached;
}

/* ---- a flat hierarchy: task entities on the root cfs_rq (no FAIR_GROUP_SCHED) --- */
#define for_each_sched_entity(se) for (; se; se = NULL)
#define entity_is_task(se) 1
static inline struct task_struct *task_of(struct sched_entity *se) { return container_of(se, struct task_struct, se); }
static inline struct rq *rq_of(struct cfs_rq *cfs_rq) { return container_of(cfs_rq, struct rq, cfs); }
static inline struct cfs_rq *task_cfs_rq(struct task_struct *p) { return &p->rq->cfs; }
static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se) { return &task_of(se)->rq->cfs; }
static inline struct cfs_rq *group_cfs_rq(struct sched_entity *se) { (void)se; return NULL; }
static inline struct sched_entity *parent_entity(struct sched_entity *se) { (void)se; return NULL; }
static inline void find_matching_se(struct sched_entity **se, struct sched_entity **pse) { (void)se; (void)pse; }
static inline int se_is_idle(struct sched_entity *se) { (void)se; return 0; }
static inline int cfs_rq_is_idle(struct cfs_rq *cfs_rq) { (void)cfs_rq; return 0; }
static inline int sched_idle_rq(struct rq *rq) { (void)rq; return 0; }
static inline int task_has_idle_policy(struct task_struct *p) { return p->policy == KSRC_SCHED_IDLE; }
static inline int normal_policy(int policy) { return policy == KSRC_SCHED_NORMAL; }
static inline int task_on_rq_migrating(struct task_struct *p) { return p->on_rq == TASK_ON_RQ_MIGRATING; }
static inline void se_update_runnable(struct sched_entity *se) { (void)se; }

/* ---- core.c pieces the fair class calls (the driver's semantics) --------------- */
static inline u64 rq_clock_task(struct rq *rq) { return rq->clock_task; }
static inline void update_rq_clock(struct rq *rq) { (void)rq; }
static inline void rq_clock_skip_update(struct rq *rq) { (void)rq; }
static inline void resched_curr(struct rq *rq) {
  rq->need_resched = 1;
  rq->resched_calls++;
}
static inline int test_tsk_need_resched(struct task_struct *p) { return p->rq->need_resched; }
static inline void add_nr_running(struct rq *rq, unsigned count) { rq->nr_running += count; }
static inline void sub_nr_running(struct rq *rq, unsigned count) { rq->nr_running -= count; }
static inline int task_on_rq_queued(struct task_struct *p) { return p->on_rq == TASK_ON_RQ_QUEUED; }
static inline int task_current(struct rq *rq, struct task_struct *p) { return rq->curr == p; }
static inline int task_current_donor(struct rq *rq, struct task_struct *p) { return rq->donor == p; }
/* Lazy preemption is a preemption model's choice; ours reschedules at once (§19). */
static inline void resched_curr_lazy(struct rq *rq) { resched_curr(rq); }
/* Every task is fair: p->sched_class stays NULL, the address of this "class". */
#define fair_sched_class (*(const struct sched_class *)0)
/* core.c wakeup_preempt(): written in harness.c (the driver's semantics). */
static void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags);
static inline void __block_task(struct rq *rq, struct task_struct *p) {
  if (ksrc_hooks.block_task) ksrc_hooks.block_task(rq, p);
}
#define jiffies 0UL

/* ---- lists (the rq's cfs_tasks, for load balancing we do not model) ------------ */
static inline void list_add(struct list_head *entry, struct list_head *head) {
  entry->next = head->next;
  entry->prev = head;
  head->next->prev = entry;
  head->next = entry;
}
static inline void list_del_init(struct list_head *entry) {
  entry->prev->next = entry->next;
  entry->next->prev = entry->prev;
  entry->next = entry->prev = entry;
}

/* ---- stubs: PELT, cgroups, bandwidth, schedstats, tracing, cpufreq, dl_server --- */
static inline u32 get_pelt_divider(struct sched_avg *avg) { return 47742 - 1024 + avg->period_contrib; }
static inline long se_weight(struct sched_entity *se) { return scale_load_down(se->load.weight); }
#define trace_sched_stat_runtime(...) do { } while (0)
#define account_group_exec_runtime(p, d) do { } while (0)
static inline void cgroup_account_cputime(struct task_struct *p, s64 d) { (void)p; (void)d; }
#define raw_spin_lock_init(l) do { } while (0)
#define UPDATE_TG 0x1
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH 0x4
#define DO_DETACH 0x8
#define SCHED_CPUFREQ_IOWAIT 0x1
static inline void update_load_avg(struct cfs_rq *c, struct sched_entity *se, int f) { (void)c; (void)se; (void)f; }
static inline void update_cfs_group(struct sched_entity *se) { (void)se; }
static inline void enqueue_load_avg(struct cfs_rq *c, struct sched_entity *se) { (void)c; (void)se; }
static inline void dequeue_load_avg(struct cfs_rq *c, struct sched_entity *se) { (void)c; (void)se; }
static inline void update_idle_cfs_rq_clock_pelt(struct cfs_rq *c) { (void)c; }
static inline void util_est_enqueue(struct cfs_rq *c, struct task_struct *p) { (void)c; (void)p; }
static inline void util_est_dequeue(struct cfs_rq *c, struct task_struct *p) { (void)c; (void)p; }
static inline void util_est_update(struct cfs_rq *c, struct task_struct *p, bool s) { (void)c; (void)p; (void)s; }
static inline void cpufreq_update_util(struct rq *rq, unsigned f) { (void)rq; (void)f; }
static inline void hrtick_update(struct rq *rq) { (void)rq; }
static inline void check_update_overutilized_status(struct rq *rq) { (void)rq; }
static inline void assert_list_leaf_cfs_rq(struct rq *rq) { (void)rq; }
static inline bool list_add_leaf_cfs_rq(struct cfs_rq *c) { (void)c; return true; }
static inline void check_enqueue_throttle(struct cfs_rq *c) { (void)c; }
static inline int throttled_hierarchy(struct cfs_rq *c) { (void)c; return 0; }
static inline int cfs_rq_throttled(struct cfs_rq *c) { (void)c; return 0; }
static inline bool check_cfs_rq_runtime(struct cfs_rq *c) { (void)c; return false; }
static inline void return_cfs_rq_runtime(struct cfs_rq *c) { (void)c; }
static inline void account_cfs_rq_runtime(struct cfs_rq *c, u64 d) { (void)c; (void)d; }
static inline void update_curr_task(struct task_struct *p, s64 d) { (void)p; (void)d; }
#define dl_server_active(s) 0
#define dl_server_update(s, d) do { } while (0)
#define dl_server_start(s) do { } while (0)
#define dl_server_update_idle_time(rq, p) do { } while (0)
#define schedstat_enabled() 0
struct sched_statistics { u64 exec_max, slice_max; };
#define __schedstats_from_se(se) ((struct sched_statistics *)NULL)
#define __schedstat_set(var, val) do { } while (0)
static inline void check_schedstat_required(void) {}
static inline void update_stats_wait_start_fair(struct cfs_rq *c, struct sched_entity *se) { (void)c; (void)se; }
static inline void update_stats_wait_end_fair(struct cfs_rq *c, struct sched_entity *se) { (void)c; (void)se; }
static inline void update_stats_enqueue_fair(struct cfs_rq *c, struct sched_entity *se, int f) { (void)c; (void)se; (void)f; }
static inline void update_stats_dequeue_fair(struct cfs_rq *c, struct sched_entity *se, int f) { (void)c; (void)se; (void)f; }

#endif
