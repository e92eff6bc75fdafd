// Allocation-free walks over a runqueue's queued entities Q (the tree and an on_rq
// curr), and the facts the checks share: counted once per runqueue per hook or event
// instead of once per property (docs/PROPERTIES.md: a checked replay costs at most
// 3x a plain one). The facts are recounts, patched at queue moves and value
// changes and checked against a walk of the queue (Env::facts); each property
// still judges alone.
#pragma once

#include <array>        // the logged tree entries
#include <cstddef>      // ptrdiff_t
#include <cstdint>      // weights
#include <type_traits>  // the arithmetic
#include <vector>   // per-CPU cache

#include "base/assert.h"
#include "model/arith_kernel.h"
#include "model/observer.h"
#include "model/task.h"

namespace eevdf::properties {

// Calls f(se) for every entity of Q: the tree in deadline order, then curr.
template <class A, class F>
void for_each_queued(const model::cfs_rq<A>& cfs, F&& f) {
  for (const auto* se : cfs.timeline) f(*se);
  if (cfs.curr != nullptr && cfs.curr->on_rq) f(*cfs.curr);
}

inline std::uint64_t scaled_down(std::uint64_t full) { return full == 0 ? 0 : (full >> 10 < 2 ? 2 : full >> 10); }

// d * w exactly. In the kernel arithmetic one 64 x 64-bit product when d fits in
// s64, as every difference of two virtual times of one queue does short of an
// overflow (a 128 x 128-bit product is three); else the full product.
template <class A>
typename A::value times_weight(const typename A::value& d, std::uint64_t w) {
  using V = typename A::value;
  if constexpr (std::is_same_v<V, model::s128>) {
    if (model::KernelArith::fits_s64(d) && w <= INT64_MAX) return V(static_cast<std::int64_t>(d)) * V(static_cast<std::int64_t>(w));
  }
  return d * V(w);
}

// Σ w_i (v_i - v0) and Σ w_i over Q, once, for several eligibility tests.
template <class A>
struct QueueSums {
  typename A::value keys{};
  typename A::value weights{};
  typename A::value v0{};
  std::uint64_t weight_sum = 0;  // weights as an integer, for times_weight

  QueueSums() = default;
  explicit QueueSums(const model::cfs_rq<A>& cfs) : v0(cfs.min_vruntime) {
    for_each_queued(cfs, [&](const model::sched_entity<A>& se) {
      const std::uint64_t w = scaled_down(se.load.weight);
      keys += times_weight<A>(se.vruntime - v0, w);
      weights += typename A::value(w);
      weight_sum += w;
    });
  }
  // §4.2: eligible iff W * (v - v0) <= S (lag >= 0 against the exact mean).
  bool eligible(const typename A::value& vruntime) const { return times_weight<A>(vruntime - v0, weight_sum) <= keys; }
  bool operator==(const QueueSums& o) const {
    return keys == o.keys && weights == o.weights && v0 == o.v0 && weight_sum == o.weight_sum;
  }
};

// A recount of one runqueue: one walk of Q, tree first (deadline order), then curr.
// Between two recounts a move of an entity in or out of the tree or curr
// (model::queue_move), or a change of one entity's values or of v0, may be applied
// as a patch by this code, keeping the recount's order (Env::facts says when, and
// checks every patched recount against a fresh one once per event).
template <class A>
struct QueueFacts {
  using entity = model::sched_entity<A>;
  using value = typename A::value;
  // What one entity of Q counted: the values read from it, kept so that a patch can
  // take it out again and the slice extremes can be found without the entities.
  // 48 bytes, in the order that packs them: the checks walk the members of each
  // touched runqueue several times per event, so fewer cache lines per member count.
  struct Member {
    const entity* se = nullptr;
    int task = -1;                    // se->task, fixed for an entity: a walk over the
                                      // members reaches the task without the entity
    bool custom_slice = false;
    bool delayed = false;
    bool in_tree = false;             // else the on_rq curr
    value vruntime{};
    std::uint64_t full_weight = 0;
    std::uint64_t slice = 0;
    std::uint64_t weight() const { return scaled_down(full_weight); }  // scaled down
    bool operator==(const Member&) const = default;
  };
  static_assert(!std::is_same_v<value, model::s128> || sizeof(Member) == 48, "a member fills 48 bytes");

  QueueSums<A> q;                     // over Q
  value tree_keys{};                  // Σ w (v - v0) over the tree only (curr excluded)
  std::uint64_t tree_weights = 0;
  std::uint64_t q_weights = 0;        // Σ scaled-down weights over Q
  std::uint64_t full_weight = 0;      // Σ full weights over Q
  unsigned queued = 0;                // |Q|
  unsigned delayed = 0;               // delayed entities in Q
  std::uint64_t custom_slice_min = ~std::uint64_t{0};  // over custom slices in Q
  std::uint64_t custom_slice_max = 0;
  unsigned absurd_slices = 0;         // slices of 0 or U64_MAX in Q
  // Q's members in the recount's order (the tree in deadline order, then curr), for
  // the checks that walk Q again at the same hook: a vector instead of the tree.
  std::vector<Member> members;
  // The two smallest slices of Q and the entity of the smallest (min_slice_except).
  std::uint64_t slice_min = ~std::uint64_t{0}, slice_second = ~std::uint64_t{0};
  const entity* slice_min_entity = nullptr;  // null while two or more share slice_min
  unsigned at_slice_min = 0;                 // members whose slice is slice_min
  // Tree members whose entity is also the counted curr: put_prev_entity returns prev
  // to the tree before it clears curr (§7.3), and a patch may land between the two.
  unsigned curr_twice = 0;
  // Tree entries: a member counted into the tree, or read again there, is an entry.
  // `entered` counts them and never goes back; the last kLoggedEntries are kept.
  // From entered = n on, the tree's members are members of the tree at n, read as
  // they were then, or the entries after n: a bound over the tree that no leave can
  // raise follows the tree by those entries alone (lag_bound's walk-free check),
  // while entries_since(n) has them all. A recount's tree comes without entries: it
  // raises entries_floor. An epoch, not a count: same_as ignores both.
  struct TreeEntry {
    value vruntime{};
    std::uint64_t weight = 0;  // scaled down
    bool delayed = false;
  };
  static constexpr std::size_t kLoggedEntries = 8;
  std::uint64_t entered = 0;
  std::uint64_t entries_floor = 0;
  std::array<TreeEntry, kLoggedEntries> entries{};  // entry i at i % kLoggedEntries

  // f(entry) for each entry after the first n, oldest first; false (and no call)
  // when some of them are no longer known.
  template <class F>
  bool entries_since(std::uint64_t n, F&& f) const {
    if (n < entries_floor || n > entered || entered - n > kLoggedEntries) return false;
    for (std::uint64_t i = n; i < entered; ++i) f(entries[i % kLoggedEntries]);
    return true;
  }

  // One pass over the tree, then curr: everything the checks recount.
  // Flattened: the hot loop of the checker; the compiler otherwise inlines the
  // walk differently as more instantiations share it.
  [[gnu::flatten]] void recount(const model::cfs_rq<A>& cfs) {
    clear(cfs.min_vruntime);
    for (const auto* se : cfs.timeline) insert(members.size(), *se, true);
    if (cfs.curr != nullptr && cfs.curr->on_rq) insert(members.size(), *cfs.curr, false);
    entries_floor = entered;
  }

  // §3.3 the model moved `se` (model::queue_move) and changed nothing else since this
  // recount: Q as for_each_queued sees it gains or loses that one entity.
  void patch(const entity& se, model::queue_move how) {
    switch (how) {
      case model::queue_move::into_tree: insert(tree_position(se), se, true); break;
      case model::queue_move::out_of_tree: drop(se, true); break;
      case model::queue_move::became_curr:
        if (se.on_rq) insert(members.size(), se, false);
        break;
      case model::queue_move::left_curr:
        if (se.on_rq) drop(se, false);
        break;
    }
  }

  // §3.3, §4.3 the model changed `se`'s own values, or with se == nullptr v0, and
  // nothing else since this recount (model::Observer::queue_changed): se is read
  // again where it is counted (an on_rq flip of curr counts it in or out; the tree
  // keeps its members until a queue move), or the sums are re-based on the new v0.
  void patch(const model::cfs_rq<A>& cfs, const entity* se) {
    if (se == nullptr) {
      rebase(cfs.min_vruntime);
      return;
    }
    const bool counts_as_curr = se == cfs.curr && se->on_rq;
    // The usual change: update_curr moved curr's vruntime. curr is counted last,
    // and only there unless it is also a tree member (curr_twice), so no search.
    if (counts_as_curr && curr_twice == 0 && counts_curr(*se)) {
      reread(members.size() - 1);
      return;
    }
    bool counted_as_curr = false;
    // Backwards, so that a drop only moves members already seen (curr, the usual
    // one, comes first).
    for (std::size_t i = members.size(); i-- > 0;) {
      if (members[i].se != se) continue;
      if (members[i].in_tree || counts_as_curr) {
        counted_as_curr = counted_as_curr || !members[i].in_tree;
        reread(i);
      } else {
        drop_at(i);  // curr left Q (on_rq cleared)
      }
    }
    if (counts_as_curr && !counted_as_curr) insert(members.size(), *se, false);  // curr joined Q
  }

  // The same counts and the same members in the same order: what a patch must give.
  // The entity of the smallest slice may differ among equal slices; min_slice_except
  // returns the same either way.
  bool same_as(const QueueFacts& o) const { return same_counts(o) && members == o.members; }
  // Whether the members still read as Q's entities: each member read again from its
  // own entity, and as many tree members as the tree holds, then curr if on_rq. A
  // change of a value that no hook marked shows here. Which entities the tree holds
  // is taken from the hooks, not walked: it changes only in enqueue/dequeue_entity's
  // tree steps, each followed by its queue_moved; a recount walks the tree (at every
  // change no patch follows, at every reuse in EEVDF_VALIDATE_CACHES builds, and for
  // every CPU at the end of a trace: Env::verify_walk).
  [[gnu::flatten]] bool reads_as_queue(const model::cfs_rq<A>& cfs) const {
    const bool curr_counted = cfs.curr != nullptr && cfs.curr->on_rq;
    const std::size_t in_tree = cfs.timeline.size();
    if (members.size() != in_tree + (curr_counted ? 1 : 0)) return false;
    if (curr_counted && members.back().se != cfs.curr) return false;
    // Every member's test gathered, one branch at the end: no branch per member in
    // the walk that runs on every patched queue of every event.
    bool differs = false;
    for (std::size_t i = 0; i < in_tree; ++i) differs |= !reads_as(members[i], true);
    if (curr_counted) differs |= !reads_as(members.back(), false);
    return !differs;
  }
  // Whether a recount of cfs now would give these facts: one is built (the debug
  // builds' and the tests' check, with the tree walked).
  bool matches_recount(const model::cfs_rq<A>& cfs) const {
    QueueFacts fresh;
    fresh.recount(cfs);
    return same_as(fresh);
  }
  // Whether `se` is counted as a member of the tree: a scan of the members'
  // pointers, where the tree's own lookup compares deadlines along a path of entities.
  bool tree_holds(const entity& se) const {
    for (const Member& m : members)
      if (m.se == &se && m.in_tree) return true;
    return false;
  }
  // The smallest slice of Q without `except` (nullptr: of all Q).
  std::uint64_t min_slice_except(const model::sched_entity<A>* except) const {
    return except != nullptr && except == slice_min_entity ? slice_second : slice_min;
  }
  // V as the kernel defines it (§4.1): v0 + floor(S/W), exact in the ideal arithmetic.
  value avg_vruntime() const {
    if (q.weights == 0) return q.v0;
    if constexpr (std::is_same_v<value, typename model::KernelArith::value>) {
      return q.v0 + floor_div(q.keys, q_weights);
    } else {
      return q.v0 + q.keys / q.weights;
    }
  }
  // floor(n / d) for d > 0: one 64-bit division when n fits (the common case; a
  // 128-bit one costs several times more), else one 128-bit division.
  static value floor_div(const value& n, std::uint64_t d) {
    if (model::KernelArith::fits_s64(n)) {
      const auto narrow = static_cast<std::int64_t>(n);
      if (narrow >= 0) return value(static_cast<std::uint64_t>(narrow) / d);
      const std::uint64_t magnitude = 0 - static_cast<std::uint64_t>(narrow);
      return -value(magnitude / d + (magnitude % d != 0 ? 1 : 0));
    }
    const value quotient = n / value(d);
    return quotient * value(d) != n && n < 0 ? quotient - 1 : quotient;
  }
  // w (v - v0) of one member.
  value key_weight(const Member& m) const { return times_weight<A>(m.vruntime - q.v0, m.weight()); }
  // |d| * w exactly, with one 64 x 64-bit product when |d| fits in 64 bits (the
  // distance of two virtual times of one queue always does short of an overflow).
  static value magnitude_times(const value& d, std::uint64_t w) {
    if (model::KernelArith::fits_s64(d)) [[likely]] {
      const auto narrow = static_cast<std::int64_t>(d);
      const std::uint64_t abs = narrow < 0 ? 0 - static_cast<std::uint64_t>(narrow) : static_cast<std::uint64_t>(narrow);
      return value(static_cast<model::u128>(abs) * w);
    }
    return wide_magnitude_times(d, w);
  }

 private:
  // magnitude_times beyond 64 bits, out of line so that the common case stays a
  // branch and one product.
  [[gnu::noinline]] static value wide_magnitude_times(const value& d, std::uint64_t w) {
    return (d < 0 ? -d : d) * value(w);
  }
  bool same_counts(const QueueFacts& o) const {
    return q == o.q && tree_keys == o.tree_keys && tree_weights == o.tree_weights && q_weights == o.q_weights &&
           full_weight == o.full_weight && queued == o.queued && delayed == o.delayed &&
           custom_slice_min == o.custom_slice_min && custom_slice_max == o.custom_slice_max &&
           absurd_slices == o.absurd_slices && slice_min == o.slice_min && slice_second == o.slice_second &&
           at_slice_min == o.at_slice_min && curr_twice == o.curr_twice;
  }
  void clear(const value& v0) {
    q = QueueSums<A>();
    q.v0 = v0;
    tree_keys = {};
    tree_weights = q_weights = full_weight = 0;
    queued = delayed = absurd_slices = curr_twice = 0;
    members.clear();
    slice_extremes();
  }
  // read(*m.se, in_tree) == m, without building the member (the scaled weight
  // follows from the full one); one test instead of a branch per field: the
  // verification's inner loop.
  static bool reads_as(const Member& m, bool in_tree) {
    const entity& se = *m.se;
    const bool differs = (se.vruntime != m.vruntime) | (se.load.weight != m.full_weight) |
                         (se.slice != m.slice) | (se.custom_slice != m.custom_slice) |
                         (se.sched_delayed != m.delayed) | (in_tree != m.in_tree);
    return !differs;
  }
  static Member read(const entity& se, bool in_tree) {
    return Member{&se, se.task, se.custom_slice, se.sched_delayed, in_tree, se.vruntime, se.load.weight, se.slice};
  }
  // Where the tree (members before curr, in (deadline, insertion) order as the
  // model's tree compares, cfs_rq::by_deadline) takes `se`.
  std::size_t tree_position(const entity& se) const {
    std::size_t i = 0;
    while (i < members.size() && members[i].in_tree &&
           (members[i].se->tree_deadline < se.tree_deadline ||
            (members[i].se->tree_deadline == se.tree_deadline && members[i].se->tree_seq < se.tree_seq)))
      ++i;
    return i;
  }
  // Whether the last member is curr's (curr is counted after the tree) and it is se's.
  bool counts_curr(const entity& se) const {
    return !members.empty() && !members.back().in_tree && members.back().se == &se;
  }
  // Counts `se` in at position `at`: its values are read once, into its member.
  void insert(std::size_t at, const entity& se, bool in_tree) {
    const Member m = read(se, in_tree);
    if (in_tree) {
      enter(m);
      if (counts_curr(se)) ++curr_twice;
    }
    if (at == members.size()) {
      members.push_back(m);
    } else {
      members.insert(members.begin() + static_cast<std::ptrdiff_t>(at), m);
    }
    if (!in_tree) {  // curr joins after the tree: is it a tree member too?
      curr_twice = 0;
      for (std::size_t i = 0; i + 1 < members.size(); ++i) curr_twice += members[i].se == &se ? 1u : 0u;
    }
    count(m, 1);
    extend_slices(m);
  }
  void drop(const entity& se, bool in_tree) {
    if (!in_tree && !members.empty() && members.back().se == &se && !members.back().in_tree) {
      drop_at(members.size() - 1);  // curr, counted last: no search
      return;
    }
    std::size_t i = 0;
    while (i < members.size() && !(members[i].se == &se && members[i].in_tree == in_tree)) ++i;
    EEVDF_ASSERT(i < members.size(), "a queue move patch drops an entity the recount did not count");
    drop_at(i);
  }
  void drop_at(std::size_t i) {
    const Member m = members[i];
    if (!m.in_tree) {
      curr_twice = 0;
    } else if (counts_curr(*m.se)) {
      --curr_twice;
    }
    count(m, -1);
    members.erase(members.begin() + static_cast<std::ptrdiff_t>(i));
    if (!forget_slice(m)) find_slice_extremes();
  }
  // Member i read again from its entity, in place.
  void reread(std::size_t i) {
    const Member old = members[i];
    const entity& se = *old.se;
    if (se.load.weight == old.full_weight && se.slice == old.slice && se.custom_slice == old.custom_slice &&
        se.sched_delayed == old.delayed) {  // at most vruntime moved (update_curr, the common case)
      const value shift = times_weight<A>(se.vruntime - old.vruntime, old.weight());
      q.keys += shift;
      members[i].vruntime = se.vruntime;
      if (old.in_tree) {
        tree_keys += shift;
        enter(members[i]);
      }
      return;
    }
    const Member now = read(se, old.in_tree);
    count(old, -1);
    members[i] = now;
    count(now, 1);
    if (now.in_tree) enter(now);
    if (now.slice != old.slice || now.custom_slice != old.custom_slice) {
      if (forget_slice(old)) {
        extend_slices(now);
      } else {
        find_slice_extremes();
      }
    }
  }
  // Logs a tree member's values as it enters (or is read again).
  void enter(const Member& m) {
    entries[entered % kLoggedEntries] = TreeEntry{m.vruntime, m.weight(), m.delayed};
    ++entered;
  }
  // Adds (sign 1) or takes out (-1) one member's share of the sums and counts.
  void count(const Member& m, int sign) {
    const value kw = key_weight(m);
    const unsigned absurd = m.slice == 0 || m.slice == ~std::uint64_t{0} ? 1 : 0;
    if (sign > 0) {
      q.keys += kw;
      q_weights += m.weight();
      if (m.in_tree) {
        tree_keys += kw;
        tree_weights += m.weight();
      }
      full_weight += m.full_weight;
      ++queued;
      delayed += m.delayed ? 1 : 0;
      absurd_slices += absurd;
    } else {
      q.keys -= kw;
      q_weights -= m.weight();
      if (m.in_tree) {
        tree_keys -= kw;
        tree_weights -= m.weight();
      }
      full_weight -= m.full_weight;
      --queued;
      delayed -= m.delayed ? 1 : 0;
      absurd_slices -= absurd;
    }
    q.weights = value(q_weights);
    q.weight_sum = q_weights;
  }
  // Every key w (v - v0) on a new v0: exact, S' = S - W (v0' - v0).
  void rebase(const value& v0) {
    const value shift = v0 - q.v0;
    q.keys -= times_weight<A>(shift, q_weights);
    tree_keys -= times_weight<A>(shift, tree_weights);
    q.v0 = v0;
  }
  // Takes m's slice out of the extremes, or returns false when they must be found
  // again: an extreme cannot be taken out, except one of three or more members at
  // the minimum (the two smallest stay the minimum; the usual case, one base slice).
  bool forget_slice(const Member& m) {
    if (m.custom_slice && (m.slice == custom_slice_min || m.slice == custom_slice_max)) return false;
    if (m.slice > slice_second) return true;
    if (m.slice != slice_min || at_slice_min < 3) return false;
    --at_slice_min;
    if (slice_min_entity == m.se) slice_min_entity = nullptr;  // either answer of min_slice_except is slice_min
    return true;
  }
  void find_slice_extremes() {
    slice_extremes();
    for (const Member& kept : members) extend_slices(kept);
  }
  void slice_extremes() {
    custom_slice_min = ~std::uint64_t{0};
    custom_slice_max = 0;
    slice_min = slice_second = ~std::uint64_t{0};
    slice_min_entity = nullptr;
    at_slice_min = 0;
  }
  void extend_slices(const Member& m) {
    if (m.custom_slice) {
      custom_slice_min = m.slice < custom_slice_min ? m.slice : custom_slice_min;
      custom_slice_max = m.slice > custom_slice_max ? m.slice : custom_slice_max;
    }
    if (m.slice < slice_min) {
      slice_second = slice_min;
      slice_min = m.slice;
      slice_min_entity = m.se;
      at_slice_min = 1;
    } else {
      if (m.slice == slice_min) ++at_slice_min;
      if (m.slice < slice_second) slice_second = m.slice;
    }
  }
};

}  // namespace eevdf::properties
