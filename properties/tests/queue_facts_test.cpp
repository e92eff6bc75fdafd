// The shared recount of a runqueue (properties/queue_walk.h, QueueFacts) and its
// patches: each must give what a recount of the changed queue gives, and a change
// the patches did not follow must show in the check of a patched recount.
#include <catch2/catch.hpp>

#include <tuple>
#include <utility>
#include <vector>

#include "model/arith_kernel.h"
#include "properties/queue_walk.h"
#include "properties/tests/harness.h"

using eevdf::properties::testing::Harness;
using eevdf::properties::testing::kThree;
using K = eevdf::model::KernelArith;
using eevdf::model::queue_move;
using eevdf::properties::QueueFacts;

namespace {

// CPU 0's runqueue of kThree after its events, copied with its entities: the copy's
// curr and tree point at the copied entities, which a test changes by hand.
struct CopiedQueue {
  Harness<K> h{kThree, {}};
  eevdf::model::cfs_rq<K> cfs;
  std::vector<eevdf::model::task_struct<K>> tasks;
  eevdf::model::sched_entity<K>* curr = nullptr;

  CopiedQueue() {
    h.apply_until();
    cfs = h.run->machine().rqs().at(0).cfs;
    tasks = h.run->machine().tasks();
    REQUIRE(cfs.curr != nullptr);
    REQUIRE(cfs.timeline.size() == 2);
    curr = &tasks.at(static_cast<std::size_t>(cfs.curr->task)).se;
    cfs.curr = curr;
    decltype(cfs.timeline) tree;
    for (const auto* se : cfs.timeline) tree.insert(&tasks.at(static_cast<std::size_t>(se->task)).se);
    cfs.timeline = tree;
  }
  // A recount of the copy as it is now.
  QueueFacts<K> counted() const {
    QueueFacts<K> facts;
    facts.recount(cfs);
    return facts;
  }
  CopiedQueue(const CopiedQueue&) = delete;  // the copy's pointers point into tasks
  CopiedQueue& operator=(const CopiedQueue&) = delete;
};

// A recount of cfs as it is at each call, kept for the checks that read it after.
struct Recounter {
  const eevdf::model::cfs_rq<K>& cfs;
  eevdf::properties::QueueFacts<K> fresh;
  const eevdf::properties::QueueFacts<K>& operator()() {
    fresh.recount(cfs);
    return fresh;
  }
};

}  // namespace

// The shared recount's patches (QueueFacts::patch, docs/PROPERTIES.md): each queue
// move counted in or out must give what a recount of the moved queue gives, and a
// patch for a move that did not happen must not. The queue is a copy of the model's
// runqueue, moved by hand as __dequeue_entity / set_next_entity / put_prev_entity /
// __enqueue_entity would.
TEST_CASE("a patched recount equals a recount of the moved queue", "[properties][facts]") {
  Harness<K> h(kThree, {});
  h.apply_until();
  auto cfs = h.run->machine().rqs().at(0).cfs;  // a copy: the model is not touched
  REQUIRE(cfs.curr != nullptr);
  REQUIRE(cfs.timeline.size() == 2);
  QueueFacts<K> patched;
  patched.recount(cfs);
  Recounter recounted{cfs, {}};
  // put_prev_entity: curr back into the tree, then no curr.
  auto* prev = cfs.curr;
  cfs.timeline.insert(prev);
  patched.patch(*prev, queue_move::into_tree);
  CHECK(patched.same_as(recounted()));
  cfs.curr = nullptr;
  patched.patch(*prev, queue_move::left_curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 3);
  // set_next_entity of the leftmost: out of the tree, then curr.
  auto* next = *cfs.timeline.begin();
  cfs.timeline.erase(cfs.timeline.begin());
  patched.patch(*next, queue_move::out_of_tree);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 2);
  CHECK(patched.min_slice_except(next) == recounted.fresh.min_slice_except(next));
  cfs.curr = next;
  patched.patch(*next, queue_move::became_curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.avg_vruntime() == recounted.fresh.avg_vruntime());
  // A move that did not happen: the patched counts disagree with the queue.
  QueueFacts<K> wrong = patched;
  wrong.patch(*prev, queue_move::became_curr);
  CHECK_FALSE(wrong.same_as(recounted()));
}

// QueueFacts' tree entries, what lag_bound's walk-free check follows the tree by:
// each tree member counted in or read again is one entry, with the values it now
// has; a leave, curr's charge, v0 and curr's own moves are none; a recount's tree
// comes without entries, and entries no longer kept are not offered.
TEST_CASE("a recount logs each tree entry with its values, and only those", "[properties][facts]") {
  CopiedQueue copy;
  QueueFacts<K> facts = copy.counted();
  auto& cfs = copy.cfs;
  auto* curr = copy.curr;
  std::uint64_t seen = facts.entered;
  // The entries since the last call, as (vruntime, scaled weight, delayed).
  const auto entries = [&] {
    std::vector<std::tuple<K::value, std::uint64_t, bool>> got;
    REQUIRE(facts.entries_since(seen, [&](const QueueFacts<K>::TreeEntry& e) {
      got.emplace_back(e.vruntime, e.weight, e.delayed);
    }));
    seen = facts.entered;
    return got;
  };
  using Entries = std::vector<std::tuple<K::value, std::uint64_t, bool>>;
  curr->vruntime += 500000;  // update_curr
  facts.patch(cfs, curr);
  CHECK(entries().empty());
  cfs.min_vruntime += 100000;  // v0
  facts.patch(cfs, nullptr);
  CHECK(entries().empty());
  auto* first = *cfs.timeline.begin();  // a tree entity's value
  first->sched_delayed = true;
  facts.patch(cfs, first);
  CHECK(entries() == Entries{{first->vruntime, first->load.weight >> 10, true}});
  cfs.timeline.insert(curr);  // put_prev_entity: into the tree, then no curr
  facts.patch(*curr, queue_move::into_tree);
  CHECK(entries() == Entries{{curr->vruntime, curr->load.weight >> 10, false}});
  cfs.curr = nullptr;
  facts.patch(*curr, queue_move::left_curr);
  CHECK(entries().empty());
  cfs.timeline.erase(first);  // set_next_entity: out of the tree, then curr
  facts.patch(*first, queue_move::out_of_tree);
  CHECK(entries().empty());
  cfs.curr = first;
  facts.patch(*first, queue_move::became_curr);
  CHECK(entries().empty());
  // Older entries than the log keeps, or than a recount, are not offered.
  const std::uint64_t before = facts.entered;
  for (std::size_t i = 0; i <= QueueFacts<K>::kLoggedEntries; ++i) {
    curr->vruntime += 1000;  // curr, now in the tree, read again
    facts.patch(cfs, curr);
  }
  CHECK(facts.entered == before + QueueFacts<K>::kLoggedEntries + 1);
  CHECK_FALSE(facts.entries_since(before, [](const auto&) {}));
  CHECK(facts.entries_since(before + 1, [](const auto&) {}));
  seen = facts.entered;
  facts.recount(cfs);
  CHECK_FALSE(facts.entries_since(seen, [](const auto&) {}));
  CHECK(facts.entries_since(facts.entered, [](const auto&) {}));
  const QueueFacts<K> fresh = copy.counted();  // an epoch, not a count: same_as ignores it
  CHECK(fresh.entered != facts.entered);
  CHECK(facts.same_as(fresh));
}

// The value patches (QueueFacts::patch(cfs, se), model::Observer::queue_changed):
// update_curr's charge of curr, v0 moving forward, a tree entity becoming delayed,
// a renice of a queued entity, curr leaving Q (on_rq cleared) and coming back. The
// expected facts are a fresh recount of the changed copy; the per-event
// verification (reads_as_queue; matches_recount in debug builds) agrees, and fails
// for a change no patch followed.
TEST_CASE("a value patch equals a recount of the changed queue", "[properties][facts]") {
  CopiedQueue copy;
  auto& cfs = copy.cfs;
  auto* curr = copy.curr;
  auto* first = *cfs.timeline.begin();
  QueueFacts<K> patched = copy.counted();
  Recounter recounted{cfs, {}};
  // update_curr: curr's vruntime moves.
  curr->vruntime += 700000;
  CHECK_FALSE(patched.matches_recount(cfs));  // not followed yet
  CHECK_FALSE(patched.reads_as_queue(cfs));
  patched.patch(cfs, curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.matches_recount(cfs));
  CHECK(patched.reads_as_queue(cfs));
  // update_min_vruntime: v0 moves; every key w (v - v0) with it.
  cfs.min_vruntime += 300000;
  patched.patch(cfs, nullptr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.avg_vruntime() == recounted.fresh.avg_vruntime());
  CHECK(patched.q.keys == recounted.fresh.q.keys);
  // set_delayed of a tree entity, then a new weight and slice for it.
  first->sched_delayed = true;
  patched.patch(cfs, first);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.delayed == 1);
  first->load.weight = 3121 * 1024;
  first->slice = 700000;
  patched.patch(cfs, first);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.slice_min == 700000);
  // dequeue of the running curr: on_rq cleared, Q loses it; enqueue brings it back.
  curr->on_rq = false;
  patched.patch(cfs, curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 2);
  CHECK(patched.reads_as_queue(cfs));
  curr->on_rq = true;
  CHECK_FALSE(patched.reads_as_queue(cfs));  // curr back in Q, not yet counted
  patched.patch(cfs, curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 3);
  CHECK(patched.reads_as_queue(cfs));
  // A change without its patch: the verification sees it.
  first->vruntime += 1;
  CHECK_FALSE(patched.reads_as_queue(cfs));
  CHECK_FALSE(patched.matches_recount(cfs));
  CHECK_FALSE(patched.same_as(recounted()));
}

// The per-event verification (reads_as_queue) reads every value a member keeps,
// in the tree and in curr: a change of any one of them that no patch followed
// shows, and undoing it makes the recount read as the queue again.
TEST_CASE("the verification sees an unfollowed change of each counted value", "[properties][facts]") {
  using Entity = eevdf::model::sched_entity<K>;
  const std::vector<std::pair<const char*, void (*)(Entity&, bool)>> changes = {
      {"vruntime, low bits", [](Entity& se, bool undo) { se.vruntime += undo ? -1 : 1; }},
      {"vruntime, high bits", [](Entity& se, bool undo) {
         const K::value high = K::value(1) << 64;
         se.vruntime += undo ? -high : high;
       }},
      {"weight", [](Entity& se, bool undo) { se.load.weight = undo ? se.load.weight - 1024 : se.load.weight + 1024; }},
      {"slice", [](Entity& se, bool undo) { se.slice = undo ? se.slice - 1000 : se.slice + 1000; }},
      {"custom slice", [](Entity& se, bool) { se.custom_slice = !se.custom_slice; }},
      {"delayed", [](Entity& se, bool) { se.sched_delayed = !se.sched_delayed; }},
  };
  for (const bool in_tree : {true, false}) {
    for (const auto& [what, change] : changes) {
      CopiedQueue copy;
      Entity& se = in_tree ? **copy.cfs.timeline.begin() : *copy.curr;
      const QueueFacts<K> facts = copy.counted();
      CAPTURE(what, in_tree);
      REQUIRE(facts.reads_as_queue(copy.cfs));
      change(se, false);
      CHECK_FALSE(facts.reads_as_queue(copy.cfs));
      change(se, true);
      CHECK(facts.reads_as_queue(copy.cfs));
    }
  }
}

// An entity put in the tree, or taken out, without a queue move the patches
// followed: the per-event verification takes the tree's membership from the hooks
// and reads the members' values (all equal here: a twin of a member takes its place),
// the end-of-trace verification (matches_recount, Env::verify_walk) walks the tree.
TEST_CASE("the walk of the tree sees a member that no move put there", "[properties][facts]") {
  CopiedQueue copy;
  const QueueFacts<K> facts = copy.counted();
  REQUIRE(facts.matches_recount(copy.cfs));
  eevdf::model::sched_entity<K>* member = *copy.cfs.timeline.begin();
  eevdf::model::sched_entity<K> twin = *member;
  copy.cfs.timeline.erase(copy.cfs.timeline.begin());
  copy.cfs.timeline.insert(&twin);
  CHECK(facts.reads_as_queue(copy.cfs));
  CHECK_FALSE(facts.matches_recount(copy.cfs));
  copy.cfs.timeline.erase(&twin);
  copy.cfs.timeline.insert(member);
  CHECK(facts.matches_recount(copy.cfs));
}

// put_prev_entity returns curr to the tree before it clears curr (§7.3): between the
// two, curr is counted twice, and a value patch of it must re-read both members,
// not only curr's (the last one, which the usual update_curr patch re-reads alone).
TEST_CASE("a value patch of curr while it is also in the tree re-reads both", "[properties][facts]") {
  CopiedQueue copy;
  auto& cfs = copy.cfs;
  auto* curr = copy.curr;
  QueueFacts<K> patched = copy.counted();
  Recounter recounted{cfs, {}};
  // The usual charge of curr alone first.
  curr->vruntime += 500000;
  patched.patch(cfs, curr);
  CHECK(patched.same_as(recounted()));
  // The transient: curr in the tree too, then charged once more.
  cfs.timeline.insert(curr);
  patched.patch(*curr, queue_move::into_tree);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 4);
  curr->vruntime += 300000;
  patched.patch(cfs, curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.reads_as_queue(cfs));
  // curr cleared: counted once, and its charge is curr-only again.
  cfs.curr = nullptr;
  patched.patch(*curr, queue_move::left_curr);
  CHECK(patched.same_as(recounted()));
  CHECK(patched.queued == 3);
}

// The recount's 64-bit fast paths (KernelArith::fits_s64, times_weight, magnitude_times,
// floor_div) against the plain 128-bit formulas they stand for, at and around the
// s64 boundaries where the fast path gives way to the wide one.
TEST_CASE("the recount's 64-bit products and floors equal the 128-bit formulas", "[properties][facts]") {
  using eevdf::model::s128;
  const auto fits_s64 = [](s128 v) { return K::fits_s64(v); };
  using eevdf::properties::times_weight;
  using Facts = eevdf::properties::QueueFacts<K>;
  const s128 two63 = s128(1) << 63;
  CHECK(fits_s64(two63 - 1));
  CHECK(fits_s64(-two63));
  CHECK_FALSE(fits_s64(two63));
  CHECK_FALSE(fits_s64(-two63 - 1));
  CHECK_FALSE(fits_s64(s128(1) << 64));
  const s128 values[] = {0, 1, -1, 1024, -1025, two63 - 1, -two63, -two63 + 1, two63, -two63 - 1,
                         s128(1) << 70, -(s128(1) << 70) + 3};
  const std::uint64_t weights[] = {0, 2, 1024, 88761, std::uint64_t{1} << 40, std::uint64_t{1} << 63};
  // The bits of |d| * w, to keep each product within s128 (as the queue's always are).
  const auto bits = [](s128 v) {
    int n = 0;
    for (auto m = static_cast<eevdf::model::u128>(v < 0 ? -v : v); m != 0; m >>= 1) ++n;
    return n;
  };
  for (const s128 d : values) {
    for (const std::uint64_t w : weights) {
      if (bits(d) + bits(s128(w)) > 126) continue;
      CAPTURE(K::to_string(d), w);
      CHECK(times_weight<K>(d, w) == d * s128(w));
      if (w <= (std::uint64_t{1} << 40)) CHECK(Facts::magnitude_times(d, w) == (d < 0 ? -d : d) * s128(w));
      if (w != 0) {  // floor(d / w): the quotient toward zero, one less when negative and inexact
        const s128 q = d / s128(w);
        CHECK(Facts::floor_div(d, w) == (q * s128(w) != d && d < 0 ? q - 1 : q));
      }
    }
  }
  // Worked by hand: floor(-7 / 2) = -4, floor(7 / 2) = 3, floor(-2^63 / 3) = -3074457345618258603.
  CHECK(Facts::floor_div(-7, 2) == -4);
  CHECK(Facts::floor_div(7, 2) == 3);
  CHECK(Facts::floor_div(-two63, 3) == s128(-3074457345618258603LL));
}
