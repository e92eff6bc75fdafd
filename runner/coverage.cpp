// The coverage probes; see coverage.h.
#include "runner/coverage.h"

namespace eevdf::runner {

using A = model::KernelArith;

void CoverageProbe::before_event(const trace::Event& e) {
  io_sleep_ = e.verb == trace::Verb::sleep && e.io != trace::Io::none;
  if (e.verb != trace::Verb::wake || !e.cpu || e.task == 0) return;
  const auto& m = env_.m;
  const auto& t = m.tasks().at(static_cast<std::size_t>(m.task_index(e.task)));
  if (m.state_of(t) == model::task_state::blocked && t.cpu != *e.cpu) hit(Probe::wakeup_migration);
}

void CoverageProbe::delay_entered(const model::cfs_rq<A>&, const entity&, unsigned) {
  hit(Probe::delayed_entry);
  if (io_sleep_) hit(Probe::io_sleep_hidden_by_delay);
}

void CoverageProbe::delay_left(const model::cfs_rq<A>&, const entity&, model::delay_exit how) {
  switch (how) {
    case model::delay_exit::by_pick: hit(Probe::delay_done_by_pick); return;
    case model::delay_exit::by_wake: hit(Probe::delay_done_by_wake); return;
    case model::delay_exit::by_force: return;  // no trace verb forces a delayed dequeue (§10)
    case model::delay_exit::by_wakeup_pick: return;  // the model's wakeup check never completes one
  }
}

void CoverageProbe::wakeup_pick_step(const model::rq<A>&, const entity&, const entity&, bool short_) {
  if (short_) hit(Probe::preempt_short_wakeup);
}

void CoverageProbe::wakeup_decided(const model::rq<A>&, const entity&, bool preempted) {
  if (preempted) hit(Probe::wakeup_preemption);
}

void CoverageProbe::charged(const model::cfs_rq<A>& c, const entity&, std::uint64_t, bool renewed, bool resched) {
  if (renewed) hit(Probe::deadline_renewal);
  // resched only counts with company (model/observer.h): alone, nothing is protected from.
  if (resched && !renewed && c.nr_queued > 1) hit(Probe::protection_expiry);
}

void CoverageProbe::lag_stored(const model::cfs_rq<A>&, const entity&, const value& raw, const value& limit,
                               const value&) {
  if (raw > limit || raw < -limit) hit(Probe::lag_clamp_hit);
}

void CoverageProbe::block_completed(const model::rq<A>&, const model::task_struct<A>& p) {
  if (p.in_iowait) hit(Probe::io_sleep_counted);
}

void CoverageProbe::picked(const model::rq<A>&, const entity* se, bool buddy) {
  if (se != nullptr && buddy) hit(Probe::buddy_pick);
}

}  // namespace eevdf::runner
