// The observer hooks in lockstep: the calls of `placed`, `picked` and
// `reweighted` during one event, as kernel-src's wrappers of place_entity /
// pick_eevdf / reweight_entity (harness.c) report them and as the reference's
// observer hooks do (model/observer.h), compared call by call. Part of
// kernel_matches_reference.
#pragma once

#include <string>   // the difference
#include <vector>   // one event's calls

#include "kernel_src/compare.h"  // Reference612
#include "kernel_src/hook_call.h"
#include "model/observer.h"

namespace eevdf::kernel_src {

std::string describe(const HookCall& call);

// The first call where one event's streams differ, as "hook call 2 of the event:
// reference placed(CPU 0, task 3, ...), kernel-src placed(...)"; empty when equal.
std::string first_hook_difference(const std::vector<HookCall>& reference, const std::vector<HookCall>& kernel_src);

// The reference's side: records the three hooks, passes every hook on to `next`
// (the property Checker, or nothing). Every Observer hook must be forwarded here.
// Only the schedule path's EEVDF pick counts: a buddy pick does not call pick_eevdf.
class ReferenceHooks final : public model::Observer<model::KernelArith> {
 public:
  using A = model::KernelArith;
  ReferenceHooks(const Reference612& m, model::Observer<model::KernelArith>* next) : tasks_(m.tasks()), next_(next) {}
  // Any profile's reference (the hooks are the same in every profile).
  ReferenceHooks(const std::vector<model::task_struct<A>>& tasks, model::Observer<model::KernelArith>* next)
      : tasks_(tasks), next_(next) {}
  // This event's calls so far; the caller clears them after comparing.
  std::vector<HookCall> calls;

  void placed(const model::cfs_rq<A>& c, const entity& se, unsigned flags, const value& vlag, bool had_rel,
              const value& rel) override;
  void picked(const model::rq<A>& rq, const entity* se, bool buddy) override;
  void reweighted(const model::cfs_rq<A>& c, const entity& se, std::uint64_t old_weight, bool deadline_scaled) override;

  void lag_stored(const model::cfs_rq<A>& c, const entity& se, const value& raw, const value& limit,
                  const value& V) override {
    if (next_) next_->lag_stored(c, se, raw, limit, V);
  }
  void set_next(const model::cfs_rq<A>& c, const entity& se) override {
    if (next_) next_->set_next(c, se);
  }
  void protection_set(const model::cfs_rq<A>& c, const entity& se, std::uint64_t min_slice) override {
    if (next_) next_->protection_set(c, se, min_slice);
  }
  void buddy_set(const model::cfs_rq<A>& c, const entity& se) override {
    if (next_) next_->buddy_set(c, se);
  }
  void charged(const model::cfs_rq<A>& c, const entity& curr, std::uint64_t delta, bool renewed,
               bool resched) override {
    if (next_) next_->charged(c, curr, delta, renewed, resched);
  }
  void wakeup_entered(const model::rq<A>& rq, const entity& wakee) override {
    if (next_) next_->wakeup_entered(rq, wakee);
  }
  void wakeup_pick_step(const model::rq<A>& rq, const entity& curr, const entity& wakee, bool short_) override {
    if (next_) next_->wakeup_pick_step(rq, curr, wakee, short_);
  }
  void wakeup_decided(const model::rq<A>& rq, const entity& wakee, bool preempted) override {
    if (next_) next_->wakeup_decided(rq, wakee, preempted);
  }
  void wakeup_skipped(const model::rq<A>& rq, const entity& wakee) override {
    if (next_) next_->wakeup_skipped(rq, wakee);
  }
  void protection_changed(const model::cfs_rq<A>& c, const entity& curr, bool cancelled) override {
    if (next_) next_->protection_changed(c, curr, cancelled);
  }
  void delay_entered(const model::cfs_rq<A>& c, const entity& se, unsigned flags) override {
    if (next_) next_->delay_entered(c, se, flags);
  }
  void delay_left(const model::cfs_rq<A>& c, const entity& se, model::delay_exit how) override {
    if (next_) next_->delay_left(c, se, how);
  }
  void block_completed(const model::rq<A>& rq, const model::task_struct<A>& p) override {
    if (next_) next_->block_completed(rq, p);
  }
  void v0_moved(const model::cfs_rq<A>& c, const value& from, const value& to) override {
    if (next_) next_->v0_moved(c, from, to);
  }
  void queue_moved(const model::cfs_rq<A>& c, const entity& se, model::queue_move how) override {
    if (next_) next_->queue_moved(c, se, how);
  }
  void queue_changed(const model::cfs_rq<A>& c, const entity* se) override {
    if (next_) next_->queue_changed(c, se);
  }

 private:
  int id_of(const entity& se) const;

  const std::vector<model::task_struct<A>>& tasks_;  // the reference's, for the task ids
  model::Observer<model::KernelArith>* next_;
};

// Both streams of one replay: construct it, make observer() the reference's observer,
// then after every event take_difference(). Neither copied nor moved (the model and
// kernel-src keep pointers into it).
class HookLockstep {
 public:
  HookLockstep(const Reference612& ref, model::Observer<model::KernelArith>* next, Machine& k)
      : reference_(ref, next) {
    k.record_hooks(&kernel_src_);
  }
  HookLockstep(const HookLockstep&) = delete;
  HookLockstep& operator=(const HookLockstep&) = delete;

  model::Observer<model::KernelArith>* observer() { return &reference_; }
  // The first difference of this event's two streams (empty: none); both are cleared.
  std::string take_difference();
  // This event's calls so far (the tests alter them).
  std::vector<HookCall>& reference_calls() { return reference_.calls; }
  std::vector<HookCall>& kernel_src_calls() { return kernel_src_; }

 private:
  ReferenceHooks reference_;
  std::vector<HookCall> kernel_src_;
};

}  // namespace eevdf::kernel_src
