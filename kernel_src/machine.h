// The `kernel-src` model: the real fair class of Debian's 6.12 kernel source
// (harness.h), driven by our own core.c orchestration of the trace verbs, written
// from docs/MODEL.md §6.4, §13, §19 like the reference model's core-inl.h. Same
// verbs and legality rules as model::Machine; state views for dumps and the
// differential check (kernel_matches_reference).
//
// The kernel code keeps sysctls and features in globals: each verb installs this
// machine's before it calls in (thread-local, so machines on different threads do
// not interfere).
#pragma once

#include <cstdint>        // times
#include <memory>         // the C state
#include <string>         // illegal-event reasons
#include <unordered_map>  // ids to indices (lookups only)
#include <vector>         // runqueues and tasks

#include "kernel_src/hook_call.h"
#include "kernel_src/observation.h"
#include "model/config.h"
#include "model/machine.h"  // io_sleep, task_state

namespace eevdf::kernel_src {

namespace c {
extern "C" {
#include "kernel_src/shim/types.h"
#include "kernel_src/harness.h"
}
}  // namespace c

// What core.c keeps per task and per CPU beyond the fair class's structs.
struct TaskExtra {
  int id = 0;
  int nice = 0;
  int default_cpu = -1;
  bool forked = false;
  bool exited = false;
  bool in_iowait = false;
  bool in_iowait_acct = false;  // the proposed split (§13.2): counted like the reference
};

struct CpuExtra {
  std::int64_t nr_iowait = 0;
  std::int64_t nr_iowait_acct = 0;
  bool ever_enqueued = false;
};

class Machine {
 public:
  // `api`: the build of the tree to run (tree_build.h); nullptr: the default tree, built in.
  Machine(const model::Config& config, const std::vector<model::TaskSpec>& tasks, const c::ksrc_api* api = nullptr);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // The trace verbs, as model::Machine's (tasks are indices; cpu -1: not given).
  std::string fork(std::uint64_t t, int p, int cpu);
  std::string wake(std::uint64_t t, int p, int cpu);
  std::string sleep(std::uint64_t t, int p, model::io_sleep io);
  std::string tick(std::uint64_t t, int cpu);
  std::string migrate(std::uint64_t t, int p, int cpu);
  std::string renice(std::uint64_t t, int p, int nice);
  std::string setslice(std::uint64_t t, int p, std::uint64_t slice_ns);
  std::string yield(std::uint64_t t, int p);
  std::string exit(std::uint64_t t, int p);

  // Views. None changes the state (avg_vruntime(), which moves v0 in some trees, runs
  // on a copy).
  int ncpus() const { return static_cast<int>(cpus_.size()); }
  int ntasks() const { return static_cast<int>(extra_.size()); }
  int task_index(int id) const;
  const c::task_struct& task(int p) const { return tasks_[static_cast<std::size_t>(p)]; }
  const TaskExtra& extra(int p) const { return extra_[static_cast<std::size_t>(p)]; }
  const c::rq& rq(int cpu) const { return rqs_[static_cast<std::size_t>(cpu)]; }
  const CpuExtra& cpu_extra(int cpu) const { return cpus_[static_cast<std::size_t>(cpu)]; }
  model::task_state state_of(int p) const;
  int curr_index(int cpu) const;  // -1: idle
  std::uint64_t now() const { return now_; }
  // The kernel release of the tree this machine runs.
  const char* kernel_version() const { return api_->kernel_version; }
  // V of a runqueue as the tree's avg_vruntime() returns it, run on a copy so that v0
  // is not re-based (§4.1).
  std::uint64_t avg_vruntime_of(int cpu) const;
  bool eligible(int p) const;        // entity_eligible (pure)
  bool protected_slice(int p) const;  // running and protect_slice() (vlag == deadline)
  // The runqueue of `cpu` through the observation interface (observation.h), with
  // what `ask` asks for beyond the state (KSRC_OBS_*: V, eligibility, the tree's shape).
  Observation observe(int cpu) const;
  void observe(int cpu, Observation& out, unsigned ask = c::KSRC_OBS_DERIVED) const;
  // SCHED_WARN_ON / WARN_ON_ONCE taken by the kernel code so far.
  unsigned long warnings() const { return warnings_; }
  // The first of them: "SCHED_WARN_ON(<condition>) in <function>" ("" while none).
  const std::string& first_warning() const { return first_warning_; }
  // The warning of the last event, in the same form ("": it took none).
  const std::string& last_warning() const { return last_warning_; }
  // Where the real kernel would have crashed (only after an s64 overflow), or "". The
  // machine then refuses every further event.
  const std::string& oops() const { return oops_; }
  // The crash alone, without its time (a constant text: a kernel_warn condition).
  const std::string& oops_condition() const { return oops_condition_; }
  // Appends the calls of the wrapped place_entity, reweight_entity and the schedule
  // path's pick_eevdf (pick_task_fair; the wakeup check's pick is not the observer's
  // `picked`) to `out`; nullptr stops it. The caller clears `out`.
  void record_hooks(std::vector<HookCall>* out);
  // The property mirror's calls (shim/types.h ksrc_mirror_hooks; replay/
  // kernel_src_mirror.h); nullptr stops them. `hooks` outlives the machine's use of it.
  // A mutant build's mutant to run (kernel_src/mutate/schemata.h; 0: the tree's code)
  // and where to count the executions of its mutated statement (nullptr: nowhere).
  void set_mutant(unsigned mutant, unsigned long* reached) {
    tunables_.mutant = mutant;
    tunables_.mutant_reached = reached;
    install();
  }
  void set_mirror_hooks(const c::ksrc_mirror_hooks* hooks) {
    hooks_.mirror = hooks;
    install();
  }

 private:
  void install();
  void collect_warnings();
  void advance(std::uint64_t t);
  bool running(int p) const;
  c::rq& rq_at(int cpu) { return rqs_[static_cast<std::size_t>(cpu)]; }
  c::task_struct& task_at(int p) { return tasks_[static_cast<std::size_t>(p)]; }
  void activate_task(c::rq& rq, c::task_struct& p, int flags);
  void deactivate_task(c::rq& rq, c::task_struct& p, int flags);
  void block_task(c::rq& rq, c::task_struct& p, int flags);
  void block_task_complete(c::rq& rq, c::task_struct& p);  // __block_task
  void schedule(c::rq& rq, bool prev_blocks, bool prev_dies);
  void schedule_pending();
  void ttwu_do_activate(c::rq& rq, c::task_struct& p, int wake_flags);
  void set_param(c::task_struct& p, bool reweight_with_new_nice, int nice);
  static void block_task_hook(c::rq* rq, c::task_struct* p);
  static void placed_hook(c::cfs_rq* cfs, c::sched_entity* se, int flags);
  static void picked_hook(c::cfs_rq* cfs, c::sched_entity* se);
  static void reweighted_hook(c::cfs_rq* cfs, c::sched_entity* se, unsigned long weight);
  void record(c::cfs_rq* cfs, HookCall call);

  const c::ksrc_api* api_;
  model::Config cfg_;
  c::ksrc_tunables tunables_{};
  c::ksrc_hooks hooks_{};
  std::vector<c::rq> rqs_;  // never resized: the kernel code keeps pointers into it
  std::vector<c::task_struct> tasks_;
  std::vector<TaskExtra> extra_;
  std::vector<CpuExtra> cpus_;
  std::unordered_map<int, int> index_of_id_;
  std::uint64_t now_ = 0;
  unsigned long warnings_ = 0;
  std::string first_warning_;
  std::string last_warning_;
  std::string oops_;
  std::string oops_condition_;
  std::vector<HookCall>* hook_calls_ = nullptr;
  bool picking_ = false;  // inside pick_task_fair
  mutable std::vector<c::ksrc_obs_entity> observe_room_;  // observe()'s buffer
};

// The mutant that Machines made afterwards on this thread run (Machine::set_mutant),
// for the machines a campaign makes itself; 0: the tree's code.
void set_thread_mutant(unsigned mutant, unsigned long* reached);

// The kernel release the harness was built from ("6.12.117-1~deb12u1"), for reports.
const char* kernel_version();

}  // namespace eevdf::kernel_src
