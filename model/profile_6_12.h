// The `kernel 6.12` profile's operations: Debian's 6.12.117 (linux-source-6.12), read
// off the installed source where it differs from v6.18 and written in our own code
// (docs/MODEL.md §0, §4.1, §4.3, §5.1, §7.1, §7.3, §8.2, §9, §12):
// - v0 is zero_vruntime, re-based to V inside avg_vruntime() itself (the 2025-26
//   back-ports), so computing V moves v0; update_curr, dequeue and yield leave it;
// - slice protection stashes the deadline in vlag at pick (protected iff vlag ==
//   deadline), cancelled by vlag = deadline + 1;
// - update_curr also reschedules an unprotected ineligible curr (did_preempt_short);
// - PREEMPT_SHORT in its 6.12 form: cancel curr's protection before the pick when an
//   eligible shorter-slice wakee has an earlier deadline or curr is ineligible;
// - reweight_eevdf's era: off the runqueue only vlag is rescaled;
// - yield renews the deadline with update_deadline().
// Declared here for Machine to inherit; defined in profile_6_12-inl.h.
#pragma once

#include <cstdint>  // weights

#include "model/observer.h"
#include "model/profile.h"
#include "model/task.h"

namespace eevdf::model {

template <class A, class M>
class profile_ops<A, profile_6_12, M> {
 protected:
  using value = typename A::value;
  using entity = sched_entity<A>;

  // §4.1 + zero_vruntime: V, re-basing v0 to it (the kernel's avg_vruntime()).
  value avg_vruntime(cfs_rq<A>& cfs);
  // The same V without the re-base, for views and checks (they must not move v0).
  value avg_vruntime(const cfs_rq<A>& cfs) const;
  void update_min_vruntime(cfs_rq<A>&) {}  // 6.12.117 keeps v0 in avg_vruntime() only
  // update_deadline() ends with avg_vruntime() in 6.12.117.
  void deadline_renewed(cfs_rq<A>& cfs) { avg_vruntime(cfs); }
  void set_protect_slice(cfs_rq<A>& cfs, entity& se);
  void update_protect_slice(cfs_rq<A>&, entity&) {}  // no such step in 6.12
  bool protect_slice(const cfs_rq<A>& cfs, const entity& se) const;
  void cancel_protect_slice(cfs_rq<A>& cfs, entity& se);
  void reweight_entity(cfs_rq<A>& cfs, entity& se, std::uint64_t weight, bool was_queued);
  // §5.1 step 6 (6.12): resched on a renewed deadline or did_preempt_short().
  bool update_curr_resched(const cfs_rq<A>& cfs, const entity& curr, bool deadline_renewed) const;
  // §7.1 step 3 (6.12): RUN_TO_PARITY keeps an eligible curr while vlag == deadline.
  bool pick_keeps_curr(const cfs_rq<A>& cfs, const entity& curr, bool protect) const;
  void wakeup_preempt_pick(rq<A>& rq, entity& se, entity& pse);
  // §12 (6.12): vruntime = deadline, then update_deadline().
  void yield_forfeit(cfs_rq<A>& cfs, entity& se);

 private:
  value zero_delta(const cfs_rq<A>& cfs) const;
  bool do_preempt_short(const cfs_rq<A>& cfs, const entity& pse, const entity& se) const;
  M& m() { return static_cast<M&>(*this); }
  const M& m() const { return static_cast<const M&>(*this); }
};

}  // namespace eevdf::model
