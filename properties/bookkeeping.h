// docs/PROPERTIES.md, Bookkeeping: sums_consistent, counters_consistent,
// task_conservation and no_overflow. Checked after each event on the CPUs the
// event touched (only those can have changed).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "properties/brute.h"
#include "properties/findings.h"
#include "properties/profile_forms.h"
#include "properties/property.h"
#include "properties/queue_walk.h"

namespace eevdf::properties {

// A weight as a tree whose sums keep full weights counts it there: shifted down by
// its sum_shift, at least 2, once shifted at all (Env::full_weight_sums).
inline std::uint64_t shifted_sum_weight(std::uint64_t full, unsigned shift) {
  if (shift == 0) return full;
  const std::uint64_t w = shift < 64 ? full >> shift : 0;
  return w < 2 ? 2 : w;
}

// The kept sums behind V equal a recount over the tree (in the model's weights, or
// in a tree's full weights shifted by its sum_shift: Env::full_weight_sums);
// load.weight and nr_queued equal a recount over Q; v0 moves only by its rule
// (Env::v0_rule: the profile's, Forms<P>: 6.18 forward to min(curr, tree), 6.12 to V
// inside avg_vruntime; or a tree's V0ByTreeChange, §4.3).
template <class A, class P = model::profile_6_18>
class SumsConsistent final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "sums_consistent"; }

  // Not counted here: v0 moves on a touched runqueue, whose after_event_on counts.
  void v0_moved(const model::cfs_rq<A>& cfs, const typename A::value& from, const typename A::value& to) override {
    if (heavy_placement_rebase(cfs, to)) {
      moved_.push_back(cfs.rq_->cpu);
      return;
    }
    switch (this->env_.v0_rule) {
      case V0Rule::profile: judge_move<Forms<P>>(cfs, from, to); break;
      case V0Rule::zero_in_avg_vruntime: judge_move<Forms<model::profile_6_12>>(cfs, from, to); break;
      case V0Rule::zero_by_tree_change: judge_move<V0ByTreeChange>(cfs, from, to); break;
    }
    moved_.push_back(cfs.rq_->cpu);
  }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override { check(at); }
  void after_event(const trace::Event&) override { moved_.clear(); }

 private:
  void check(const TouchedCpu<A>& at) {
    this->judged();
    const int cpu = at.cpu;
    const auto& cfs = at.rq.cfs;
    const QueueFacts<A>& f = at.facts;
    const auto keys = f.tree_keys;
    const std::uint64_t load = f.tree_weights, full = f.full_weight;
    const unsigned n = f.queued;
    const auto& kept = this->env_.full_weight_sums;
    const bool in_full = static_cast<std::size_t>(cpu) < kept.size() && kept[static_cast<std::size_t>(cpu)].kept;
    if (in_full) check_full_weight_sums(cfs, kept[static_cast<std::size_t>(cpu)]);
    const bool sums_ok = in_full || (keys == cfs.avg_vruntime && load == cfs.avg_load);
    if (!sums_ok || full != cfs.load_weight || n != cfs.nr_queued)
      this->fail(
          cpu, 0,
          [&] {
            return fmt::format("kept S={} W={} load={} nr_queued={}; recount S={} W={} load={} nr_queued={}",
                               A::to_string(cfs.avg_vruntime), cfs.avg_load, cfs.load_weight, cfs.nr_queued,
                               A::to_string(keys), load, full, n);
          },
          "the incremental sums disagree with a recount (§3.2)");
    // Only touched runqueues change, so the v0 seen when this one was last touched
    // is the v0 it had before this event.
    if (v0_last_.empty()) v0_last_.assign(this->env_.m.rqs().size(), cfs.min_vruntime);  // init_cfs_rq's v0
    auto& last = v0_last_[static_cast<std::size_t>(cpu)];
    const bool moved = std::find(moved_.begin(), moved_.end(), cpu) != moved_.end();
    if (last != cfs.min_vruntime && !moved)
      this->fail(
          cpu, 0, [&] { return fmt::format("v0 {} -> {}", A::to_string(last), A::to_string(cfs.min_vruntime)); },
          v0_where());
    last = cfs.min_vruntime;
  }

  // Σ key*w and Σ w over the tree, each full weight shifted as the tree counts it,
  // against the sums it keeps: exactly (the model's scaled-down copy of them would
  // hide a difference below 2^(10 - sum_shift)).
  void check_full_weight_sums(const model::cfs_rq<A>& cfs, const FullWeightSums& kept) {
    typename A::value keys{};
    std::uint64_t weight = 0;
    for (const auto* se : cfs.timeline) {
      const std::uint64_t w = shifted_sum_weight(se->load.weight, kept.shift);
      keys += times_weight<A>(se->vruntime - cfs.min_vruntime, w);
      weight += w;
    }
    if (keys == typename A::value(kept.sum) && weight == kept.weight) return;
    this->fail(
        cfs.rq_->cpu, 0,
        [&] {
          return fmt::format("kept S={} W={} (full weights >> sum_shift {}); recount S={} W={}", kept.sum, kept.weight,
                             kept.shift, A::to_string(keys), weight);
        },
        "the incremental sums disagree with a recount in the tree's shifted full weights (§3.2)");
  }

  // A tree whose place_entity re-bases v0 (Env::v0_at_heavy_placement): to the placed
  // entity's vruntime, when its weight exceeds the queue's (the tree and an on_rq curr,
  // without it), each weight as the tree's sums count it.
  bool heavy_placement_rebase(const model::cfs_rq<A>& cfs, const typename A::value& to) const {
    const model::sched_entity<A>* se = this->env_.v0_placing;
    if (!this->env_.v0_at_heavy_placement || se == nullptr || to != se->vruntime) return false;
    const auto& kept = this->env_.full_weight_sums;
    const std::size_t cpu = static_cast<std::size_t>(cfs.rq_->cpu);
    const auto weight = [&](const model::sched_entity<A>& e) {
      return cpu < kept.size() && kept[cpu].kept ? shifted_sum_weight(e.load.weight, kept[cpu].shift)
                                                 : brute::weight_of(e.load.weight);
    };
    std::uint64_t load = 0;
    for (const auto* e : brute::queued(cfs))
      if (e != se) load += weight(*e);
    return weight(*se) > load;
  }

  template <class Rule>
  void judge_move(const model::cfs_rq<A>& cfs, const typename A::value& from, const typename A::value& to) {
    typename A::value expected = to;
    if (Rule::v0_moves_to(cfs, from, to, expected)) return;
    this->fail(
        cfs.rq_->cpu, 0,
        [&] {
          return fmt::format("v0 {} -> {}, expected {}", A::to_string(from), A::to_string(to), A::to_string(expected));
        },
        Rule::v0_rule);
  }
  std::string_view v0_where() const {
    switch (this->env_.v0_rule) {
      case V0Rule::zero_in_avg_vruntime: return Forms<model::profile_6_12>::v0_where;
      case V0Rule::zero_by_tree_change: return V0ByTreeChange::v0_where;
      case V0Rule::profile: break;
    }
    return Forms<P>::v0_where;
  }

  std::vector<typename A::value> v0_last_;  // per CPU, as last seen
  std::vector<int> moved_;                  // CPUs whose v0 moved by its rule in this event
};

// Per CPU: nr_running counts queued tasks, delayed ones and curr included;
// nr_runnable excludes the delayed; h_nr_delayed, where a tree keeps it
// (Env::h_nr_delayed), counts them; each task's state agrees with where it is.
template <class A, class P = model::profile_6_18>
class CountersConsistent final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "counters_consistent"; }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override { check(at); }

 private:
  void check(const TouchedCpu<A>& at) {
    this->judged();
    const auto& m = this->env_.m;
    const int cpu = at.cpu;
    const auto& rq = at.rq;
    const QueueFacts<A>& f = at.facts;
    const unsigned queued = f.queued, delayed = f.delayed;
    // A member's state must say where it is: running if it is rq->curr, else
    // delayed or queued as sched_delayed says. The state (Machine::state_of) follows
    // from forked, exited, on_rq, task_cpu and rq->curr, so on its own CPU that holds
    // exactly when the task is forked, not exited and on_rq: tested on those fields
    // (the state itself is formed only for a report).
    for (const auto& member : f.members) {
      const auto& t = m.tasks()[static_cast<std::size_t>(member.task)];
      if (!t.forked || t.exited || !t.on_rq || t.cpu != cpu) [[unlikely]]
        report_member(cpu, t);
    }
    if (rq.curr != nullptr && (rq.cfs.curr != &rq.curr->se))
      this->fail(cpu, rq.curr->id, "rq->curr and cfs_rq->curr differ", "the running task is the cfs_rq's curr");
    if (rq.nr_running != queued || rq.cfs.h_nr_runnable != static_cast<int>(queued - delayed) || rq.cfs.h_nr_queued != queued)
      this->fail(
          cpu, 0,
          [&] {
            return fmt::format("nr_running={} h_nr_queued={} nr_runnable={}; recount queued={} delayed={}",
                               rq.nr_running, rq.cfs.h_nr_queued, rq.cfs.h_nr_runnable, queued, delayed);
          },
          "nr_running counts delayed tasks, nr_runnable does not (§3.2)");
    const auto& kept = this->env_.h_nr_delayed;
    const auto c = static_cast<std::size_t>(cpu);
    if (c < kept.size() && kept[c] && *kept[c] != delayed)
      this->fail(
          cpu, 0, [&] { return fmt::format("h_nr_delayed={}; recount delayed={}", *kept[c], delayed); },
          "h_nr_delayed counts the queue's delayed entities");
  }
  [[gnu::cold]] void report_member(int cpu, const model::task_struct<A>& t) {
    this->fail(
        cpu, t.id,
        [&] {
          return fmt::format("state {} on CPU {} (task_cpu {}, on_rq {})", static_cast<int>(this->env_.m.state_of(t)),
                             cpu, t.cpu, t.on_rq);
        },
        "a queued task's state and CPU must say where it is");
  }
};

// Every task that is not new, blocked or exited is on exactly one runqueue, the one
// of its CPU; no CPU runs two tasks and no task runs on two CPUs.
template <class A, class P = model::profile_6_18>
class TaskConservation final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "task_conservation"; }

  // A task can only have landed on a wrong runqueue in this event if that runqueue
  // was touched by it, so the touched runqueues and the tasks on them suffice.
  // Each touched runqueue's members are marked with this event's pass (before_event).
  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override {
    this->judged();
    const auto& m = this->env_.m;
    if (seen_pass_.size() != m.tasks().size()) seen_pass_.assign(m.tasks().size(), 0);
    const std::uint8_t pass = pass_;  // read once: the stores below may alias it
    const int cpu = at.cpu;
    const auto& rq = at.rq;
    for (const auto& member : at.facts.members) {
      const int index = member.task;
      const auto& t = m.tasks()[static_cast<std::size_t>(index)];
      if (t.cpu != cpu)
        this->fail(
            cpu, t.id, [&] { return fmt::format("queued on CPU {}, task_cpu {}", cpu, t.cpu); },
            "a queued task is on its own CPU's runqueue");
      auto& seen = seen_pass_[static_cast<std::size_t>(index)];
      if (seen == pass) this->fail(cpu, t.id, "on two runqueues", "no task is queued twice");
      seen = pass;
    }
    if (rq.curr != nullptr && rq.cfs.curr != &rq.curr->se)
      this->fail(cpu, rq.curr->id, "runs without being the cfs_rq's curr", "no CPU runs two tasks");
  }

  // Then each task that can have left a runqueue in this event.
  void after_event(const trace::Event&) override {
    const auto& m = this->env_.m;
    for (const int index : involved_) {
      const auto& t = m.tasks()[static_cast<std::size_t>(index)];
      const model::task_state s = m.state_of(t);
      const bool runnable = s == model::task_state::running || s == model::task_state::queued ||
                            s == model::task_state::delayed;
      const auto& own = m.rqs()[static_cast<std::size_t>(t.cpu)].cfs;
      const bool on_own = own.curr == &t.se || this->env_.facts(t.cpu).tree_holds(t.se);
      if (runnable != on_own)
        this->fail(
            t.cpu, t.id,
            [&] { return fmt::format("state {}, on its CPU's runqueue: {}", static_cast<int>(s), on_own); },
            "a runnable task is on its CPU's runqueue; others on none");
    }
  }

  // The tasks the event names or that ran on a touched CPU before it: the only ones
  // that can have left a runqueue in this event.
  void before_event(const trace::Event& e) override {
    const auto& m = this->env_.m;
    if (++pass_ == 0) {  // 2^8 events: start the marks again rather than meet an old one
      std::fill(seen_pass_.begin(), seen_pass_.end(), 0);
      pass_ = 1;
    }
    involved_.clear();
    if (e.task != 0) involved_.push_back(this->env_.task_index(e.task));
    for (int cpu : this->env_.touched) {
      const auto* curr = m.rqs().at(static_cast<std::size_t>(cpu)).curr;
      if (curr != nullptr) involved_.push_back(curr->se.task);
    }
  }

 private:
  std::vector<int> involved_;
  // Per task: the last pass (event) it was seen queued in; 8 bits keep the table
  // small (it is read at random by the members' task indices, and a `tick all`
  // walks every busy CPU's), at the cost of a reset every 255 events.
  std::vector<std::uint8_t> seen_pass_;
  std::uint8_t pass_ = 0;
};

// Every s64 the kernel forms fits (docs/PROPERTIES.md no_overflow): the kernel
// arithmetic logs each one; a runqueue stays tainted until it empties. An overflow
// after a tick-less stretch of >= 1 s with queued entities is a known finding
// (findings.h: monotone-min-vruntime-overflow on 6.18, k612-tickless-eligibility-overflow
// on 6.12; Forms<P>), so the longest stretch is kept per CPU.
template <class A, class P = model::profile_6_18>
class NoOverflow final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "no_overflow"; }

  // A stretch ends at any event on the CPU: every one charges curr (update_curr).
  void before_event(const trace::Event& e) override {
    const auto& m = this->env_.m;
    if (last_.size() != m.rqs().size()) {
      last_.assign(m.rqs().size(), 0);
      longest_.assign(m.rqs().size(), 0);
    }
    for (int cpu : this->env_.touched) {
      const auto c = static_cast<std::size_t>(cpu);
      if (m.rqs()[c].cfs.nr_queued > 0) longest_[c] = std::max(longest_[c], e.time_ns - last_[c]);
      last_[c] = e.time_ns;
    }
  }

  void after_event_on(const trace::Event& e, const TouchedCpu<A>& at) override {
    this->judged();
    const int cpu = at.cpu;
    const auto c = static_cast<std::size_t>(cpu);
    const auto& rq = at.rq;
    for (const model::OverflowEvent& o : rq.cfs.overflow.events()) {
      Violation v{name(), this->env_.line, this->env_.now, cpu, 0,
                  fmt::format("{} = {} (longest tick-less stretch with queued entities: {} ns)", o.expression,
                              model::KernelArith::to_string(o.exact), longest_[c]),
                  "a 64-bit quantity of the kernel overflowed; the model goes on with the wrapped value", false, {}};
      if (longest_[c] >= kTicklessFindingNs) v.finding = Forms<P>::tickless_overflow;
      this->env_.sink.violation(v);
      this->env_.overflowed.insert(cpu);
    }
    if (rq.cfs.nr_queued == 0 && !this->env_.overflowed.empty()) this->env_.overflowed.erase(cpu);
    last_[c] = e.time_ns;
  }

 private:
  std::vector<std::uint64_t> last_;     // per CPU: the last event on it
  std::vector<std::uint64_t> longest_;  // per CPU: the longest gap with queued entities
};

}  // namespace eevdf::properties
