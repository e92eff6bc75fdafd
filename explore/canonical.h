// A state's fingerprint (docs/EXPLORE.md "States"): the model's state with virtual
// times relative to each runqueue's v0 and times relative to now, the fields the
// model never reads again left out, exited tasks dropped; under symmetry, task
// identities erased within a class of equal declarations and the CPUs ordered by
// their contents, so that permuted states share one fingerprint.
#pragma once

#include <algorithm>  // sort
#include <cstdint>    // words
#include <vector>     // classes

#include "model/arith_kernel.h"
#include "model/machine.h"

namespace eevdf::explore {

// Chained 64-bit mixing: each word folded in by a 64x64->128-bit multiply whose
// halves are xored (wyhash's "mum"), the result finished by the murmur3 finalizer.
class Hash {
 public:
  void add(std::uint64_t w) {
    const auto p = static_cast<model::u128>(h_ ^ w ^ 0xA0761D6478BD642Full) * 0xE7037ED1A0B428DBull;
    h_ = static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
  }
  std::uint64_t value() const {
    std::uint64_t h = h_;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h == 0 ? 1 : h;  // 0 marks an empty slot
  }

 private:
  std::uint64_t h_ = 0x243F6A8885A308D3ull;
};

template <class P>
class Canonical {
 public:
  using M = model::Machine<model::KernelArith, P>;

  // Tasks are interchangeable when their declarations are equal (nice, slice, cpu=);
  // CPUs when no task names one.
  Canonical(const std::vector<model::TaskSpec>& specs, bool symmetry);

  // The state's fingerprint: canonical under symmetry, else with every task and CPU
  // in its place. Each CPU's contents hash to one word that names no task (under
  // symmetry); the words, sorted when CPUs are interchangeable, hash to the state's.
  std::uint64_t fingerprint(const M& m, bool symmetric) const;
  bool symmetric_tasks() const { return task_symmetry_; }
  bool symmetric_cpus() const { return cpu_symmetry_; }

 private:
  std::uint64_t task_record(const M& m, int i, bool identity) const;
  std::uint64_t cpu_contents(const M& m, int cpu, bool identity) const;

  std::vector<int> class_of_;  // per task: the index of the first task declared alike
  bool task_symmetry_ = false;
  bool cpu_symmetry_ = false;
};

}  // namespace eevdf::explore
