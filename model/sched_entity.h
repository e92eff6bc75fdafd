// struct sched_entity for a task (docs/MODEL.md §3.1), over an arithmetic policy.
#pragma once

#include <cstdint>  // times in ns

#include "model/weights.h"

namespace eevdf::model {

template <class A>
struct sched_entity {
  using value = typename A::value;

  // The fields every walk of a queue reads come first, so that with the task's
  // header they fill the task's first cache line (task.h); the deadline starts the next.
  load_weight load{};          // scaled weight and its inverse (§1.2)
  value vruntime{};            // absolute virtual time
  std::uint64_t slice = 0;     // requested slice in ns
  bool custom_slice = false;
  bool on_rq = false;
  bool sched_delayed = false;
  bool rel_deadline = false;
  int task = -1;  // index of the owning task (the flat model has task entities only)
  value deadline{};            // absolute, or relative while rel_deadline (§6.3 step 6)
  // Position in the runqueue's tree while queued: fixed at insertion, like an
  // rbtree node's, so that dequeue_entity may make the deadline relative before it
  // erases the node (§6.3). Insertion order breaks deadline ties (§3.3), as the
  // rbtree puts an equal key to the right of existing ones.
  std::uint64_t tree_seq = 0;
  value tree_deadline{};
  value tree_vruntime{};
  std::uint64_t tree_slice = 0;
  // The kernel keeps vlag and vprot in one union (§3.1): vlag while off the
  // runqueue, vprot while curr. A task entity never reads one as the other (only
  // group reweights do, §7.3), so two fields model it exactly and stay readable.
  value vlag{};
  value vprot{};
  std::uint64_t exec_start = 0;
  std::uint64_t sum_exec_runtime = 0;
  std::uint64_t prev_sum_exec_runtime = 0;
};

}  // namespace eevdf::model
