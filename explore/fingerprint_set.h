// The visited set: 64-bit fingerprints in an open-addressed table (linear probing,
// grown at half full). Two distinct states share a fingerprint with probability
// about n^2 / 2^65 over n states (collision_probability), as SPIN and TLC report it.
#pragma once

#include <cstdint>  // fingerprints
#include <vector>   // the table

namespace eevdf::explore {

class FingerprintSet {
 public:
  FingerprintSet() : slots_(1024, 0) {}
  // True when `fp` (never 0) was not in the set.
  bool insert(std::uint64_t fp) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    if (!place(slots_, fp)) return false;
    ++size_;
    return true;
  }
  bool contains(std::uint64_t fp) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = fp & mask;; i = (i + 1) & mask) {
      if (slots_[i] == fp) return true;
      if (slots_[i] == 0) return false;
    }
  }
  std::uint64_t size() const { return size_; }
  std::uint64_t bytes() const { return slots_.size() * sizeof(std::uint64_t); }
  // The probability that two of the states stored share a fingerprint: n(n-1)/2 pairs,
  // each equal with probability 2^-64.
  double collision_probability() const {
    const double n = static_cast<double>(size_);
    return n * (n - 1) / 2 / 18446744073709551616.0;
  }

 private:
  static bool place(std::vector<std::uint64_t>& slots, std::uint64_t fp) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = fp & mask;; i = (i + 1) & mask) {
      if (slots[i] == fp) return false;
      if (slots[i] == 0) {
        slots[i] = fp;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> bigger(slots_.size() * 2, 0);
    for (const std::uint64_t fp : slots_)
      if (fp != 0) place(bigger, fp);
    slots_.swap(bigger);
  }
  std::vector<std::uint64_t> slots_;
  std::uint64_t size_ = 0;
};

// The nodes of one depth by fingerprint (partial-order reduction's revisits): pairs
// in an open-addressed table, as compact as the visited set.
class NodeIndex {
 public:
  NodeIndex() : slots_(1024) {}
  void add(std::uint64_t fp, std::uint32_t node) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    Slot& s = probe(slots_, fp);
    if (s.fp == fp) return;
    s = {fp, node};
    ++size_;
  }
  // The node recorded for `fp`, or -1.
  std::int64_t find(std::uint64_t fp) {
    const Slot& s = probe(slots_, fp);
    return s.fp == fp ? std::int64_t{s.node} : -1;
  }
  std::uint64_t bytes() const { return slots_.size() * sizeof(Slot); }

 private:
  struct Slot {
    std::uint64_t fp = 0;  // 0: empty
    std::uint32_t node = 0;
  };
  static Slot& probe(std::vector<Slot>& slots, std::uint64_t fp) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = fp & mask;; i = (i + 1) & mask)
      if (slots[i].fp == fp || slots[i].fp == 0) return slots[i];
  }
  void grow() {
    std::vector<Slot> bigger(slots_.size() * 2);
    for (const Slot& s : slots_)
      if (s.fp != 0) probe(bigger, s.fp) = s;
    slots_.swap(bigger);
  }
  std::vector<Slot> slots_;
  std::uint64_t size_ = 0;
};

}  // namespace eevdf::explore
