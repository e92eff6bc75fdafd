// Coverage probes (as FoundationDB's CODE_PROBE): counts of the kernel paths
// a run exercised, so a user sees what it did and did not reach. Installed as a
// property that only counts and never fails.
#pragma once

#include <array>        // the counts
#include <cstdint>      // counts
#include <string_view>  // names

#include "model/arith_kernel.h"
#include "properties/property.h"

namespace eevdf::runner {

enum class Probe : std::size_t {
  delayed_entry,            // an ineligible sleeper stayed queued (DELAY_DEQUEUE)
  delay_done_by_pick,       // its dequeue completed when a pick reached it
  delay_done_by_wake,       // it was woken while delayed
  preempt_short_wakeup,     // PREEMPT_SHORT decided for a shorter-slice wakee
  wakeup_preemption,        // a wakeup asked curr to reschedule
  protection_expiry,        // update_curr asked to resched with the deadline not renewed
  deadline_renewal,         // update_curr renewed curr's deadline
  lag_clamp_hit,            // a stored lag was clamped (|V - v| > limit)
  wakeup_migration,         // a blocked task woken on another CPU
  io_sleep_counted,         // an io sleep counted in nr_iowait (__block_task)
  io_sleep_hidden_by_delay, // an io sleep delayed, so not counted yet
  buddy_pick,               // the pick honoured a next buddy
  count_,
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Probe::count_)> kProbeNames{
    "delayed entry",    "delay completed by pick", "delay completed by wake", "PREEMPT_SHORT wakeup",
    "wakeup preemption", "protection expiry",      "deadline renewal",        "lag clamp hit",
    "wakeup migration", "io sleep counted",        "io sleep hidden by delay", "buddy pick",
};

using ProbeCounts = std::array<std::uint64_t, kProbeNames.size()>;

// The counting observer; it reads the model through the same const views as the
// properties and never reports.
class CoverageProbe final : public properties::Property<model::KernelArith> {
 public:
  using A = model::KernelArith;
  CoverageProbe(properties::Env<A>& env, ProbeCounts& counts) : Property<A>(env), counts_(&counts) {}
  CoverageProbe(const CoverageProbe&) = default;
  // A run continued from a copy (explore) counts into its own tally.
  CoverageProbe& operator=(const CoverageProbe& o) {
    Property<A>::operator=(o);
    io_sleep_ = o.io_sleep_;
    return *this;
  }
  std::string_view name() const override { return "coverage"; }

  void before_event(const trace::Event& e) override;
  void after_event(const trace::Event&) override { io_sleep_ = false; }
  void delay_entered(const model::cfs_rq<A>&, const entity&, unsigned) override;
  void delay_left(const model::cfs_rq<A>&, const entity&, model::delay_exit how) override;
  void wakeup_pick_step(const model::rq<A>&, const entity&, const entity&, bool short_) override;
  void wakeup_decided(const model::rq<A>&, const entity&, bool preempted) override;
  void charged(const model::cfs_rq<A>& c, const entity&, std::uint64_t, bool renewed, bool resched) override;
  void lag_stored(const model::cfs_rq<A>&, const entity&, const value& raw, const value& limit,
                  const value&) override;
  void block_completed(const model::rq<A>&, const model::task_struct<A>& p) override;
  void picked(const model::rq<A>&, const entity* se, bool buddy) override;

 private:
  void hit(Probe p) { ++(*counts_)[static_cast<std::size_t>(p)]; }
  ProbeCounts* counts_;
  bool io_sleep_ = false;  // the current event is `sleep ... io`
};

}  // namespace eevdf::runner
