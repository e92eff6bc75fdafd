// docs/PROPERTIES.md, iowait: iowait_accounting (pass/fail) and iowait_visibility (a
// measure). The expected counts are kept here from the trace and the block
// completions, independently of the model's counters (§13.1 I1-I4, §13.2).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <vector>
#include <string>

#include "properties/property.h"

namespace eevdf::properties {

template <class A, class P = model::profile_6_18>
class IowaitAccounting final : public Property<A, P> {
 public:
  explicit IowaitAccounting(Env<A, P>& env) : Property<A, P>(env), expected_(env.m.rqs().size()) {}
  std::string_view name() const override { return "iowait_accounting"; }

  // __block_task counts an io sleeper on the runqueue where its sleep completes.
  void block_completed(const model::rq<A>& rq, const model::task_struct<A>& p) override {
    if (!p.in_iowait) return;
    const auto t = static_cast<std::size_t>(p.se.task);
    if (counted_.size() <= t) counted_.resize(t + 1);
    counted_[t] = {rq.cpu, p.in_iowait_acct};
    Count& c = expected(rq.cpu);
    c.iowait++;
    if (p.in_iowait_acct) c.acct++;
  }

  // A wake of a counted sleeper drops the count where it was taken, whatever CPU
  // it wakes on.
  void before_event(const trace::Event& e) override {
    if (e.verb != trace::Verb::wake) return;
    const auto t = static_cast<std::size_t>(this->env_.task_index(e.task));
    if (t >= counted_.size() || counted_[t].cpu < 0) return;
    Count& c = expected(counted_[t].cpu);
    c.iowait--;
    if (counted_[t].accounted) c.acct--;
    extra_check_ = counted_[t].cpu;
    counted_[t] = {};
  }

  void after_event_on(const trace::Event&, const TouchedCpu<A>& at) override { check(at.cpu, at.rq); }
  void after_event(const trace::Event&) override {
    const auto& t = this->env_.touched;
    if (extra_check_ >= 0 && std::find(t.begin(), t.end(), extra_check_) == t.end())
      check(extra_check_, this->env_.m.rqs().at(static_cast<std::size_t>(extra_check_)));
    extra_check_ = -1;
  }

 private:
  void check(int cpu, const model::rq<A>& rq) {
    this->judged();
    const auto [iowait, acct] = expected(cpu);
    if (rq.nr_iowait != iowait || rq.nr_iowait_acct != acct || rq.nr_iowait < 0 || rq.nr_iowait_acct > rq.nr_iowait)
      this->fail(
          cpu, 0,
          [&] {
            return fmt::format("nr_iowait={} nr_iowait_acct={}; completed io sleeps here: {} ({} accounted)",
                               rq.nr_iowait, rq.nr_iowait_acct, iowait, acct);
          },
          "nr_iowait counts the io sleepers whose block completed on this CPU, until they wake");
  }

  struct Sleeper {
    int cpu = -1;  // where its sleep completed, -1: not counted
    bool accounted = false;
  };
  struct Count {
    std::int64_t iowait = 0, acct = 0;
  };
  Count& expected(int cpu) {
    return expected_[static_cast<std::size_t>(cpu)];  // sized by the CPUs
  }
  std::vector<Sleeper> counted_;  // per task index
  std::vector<Count> expected_;   // per CPU
  int extra_check_ = -1;
};

// A measure: the time-integral (ns x tasks) of io sleepers that no nr_iowait counts.
// With DELAY_DEQUEUE an ineligible io sleeper is delayed, so it is counted only when
// its dequeue completes at a later pick, or never (docs/INJECTIONS.md, Findings).
template <class A, class P = model::profile_6_18>
class IowaitVisibility final : public Property<A, P> {
 public:
  using Property<A, P>::Property;
  std::string_view name() const override { return "iowait_visibility"; }

  void before_event(const trace::Event& e) override {
    this->judged();  // the measure's integral advances at every event
    integral_ += static_cast<model::u128>(e.time_ns - last_) * uncounted();
    last_ = e.time_ns;
    const auto& m = this->env_.m;
    int index = e.task != 0 ? this->env_.task_index(e.task) : -1;
    if (e.task == 0 && e.cpu && e.verb == trace::Verb::sleep) {
      const auto* curr = m.rqs().at(static_cast<std::size_t>(*e.cpu)).curr;
      index = curr != nullptr ? curr->se.task : -1;
    }
    if (index < 0) return;
    if (e.verb == trace::Verb::sleep && e.io != trace::Io::none) {
      leave(index);
      at(index) = kUncounted;
      ++sleeping_;
    }
    if (e.verb == trace::Verb::wake || e.verb == trace::Verb::exit) leave(index);
  }

  void block_completed(const model::rq<A>&, const model::task_struct<A>& p) override {
    if (p.in_iowait && at(p.se.task) == kUncounted) {
      at(p.se.task) = kCounted;
      ++counted_;
    }
  }

  bool measure(std::string& numerator, std::string& denominator) const override {
    numerator = to_decimal(integral_);
    denominator = "1";
    return true;
  }

 private:
  static constexpr char kAwake = 0, kUncounted = 1, kCounted = 2;
  char& at(int task) {
    const auto t = static_cast<std::size_t>(task);
    if (state_.size() <= t) state_.resize(t + 1, kAwake);
    return state_[t];
  }
  void leave(int task) {
    char& s = at(task);
    if (s == kAwake) return;
    if (s == kCounted) --counted_;
    --sleeping_;
    s = kAwake;
  }
  std::uint64_t uncounted() const { return sleeping_ - counted_; }
  static std::string to_decimal(model::u128 v) {
    std::string s;
    do {
      s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
      v /= 10;
    } while (v != 0);
    return s;
  }

  std::vector<char> state_;       // per task index: awake, an uncounted or a counted io sleeper
  std::uint64_t sleeping_ = 0;    // io sleepers
  std::uint64_t counted_ = 0;     // how many of them are counted
  std::uint64_t last_ = 0;
  model::u128 integral_ = 0;
};

}  // namespace eevdf::properties
