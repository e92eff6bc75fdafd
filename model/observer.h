// Observer hooks: the intermediate points of a transition that the property
// checker looks at (docs/PROPERTIES.md: placement, pick, reweight, the lag store, ...).
// Every hook receives const views; an observer never changes the model. A Machine
// without an observer pays one null test per hook.
#pragma once

#include <cstdint>  // ns

#include "model/task.h"

namespace eevdf::model {

// Why an entity leaves the delayed state (§10).
// by_wakeup_pick: a kernel-src tree whose wakeup check picks through
// pick_next_entity() (7.1) completes a delayed pick there; the model never does.
enum class delay_exit { by_pick, by_wake, by_force, by_wakeup_pick };

// A move of an entity in or out of the tree or curr (§3.3), made with exactly one
// cfs_rq::generation bump and nothing else: an observer holding a recount of the
// queue from just before may patch it instead of recounting (properties' Env::facts).
enum class queue_move { into_tree, out_of_tree, became_curr, left_curr };

// The comparisons on virtual times the model decides by (docs/IDEAL_TRACKS_KERNEL.md):
// where the kernel and the ideal arithmetic can take different branches. `decided`
// names each, with its subject `a` (and `b` for a comparison of two entities).
enum class decision {
  pick_curr_eligible,    // §7.1 step 2: curr stays a candidate (a = curr)
  pick_walk,             // §7.1 steps 4-5: the first eligible tree entity in deadline order (a, or none)
  pick_curr_before,      // §7.1 step 6: curr's deadline before the walk's (a = curr, b = best)
  buddy_eligible,        // §7.2 PICK_BUDDY (a = next)
  yield_eligible,        // §12 (a = curr)
  delay_eligible,        // §6.3 step 3: DELAY_DEQUEUE's test (a = the sleeper)
  requeue_positive_lag,  // §10 requeue: vlag > 0 re-places (a = the wakee)
  deadline_reached,      // §5.2 update_deadline: vruntime >= deadline (a = curr)
  protected_slice,       // §7.3 protect_slice (a = curr)
  short_wakee_eligible,  // 6.12 §8.2 do_preempt_short: the wakee is eligible (a = wakee)
  short_wakee_before,    // 6.12 §8.2: the wakee's deadline before curr's (a = wakee, b = curr)
  short_curr_eligible,   // 6.12 §8.2: curr is eligible (a = curr)
  resched_curr_eligible,  // 6.12 §5.1 did_preempt_short: curr is eligible (a = curr)
};

template <class A>
class Observer {
 public:
  using value = typename A::value;
  using entity = sched_entity<A>;
  virtual ~Observer() = default;

  // §5.3 update_entity_lag() stored se.vlag: `raw` is V - v before the clamp,
  // `limit` the clamp's bound, `V` the average it used.
  virtual void lag_stored(const cfs_rq<A>&, const entity&, const value& /*raw*/, const value& /*limit*/, const value& /*V*/) {}
  // §6.1 place_entity() placed `se` with stored lag `vlag` (before inflation) and,
  // when it had one, the relative deadline `rel_deadline`; fired after the entity is
  // back in the sums (end of enqueue_entity, or of a requeue's re-placement).
  virtual void placed(const cfs_rq<A>&, const entity&, unsigned /*flags*/, const value& /*vlag*/, bool /*had_rel_deadline*/,
                      const value& /*rel_deadline*/) {}
  // §7.2 the schedule path's pick chose `se` (nullptr: nothing queued) on `rq`,
  // before set_next_entity; `buddy`: it came from PICK_BUDDY.
  virtual void picked(const rq<A>&, const entity* /*se*/, bool /*buddy*/) {}
  // §7.3 set_next_entity() is about to make `se` curr (se still in the tree).
  virtual void set_next(const cfs_rq<A>&, const entity&) {}
  // §7.3 set_protect_slice() protected `se` using `min_slice` as the shortest other
  // queued slice (~0 when RUN_TO_PARITY is off or nothing else is queued).
  virtual void protection_set(const cfs_rq<A>&, const entity&, std::uint64_t /*min_slice*/) {}
  // §7.2 set_next_buddy() made `se` the next buddy.
  virtual void buddy_set(const cfs_rq<A>&, const entity&) {}
  // §5.1 update_curr() charged `delta` ns to curr; `deadline_renewed` and
  // `resched` are what it decided (resched only counts when nr_queued > 1).
  virtual void charged(const cfs_rq<A>&, const entity& /*curr*/, std::uint64_t /*delta*/, bool /*deadline_renewed*/,
                       bool /*resched*/) {}
  // §8.2 the wakeup check reached its pick step (after its own update_curr, before
  // the pick); `short_` is PREEMPT_SHORT's decision. Then wakeup_decided says
  // whether it asked to reschedule.
  virtual void wakeup_pick_step(const rq<A>&, const entity& /*curr*/, const entity& /*wakee*/, bool /*short_*/) {}
  virtual void wakeup_decided(const rq<A>&, const entity& /*wakee*/, bool /*preempted*/) {}
  // §8.2 the wakeup check under a fair curr began, before any of its returns.
  virtual void wakeup_entered(const rq<A>&, const entity& /*wakee*/) {}
  // §12 yield_task_fair() returned; `curr` was the running entity that yielded (the
  // call returns at once when its CPU has one task).
  virtual void yielded(const rq<A>&, const entity& /*curr*/) {}
  // §8.2 the wakeup check returned early because a reschedule was already pending.
  virtual void wakeup_skipped(const rq<A>&, const entity& /*wakee*/) {}
  // §7.3 update_protect_slice / cancel_protect_slice changed curr's vprot.
  virtual void protection_changed(const cfs_rq<A>&, const entity& /*curr*/, bool /*cancelled*/) {}
  // §10 the entity became delayed / stopped being delayed.
  virtual void delay_entered(const cfs_rq<A>&, const entity&, unsigned /*dequeue_flags*/) {}
  virtual void delay_left(const cfs_rq<A>&, const entity&, delay_exit /*how*/) {}
  // §13.1 __block_task() completed a sleep of `p` on `rq` (the iowait increment point).
  virtual void block_completed(const rq<A>&, const task_struct<A>& /*p*/) {}
  // §4.3 the reference point v0 moved.
  virtual void v0_moved(const cfs_rq<A>&, const value& /*from*/, const value& /*to*/) {}
  // §3.3 __enqueue_entity / __dequeue_entity moved `se` into or out of the tree, or
  // set_next_entity / put_prev_entity made it curr or stopped it being curr; fired
  // right after that move's generation bump.
  virtual void queue_moved(const cfs_rq<A>&, const entity&, queue_move) {}
  // The value counterpart of queue_moved: a generation bump that changed nothing an
  // observer counts over Q but `se`'s own values (vruntime, weight, slice, the delayed
  // flag, on_rq), or with se == nullptr nothing but v0 (§4.3); fired right after it.
  virtual void queue_changed(const cfs_rq<A>&, const entity* /*se*/) {}
  // A decision of the kind above took `outcome`; fired before the model acts on it.
  virtual void decided(const cfs_rq<A>&, decision, const entity* /*a*/, const entity* /*b*/, bool /*outcome*/) {}
  // §9 reweight_entity() gave the task entity `se` its current (full) weight and
  // rescaled its stored lag (and, when `deadline_scaled`, its relative deadline)
  // from `old_weight`; fired at its end.
  virtual void reweighted(const cfs_rq<A>&, const entity&, std::uint64_t /*old_weight*/, bool /*deadline_scaled*/) {}
};

}  // namespace eevdf::model
