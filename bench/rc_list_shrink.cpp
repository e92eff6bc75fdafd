// RapidCheck's list shrinking over events; see rc_list_shrink.h.
#include "bench/rc_list_shrink.h"

#include <rapidcheck.h>

#include <chrono>   // the budget
#include <variant>  // std::get_if
#include <vector>   // the list

#include "base/assert.h"

namespace eevdf::bench {
namespace {

trace::Trace with_events(const trace::Header& h, const std::vector<trace::Event>& events) {
  trace::Trace t;
  t.header = h;
  for (const trace::Event& e : events) t.body.emplace_back(e);
  return t;
}

}  // namespace

RcShrinkResult rc_list_shrink(const trace::Trace& failing, const shrinkers::Target& target, double seconds_max) {
  using clock = std::chrono::steady_clock;
  const clock::time_point start = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  const shrinkers::Judge judge = shrinkers::judge(target);
  trace::Header header = failing.header;
  header.expect_violations.clear();
  header.expect_findings.clear();
  header.expect_clean = false;
  header.initial_expects.clear();
  std::vector<trace::Event> current;
  for (const trace::BodyStatement& s : failing.body)
    if (const trace::Event* e = std::get_if<trace::Event>(&s)) current.push_back(*e);
  RcShrinkResult r;
  const auto fails = [&](const std::vector<trace::Event>& events) {
    ++r.candidates;
    return judge(with_events(header, events), false).fails;
  };
  EEVDF_ASSERT(fails(current), "the baseline starts from a failing trace");
  bool out_of_time = false;
  // Each accepted shrink is a strictly shorter list: at most n descents.
  const std::size_t descents_max = current.size() + 1;
  for (std::size_t descent = 0; descent < descents_max && !out_of_time; ++descent) {
    rc::Seq<std::vector<trace::Event>> shrinks = rc::shrink::removeChunks(current);
    bool accepted = false;
    while (rc::Maybe<std::vector<trace::Event>> candidate = shrinks.next()) {
      if (elapsed() > seconds_max) {
        out_of_time = true;
        break;
      }
      if (fails(*candidate)) {
        current = std::move(*candidate);
        ++r.accepted;
        accepted = true;
        break;
      }
    }
    if (!accepted && !out_of_time) {
      r.finished = true;
      break;
    }
  }
  r.trace = with_events(header, current);
  r.seconds = elapsed();
  return r;
}

}  // namespace eevdf::bench
