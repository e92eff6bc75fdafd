// The runqueue dump a scheduler developer asks for at a violation or a difference:
// one CPU's runqueue as the kernel names it. Every implementation fills the same
// struct (the reference model: runqueue_dump_model-inl.h; kernel-src of any tree:
// runqueue_dump_kernel_src.h, from its observation), and one formatter prints it, so
// two dumps read side by side field for field. Values are as the kernel holds them:
// virtual times modulo 2^64, vlag as its s64. Format: docs/RUN.md, "The runqueue dump".
#pragma once

#include <cstdint>     // kernel values
#include <functional>  // the task lookup
#include <string>   // the text
#include <vector>   // entities

#include <nlohmann/json_fwd.hpp>

#include "kernel_src/observation.h"  // KSRC_SHAPE_* (plain C constants, no kernel code)
#include "trace/trace.h"

namespace eevdf::replay {

// The shape bits, by the names the harness and the docs use.
using kernel_src::c::KSRC_SHAPE_H_NR_DELAYED;
using kernel_src::c::KSRC_SHAPE_MAX_SLICE;
using kernel_src::c::KSRC_SHAPE_MIN_SLICE;
using kernel_src::c::KSRC_SHAPE_SUM_SHIFT;
using kernel_src::c::KSRC_SHAPE_SUM_W_VRUNTIME;
using kernel_src::c::KSRC_SHAPE_VPROT;
using kernel_src::c::KSRC_SHAPE_VPROT_IN_VLAG;
using kernel_src::c::KSRC_SHAPE_ZERO_VRUNTIME;

// One entity of the runqueue: a member of the tree, or curr.
struct EntityDump {
  int task = 0;  // the trace's task id
  bool in_tree = false, is_curr = false, on_rq = false, sched_delayed = false, rel_deadline = false,
       custom_slice = false, eligible = false;
  std::uint64_t vruntime = 0, deadline = 0, slice = 0, weight = 0;
  std::uint32_t inv_weight = 0;
  std::int64_t vlag = 0;
  std::uint64_t vprot = 0;  // shape has KSRC_SHAPE_VPROT
  // The augmented subtree values of a tree member, where the implementation keeps them
  // per node (kernel-src; the reference keeps the tree's minimum only).
  bool augmented = false;
  bool is_root = false;  // the tree's root: its values are the whole tree's
  std::uint64_t min_vruntime = 0, min_slice = 0, max_slice = 0;
  bool operator==(const EntityDump&) const = default;
};

struct RunqueueDump {
  std::string source;  // "kernel-src linux-source-6.12 ...", "reference 6.12"
  unsigned shape = 0;  // KSRC_SHAPE_*: which names and fields the implementation has
  int cpu = 0;
  int curr = 0;  // task id, 0: idle
  int next = 0;  // the next buddy's task id, 0: none
  bool need_resched = false;
  unsigned rq_nr_running = 0, nr_queued = 0, h_nr_queued = 0, h_nr_delayed = 0;
  std::int64_t h_nr_runnable = 0;
  std::uint64_t load_weight = 0;
  std::int64_t sum_w_vruntime = 0;  // avg_vruntime before 7.0
  std::uint64_t sum_weight = 0;     // avg_load before 7.0
  unsigned sum_shift = 0;           // KSRC_SHAPE_SUM_SHIFT
  std::uint64_t v0 = 0;             // zero_vruntime or min_vruntime
  std::uint64_t V = 0;              // avg_vruntime() as the implementation computes it
  std::vector<EntityDump> entities;  // the tree in order, then curr when it is not in it
  bool has(unsigned bit) const { return (shape & bit) != 0; }
};

// The kernel's names of the sums and of v0 under `shape`.
const char* sum_name(unsigned shape);         // "sum_w_vruntime" or "avg_vruntime"
const char* sum_weight_name(unsigned shape);  // "sum_weight" or "avg_load"
const char* v0_name(unsigned shape);          // "zero_vruntime" or "min_vruntime"

// The dump as text: a title line, the runqueue's fields, one line per entity. Every
// line starts with `indent`.
std::string format_runqueue(const RunqueueDump& d, const std::string& indent = "  ");
// The same as JSON (the kernel's names as keys).
nlohmann::json runqueue_json(const RunqueueDump& d);

// The CPU a report dumps: the violation's own, else its task's, else the event's
// (`cpu=`, else its task's); -1 when none is known. `cpu_of_task(id)` is the task's CPU
// in the implementation (-1: undeclared).
int report_cpu(int violation_cpu, int violation_task, const trace::Event* event,
               const std::function<int(int)>& cpu_of_task);

// Whether the tree's augmented minimum (or, where kept, maximum) slice at its root
// differs from the true one over the tree's members: the kernel's rotation callbacks
// copy only min_vruntime (docs/MODEL.md §3.3), which the reference deliberately does
// not reproduce. False where the dump keeps no per-node values.
bool augmented_slice_stale(const RunqueueDump& d);

// The first field where two dumps of the same CPU differ, entity by entity in task
// order, as "CPU 0: task 3: vruntime: A 123, B 124"; "" when equal. The source and
// the shape (names) are not compared; augmented values only where both keep them.
std::string first_runqueue_difference(const RunqueueDump& a, const RunqueueDump& b, const std::string& a_name,
                                      const std::string& b_name);

}  // namespace eevdf::replay
