// A state's fingerprint (docs/EXPLORE.md "States"): the model's state with virtual
// times relative to each runqueue's v0 and times relative to now, the fields the
// model never reads again left out, exited tasks dropped; under symmetry, task
// identities erased within a class of equal declarations and the CPUs ordered by
// their contents, so that permuted states share one fingerprint.
#pragma once

#include <algorithm>  // sort
#include <cstdint>    // words
#include <vector>     // records

#include "model/arith_kernel.h"
#include "model/machine.h"

namespace eevdf::explore {

// Chained 64-bit mixing (the murmur3 finalizer, a bijection, after each word).
class Hash {
 public:
  void add(std::uint64_t w) {
    h_ ^= w + 0x9E3779B97F4A7C15ull + (h_ << 6) + (h_ >> 2);
    h_ ^= h_ >> 33;
    h_ *= 0xFF51AFD7ED558CCDull;
    h_ ^= h_ >> 33;
    h_ *= 0xC4CEB9FE1A85EC53ull;
    h_ ^= h_ >> 33;
  }
  std::uint64_t value() const { return h_ == 0 ? 1 : h_; }  // 0 marks an empty slot

 private:
  std::uint64_t h_ = 0x243F6A8885A308D3ull;
};

template <class P>
class Canonical {
 public:
  using M = model::Machine<model::KernelArith, P>;
  using Words = std::vector<std::uint64_t>;

  // Tasks are interchangeable when their declarations are equal (nice, slice, cpu=);
  // CPUs when no task names one.
  Canonical(const std::vector<model::TaskSpec>& specs, bool symmetry);

  // The state's fingerprint: canonical under symmetry, else with every task and CPU
  // in its place.
  std::uint64_t fingerprint(const M& m, bool symmetric);
  bool symmetric_tasks() const { return task_symmetry_; }
  bool symmetric_cpus() const { return cpu_symmetry_; }

 private:
  void task_record(const M& m, int i, bool identity, Words& out) const;
  void cpu_signature(const M& m, int cpu, bool identity, Words& out);

  std::vector<int> class_of_;  // per task: the index of the first task declared alike
  bool task_symmetry_ = false;
  bool cpu_symmetry_ = false;
  std::vector<Words> signatures_;
  std::vector<Words> blocked_;
  std::vector<int> order_;
  Words scratch_;
};

}  // namespace eevdf::explore
