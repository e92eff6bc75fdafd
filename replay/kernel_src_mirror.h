// The properties judged on the real code: kernel-src's runqueues, read through the
// observation interface (kernel_src/observation.h) into a model::Machine used only as
// a state container (model/mirror.h), with the property Checker on it. The harness's
// wrapped calls (shim/types.h ksrc_mirror_hooks) become the Checker's observer hooks,
// each after its CPU is loaded again; after every event the CPUs it touched are
// loaded and the per-event checks run. A patched tree is thus judged by the
// properties, not by its agreement with our model (kernel_matches_reference).
//
// Which properties run here: properties/kernel_src_judged.h. The statements are the
// forms of the profile whose state the tree keeps, chosen by the observation's shape
// bits (KSRC_SHAPE_*), never by a version number (forms_for_shape): Debian's 6.12 shape
// is judged by Forms<profile_6_12>, the vprot shapes (6.18.2 .. 7.1) by
// Forms<profile_6_18>; a shape's properties the mirror cannot judge are its gaps
// (tree_traits, properties::tree_gaps). Built only with kernel-src (EEVDF_HAVE_KERNEL_SRC).
#pragma once

#include <cstdint>      // times
#include <map>          // evaluated counts
#include <memory>       // make_kernel_src_mirror
#include <stdexcept>    // an unknown shape
#include <set>          // tainted CPUs
#include <string_view>  // forms
#include <vector>       // specs, observations

#include "kernel_src/machine.h"
#include "kernel_src/observation.h"
#include "model/arith_kernel.h"
#include "model/mirror.h"
#include "model/profiles.h"
#include "properties/checker.h"
#include "properties/kernel_src_judged.h"
#include "properties/registry.h"

namespace eevdf::replay {

// The selection of the properties judged on kernel-src within `user` (kernel_src_judged.h),
// and of the others (for the reference in lockstep). A selection of no property reads
// as the one name no check has.
properties::Selection kernel_src_selection(const properties::Selection& user);
properties::Selection reference_selection(const properties::Selection& user);

// The statements a tree of observation shape `shape` is judged by ("6.12", "6.18";
// "" when the mirror has no forms for it: it then refuses to run, never judging by the
// wrong forms).
std::string_view forms_for_shape(unsigned shape);
// What of the tree the properties must know to say what it leaves unjudged.
properties::TreeTraits tree_traits(unsigned shape, bool reference_lockstep);

// A shape the mirror has no forms for (bad input: the tree given by --kernel-tree).
class UnknownShape : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The mirror as its drivers (the lockstep, the run of a tree alone) see it, whatever
// its profile.
class MirrorDriver {
 public:
  virtual ~MirrorDriver() = default;
  virtual void before(const trace::Event& e) = 0;
  virtual void after(const trace::Event& e) = 0;
  virtual void finish() = 0;
  virtual void taint(const std::set<int>& cpus) = 0;
  virtual bool empty() const = 0;
  virtual bool measure(std::string_view name, std::string& numerator, std::string& denominator) const = 0;
  // Adds each enabled check's evaluations to `evaluated` (runner/measures.h).
  virtual void tally(std::map<std::string, std::uint64_t>& evaluated) const = 0;
};

template <class P>
class BasicKernelSrcMirror final : public MirrorDriver {
 public:
  using Profile = P;
  using Mirror = model::Machine<model::KernelArith, Profile>;

  // Installs its hooks on `k` (removed again by the destructor); the properties of
  // `selection` that kernel-src judges (kernel_src_selection) report to `sink`.
  // `traits`: the tree's, which decide what it leaves unjudged (properties::judged_on_tree).
  // Throws UnknownShape when `k`'s shape is not P's.
  BasicKernelSrcMirror(const model::Config& config, const std::vector<model::TaskSpec>& specs, kernel_src::Machine& k,
                       properties::Sink& sink, const properties::Selection& selection,
                       const properties::TreeTraits& traits = {});
  ~BasicKernelSrcMirror() override;
  BasicKernelSrcMirror(const BasicKernelSrcMirror&) = delete;
  BasicKernelSrcMirror& operator=(const BasicKernelSrcMirror&) = delete;

  // Around kernel-src's application of `e`: before (the checks' before_event), then
  // after (the touched CPUs loaded, the per-event checks). Not after an event kernel-src
  // refused or crashed in.
  void before(const trace::Event& e) override;
  void after(const trace::Event& e) override;
  // The end of the trace: every CPU loaded, the end-of-trace checks.
  void finish() override;
  // CPUs past an s64 overflow (reported by whoever judges no_overflow): a violation
  // there is marked as its consequence.
  void taint(const std::set<int>& cpus) override;

  bool empty() const override { return checker_.empty(); }
  bool measure(std::string_view name, std::string& numerator, std::string& denominator) const override {
    return checker_.measure(name, numerator, denominator);
  }
  void tally(std::map<std::string, std::uint64_t>& evaluated) const override;
  const properties::Checker<model::KernelArith, Profile>& checker() const { return checker_; }
  const Mirror& machine() const { return mirror_; }

 private:
  void load_tasks();
  void load_task(int p);       // from the driver's task_struct
  void observe(int cpu, unsigned ask = 0);  // into obs_, with what `ask` asks for (KSRC_OBS_*)
  void load_leavers(int cpu);  // the tasks cpu held when last loaded, and the event's
  void load_rq(int cpu);       // from obs_, with the tasks it holds
  void load_tree(int cpu);     // obs_'s rbtree (KSRC_OBS_TREE) into the Env, for augmented_consistent
  void load(int cpu);          // observed now, then what can have changed on it
  void add_touched(const trace::Event& e);
  void flush_placed();
  const model::sched_entity<model::KernelArith>& se(int task) const {
    return mirror_.tasks().at(static_cast<std::size_t>(task)).se;
  }
  const model::rq<model::KernelArith>& rq(int cpu) const { return mirror_.rqs().at(static_cast<std::size_t>(cpu)); }

  // The C hooks (ctx: this).
  static void on_placed(void* ctx, int cpu, int task, int flags, std::int64_t vlag, int had_rel, std::int64_t rel);
  static void on_placement_done(void* ctx);
  static void on_picked(void* ctx, int cpu, int task, int buddy);
  static void on_lag_stored(void* ctx, int cpu, int task, std::int64_t vlag_before);
  static void on_set_next(void* ctx, int cpu, int task);
  static void on_buddy_set(void* ctx, int cpu, int task);
  static void on_charged(void* ctx, int cpu, int task, std::uint64_t delta, int renewed, int resched);
  static void on_block_completed(void* ctx, int cpu, int task);
  static void on_v0_moved(void* ctx, int cpu, std::int64_t delta, int done, int placing);
  static void on_protection_set(void* ctx, int cpu, int task, std::uint64_t min_slice);
  static void on_wakeup_entered(void* ctx, int cpu, int task);
  static void on_wakeup_pick_step(void* ctx, int cpu, int curr, int task, int short_);
  static void on_wakeup_decided(void* ctx, int cpu, int task, int preempted);
  static void on_delay_entered(void* ctx, int cpu, int task, int flags);
  static void on_delay_left(void* ctx, int cpu, int task, int how);
  static void on_yielded(void* ctx, int cpu, int task);

  kernel_src::Machine& k_;
  Mirror mirror_;
  properties::Env<model::KernelArith, Profile> env_;
  properties::Checker<model::KernelArith, Profile> checker_;
  kernel_src::c::ksrc_mirror_hooks hooks_{};
  std::vector<kernel_src::Observation> obs_;  // per CPU, the last observation
  // Per CPU: v0 as last observed and the exact value it stands for (continuous across
  // its moves and its wrap past 2^64, as the model's); off-queue tasks' times are read
  // against their CPU's.
  std::vector<model::VirtualTimes> times_;
  std::vector<std::vector<int>> members_;  // per CPU: the tasks it held when last loaded
  model::MirrorRq rq_scratch_;             // load_rq's
  int event_task_ = -1;  // the current event's task index (-1: none, or between events)
  int lag_task_ = -1;              // inside lag_stored for this task: its vlag is a lag, not a stash
  struct Placed {
    bool pending = false;
    int cpu = 0, task = 0, flags = 0;
    std::int64_t vlag = 0, rel = 0;
    bool had_rel = false;
  } placed_;
  trace::Event last_;
  std::vector<int> last_checked_;
  bool applied_ = false;
  bool walk_tree_ = false;  // augmented_consistent is judged: observe the tree's shape after each event
};

// Debian's 6.12 (the default tree): the one form the lockstep runs beside.
using KernelSrcMirror = BasicKernelSrcMirror<model::profile_6_12>;

// The mirror of the forms of `k`'s shape (forms_for_shape), the tree's gaps left out.
// Throws UnknownShape for a shape it has no forms for.
std::unique_ptr<MirrorDriver> make_kernel_src_mirror(const model::Config& config,
                                                     const std::vector<model::TaskSpec>& specs,
                                                     kernel_src::Machine& k, properties::Sink& sink,
                                                     const properties::Selection& selection, bool reference_lockstep);

}  // namespace eevdf::replay
