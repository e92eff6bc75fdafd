/* What every kernel-src build reports about one runqueue, whatever the tree's shape
 * (the observation interface): filled by the harness (harness.c, compiled with the
 * tree's detected shape) from the implementation's own structures, read by the C++
 * side (observation.h). Plain C, the same layout for every tree. */
#ifndef EEVDF_KERNEL_SRC_OBSERVE_H
#define EEVDF_KERNEL_SRC_OBSERVE_H

#include "kernel_src/shim/types.h"

/* What the tree has, detected from its source when it was built (bits of
 * ksrc_obs_rq.shape): which observation fields mean something. */
enum {
  KSRC_SHAPE_ZERO_VRUNTIME = 1u << 0, /* v0 is zero_vruntime (else min_vruntime) */
  KSRC_SHAPE_VPROT = 1u << 1,         /* se->vprot exists (else 6.12: vlag stashes the deadline) */
  KSRC_SHAPE_VPROT_IN_VLAG = 1u << 2, /* vprot shares vlag's storage (a union) */
  KSRC_SHAPE_MIN_SLICE = 1u << 3,     /* the tree keeps the augmented min_slice */
  KSRC_SHAPE_MAX_SLICE = 1u << 4,     /* ... and max_slice */
  KSRC_SHAPE_SUM_SHIFT = 1u << 5,     /* the sums keep full weights shifted by sum_shift */
  KSRC_SHAPE_H_NR_DELAYED = 1u << 6,  /* cfs_rq->h_nr_delayed exists */
  KSRC_SHAPE_SUM_W_VRUNTIME = 1u << 7, /* the sums are sum_w_vruntime / sum_weight (else avg_vruntime / avg_load) */
  KSRC_SHAPE_V0_BY_TREE_CHANGE = 1u << 8, /* zero_vruntime is re-based by __enqueue_entity / __dequeue_entity
                                             (else inside avg_vruntime) */
  KSRC_SHAPE_WAKEUP_LIMITS_ALWAYS = 1u << 9, /* the wakeup check decides by its preempt action (set_preempt_buddy
                                                present): one that does not preempt limits curr's protection to
                                                the shortest queued slice under RUN_TO_PARITY, whatever the slices */
  KSRC_SHAPE_LAG_KEEPS_DELAYED = 1u << 10, /* update_entity_lag() returns whether it moved the lag: a delayed
                                              entity's store keeps max(lag, its stored vlag), <= 0 with DELAY_ZERO */
  KSRC_SHAPE_WAKEUP_PICKS_BUDDY = 1u << 11, /* the wakeup check's pick (pick_eevdf / __pick_eevdf) returns an
                                               eligible next buddy first (PICK_BUDDY) */
  KSRC_SHAPE_BUDDY_ONLY_PROTECTED = 1u << 12, /* ... only when it protects curr (not under PREEMPT_SHORT) */
  KSRC_SHAPE_CALC_DELTA_DIVIDES = 1u << 13, /* __calc_delta divides (delta * weight / lw->weight, 64-bit)
                                               instead of multiplying by the inverse: __update_inv_weight
                                               is not reached */
  KSRC_SHAPE_V0_AT_HEAVY_PLACEMENT = 1u << 14, /* place_entity() re-bases zero_vruntime to the placed entity's
                                                  vruntime when its weight exceeds the queue's */
};

/* What the caller asks for beyond the state (bits of ksrc_obs_rq.ask). The derived
 * values cost the tree's own computations per runqueue and per entity; the property
 * mirror, which observes at every wrapped call, reads none of them, and the tree's
 * shape only after an event (augmented_consistent walks it). */
enum {
  KSRC_OBS_DERIVED = 1u << 0, /* V, eligible, and the tree's shape (KSRC_OBS_TREE) */
  KSRC_OBS_TREE = 1u << 1,    /* the tree's children and root (else -1) */
};

/* One entity of the runqueue: a tree member (in tree order) or curr. */
struct ksrc_obs_entity {
  int task;             /* the driver's task index (task_struct.index) */
  int left, right;      /* tree children: indices into ksrc_obs_rq.entities (-1: none; KSRC_OBS_TREE) */
  unsigned char in_tree, is_curr, on_rq, sched_delayed, rel_deadline, custom_slice;
  unsigned char eligible; /* entity_eligible() of the tree's own code (KSRC_OBS_DERIVED) */
  u64 vruntime, deadline, slice;
  u64 weight; /* se->load.weight (full) */
  u32 inv_weight;
  s64 vlag;
  u64 vprot;                      /* KSRC_SHAPE_VPROT */
  u64 min_vruntime, min_slice, max_slice; /* the augmented subtree values (tree members) */
};

/* One runqueue (rq and its root cfs_rq). */
struct ksrc_obs_rq {
  unsigned shape;           /* KSRC_SHAPE_* */
  int cpu;
  int curr;                 /* rq->curr's task index, -1: idle */
  int next;                 /* cfs_rq->next's task index, -1: none */
  int root;                 /* the tree's root: index into entities, -1: empty (KSRC_OBS_TREE) */
  int need_resched;
  unsigned rq_nr_running;   /* rq->nr_running */
  unsigned nr_queued;       /* cfs_rq->nr_queued (nr_running before 6.13) */
  unsigned h_nr_queued, h_nr_runnable, h_nr_delayed;
  u64 load_weight;          /* cfs_rq->load.weight */
  s64 sum_w_vruntime;       /* cfs_rq->sum_w_vruntime (avg_vruntime before 7.0) */
  u64 sum_weight;           /* cfs_rq->sum_weight (avg_load before 7.0) */
  unsigned sum_shift;       /* KSRC_SHAPE_SUM_SHIFT */
  u64 v0;                   /* zero_vruntime or min_vruntime */
  u64 V;                    /* avg_vruntime() of the tree's code, run on a copy of the runqueue (KSRC_OBS_DERIVED) */
  unsigned ask;             /* KSRC_OBS_*: set by the caller */
  int n;                    /* entities filled: the tree in order, then curr when it is not in the tree */
  int capacity;             /* entities' room (the caller's) */
  struct ksrc_obs_entity *entities;
};

#endif
