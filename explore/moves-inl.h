// The explorer's alphabet over a Machine (moves.h). Included by explore.cpp only.
#pragma once

#include "explore/moves.h"

namespace eevdf::explore {

template <class M>
void enabled_moves(const M& m, const Alphabet& a, std::vector<Move>& out) {
  using trace::Verb;
  out.clear();
  const int ncpus = static_cast<int>(m.rqs().size());
  std::vector<Move> verbs;
  const auto add = [&](Move mv) {
    if (a.has(mv.verb)) verbs.push_back(mv);
  };
  for (int i = 0; i < static_cast<int>(m.tasks().size()); ++i) {
    const auto& p = m.tasks()[static_cast<std::size_t>(i)];
    const auto task = static_cast<std::int8_t>(i);
    switch (m.state_of(p)) {
      case model::task_state::new_:
        for (int c = 0; c < ncpus; ++c) add({Verb::fork, trace::Io::none, task, static_cast<std::int8_t>(c)});
        break;
      case model::task_state::blocked:
        for (int c = 0; c < ncpus; ++c) add({Verb::wake, trace::Io::none, task, static_cast<std::int8_t>(c)});
        break;
      case model::task_state::delayed:
        add({Verb::wake, trace::Io::none, task, -1});
        [[fallthrough]];
      case model::task_state::queued:
        for (int c = 0; c < ncpus; ++c)
          if (c != p.cpu) add({Verb::migrate, trace::Io::none, task, static_cast<std::int8_t>(c)});
        break;
      case model::task_state::running:
        add({Verb::sleep, trace::Io::none, task, -1});
        if (a.io) {
          add({Verb::sleep, trace::Io::io, task, -1});
          add({Verb::sleep, trace::Io::noacct, task, -1});
        }
        add({Verb::yield, trace::Io::none, task, -1});
        add({Verb::exit, trace::Io::none, task, -1});
        break;
      case model::task_state::exited: continue;
    }
    if (m.state_of(p) == model::task_state::new_) continue;
    for (const int nice : a.nices)
      if (nice != p.nice) add({Verb::renice, trace::Io::none, task, -1, static_cast<std::int8_t>(nice)});
    for (const std::uint64_t slice : a.slices)
      if (slice == 0 || slice != p.se.slice) {
        Move mv{Verb::setslice, trace::Io::none, task, -1};
        mv.slice_us = static_cast<std::uint32_t>(slice / 1000);
        add(mv);
      }
  }
  bool busy = false;
  for (int c = 0; c < ncpus; ++c)
    if (m.rqs()[static_cast<std::size_t>(c)].curr != nullptr) {
      busy = true;
      add({Verb::tick, trace::Io::none, -1, static_cast<std::int8_t>(c)});
    }
  if (busy && a.tick_all) add({Verb::tick, trace::Io::none, -1, -2});
  for (int g = 0; g <= a.max_gap; ++g)
    for (Move mv : verbs) {
      mv.gap = static_cast<std::uint8_t>(g);
      out.push_back(mv);
    }
}

template <class M>
std::uint64_t footprint(const M& m, const Move& move) {
  if (move.cpu == -2) return ~std::uint64_t{0};
  std::uint64_t cpus = 0;
  if (move.cpu >= 0) cpus |= std::uint64_t{1} << move.cpu;
  if (move.task >= 0) cpus |= std::uint64_t{1} << m.tasks().at(static_cast<std::size_t>(move.task)).cpu;
  return cpus;
}

}  // namespace eevdf::explore
