// The v6.18 profile's operations (docs/MODEL.md §4.3, §5.1, §7.1, §7.3, §8.2, §9):
// min_vruntime as v0, slice protection by vprot bounded by the shortest queued slice,
// the reweight of 6d71a9c61604. Declared here for Machine to inherit; defined in
// profile_6_18-inl.h.
#pragma once

#include <cstdint>  // weights

#include "model/observer.h"
#include "model/profile.h"
#include "model/task.h"

namespace eevdf::model {

template <class A, class M>
class profile_ops<A, profile_6_18, M> {
 protected:
  using value = typename A::value;
  using entity = sched_entity<A>;

  value avg_vruntime(const cfs_rq<A>& cfs) const;
  void update_min_vruntime(cfs_rq<A>& cfs);
  void deadline_renewed(cfs_rq<A>&) {}  // v0 is kept by update_min_vruntime()
  void set_protect_slice(cfs_rq<A>& cfs, entity& se);
  void update_protect_slice(cfs_rq<A>& cfs, entity& se);
  bool protect_slice(const cfs_rq<A>& cfs, const entity& se) const;
  void cancel_protect_slice(cfs_rq<A>& cfs, entity& se);
  void reweight_entity(cfs_rq<A>& cfs, entity& se, std::uint64_t weight, bool was_queued);
  // §5.1 step 6: after charging curr, does update_curr ask to reschedule?
  bool update_curr_resched(const cfs_rq<A>& cfs, const entity& curr, bool deadline_renewed) const {
    return deadline_renewed || !m().decide(cfs, decision::protected_slice, &curr, nullptr, protect_slice(cfs, curr));
  }
  // §7.1 step 3: the pick keeps an eligible curr while it is protected.
  bool pick_keeps_curr(const cfs_rq<A>& cfs, const entity& curr, bool protect) const {
    return protect && m().decide(cfs, decision::protected_slice, &curr, nullptr, protect_slice(cfs, curr));
  }
  void wakeup_preempt_pick(rq<A>& rq, entity& se, entity& pse);
  // §12: an eligible curr forfeits the rest of its request.
  void yield_forfeit(cfs_rq<A>& cfs, entity& se);

 private:
  M& m() { return static_cast<M&>(*this); }
  const M& m() const { return static_cast<const M&>(*this); }
};

}  // namespace eevdf::model
