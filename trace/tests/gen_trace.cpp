// Random valid traces for properties; see gen_trace.h. Every helper below that
// dereferences a generator (`*g`) runs inside rc::gen::exec, which records the draws
// so that RapidCheck can shrink them.
#include "trace/tests/gen_trace.h"

#include <algorithm>  // std::find, std::min
#include <limits>     // u64 and s64 bounds
#include <string>     // names, digits

#include "trace/line.h"  // the parser's limits (kCpusMax, kHzMax, ...)
#include "trace/writer.h"  // showValue

namespace eevdf::trace::testgen {
namespace {

using rc::gen::inRange;

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t kS64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kS64Min = std::numeric_limits<std::int64_t>::min();
// Small traces find the same parser bugs as long ones and shrink faster.
constexpr int kTasksMax = 6;
constexpr int kBodyStatementsMax = 40;
constexpr int kInitialExpectsMax = 3;

// An integer in lo..hi inclusive (RapidCheck's inRange excludes the top).
template <typename T>
T draw_in(T lo, T hi) {
  return hi == std::numeric_limits<T>::max() && lo == std::numeric_limits<T>::min()
             ? *rc::gen::arbitrary<T>()
             : *inRange<T>(lo, static_cast<T>(hi + 1));
}

bool draw_bool() { return *rc::gen::arbitrary<bool>(); }

// `n` distinct indices of 0..size-1 in a random order (a partial shuffle).
std::vector<std::size_t> draw_subset(std::size_t size, std::size_t n) {
  std::vector<std::size_t> left(size), out;
  for (std::size_t i = 0; i < size; ++i) left[i] = i;
  for (std::size_t k = 0; k < n && !left.empty(); ++k) {
    const std::size_t at = draw_in<std::size_t>(0, left.size() - 1);
    out.push_back(left[at]);
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(at));
  }
  return out;
}

std::string draw_word(const std::string& alphabet, int length_max) {
  const int length = draw_in(1, length_max);
  return *rc::gen::container<std::string>(static_cast<std::size_t>(length), rc::gen::elementOf(alphabet));
}

TopologySpec draw_topology() {
  TopologySpec t;  // unused fields keep their defaults, as the parser leaves them
  if (draw_bool()) {
    t.long_form = true;
    t.sockets = draw_in(1, 4);
    t.llcs = draw_in(1, 4);
    t.cores = draw_in(1, 8);
    t.smt = draw_in(1, 2);
  } else if (draw_bool()) {
    t.sockets = draw_in(1, 4);
    t.cores_per_socket = draw_in(1, 16);
  } else {
    // The largest machines the parser accepts: 4096 CPUs.
    t.sockets = *rc::gen::elementOf(std::vector<int>{1, 2, 64, 4096});
    t.cores_per_socket = detail::kCpusMax / t.sockets;
  }
  return t;
}

std::vector<TaskDecl> draw_tasks(int ncpus) {
  std::vector<TaskDecl> tasks;
  const int count = draw_in(0, kTasksMax);
  const bool large_ids = draw_bool();
  for (int k = 0; k < count; ++k) {
    TaskDecl t;
    t.id = large_ids ? draw_in<int>(1, static_cast<int>(detail::kTaskIdMax)) : draw_in(1, 3 * kTasksMax);
    const bool taken =
        std::find_if(tasks.begin(), tasks.end(), [&](const TaskDecl& o) { return o.id == t.id; }) != tasks.end();
    if (taken) continue;
    if (draw_bool()) t.nice = draw_in(-20, 19);
    if (draw_bool()) t.slice_ns = *duration_ns();
    if (draw_bool()) t.name = draw_word("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", 12);
    if (draw_bool()) t.cpu = draw_in(0, ncpus - 1);
    tasks.push_back(std::move(t));
  }
  return tasks;
}

std::vector<std::pair<std::string, bool>> draw_features(const Vocabulary& vocab) {
  std::vector<std::pair<std::string, bool>> features;
  const std::size_t n = draw_in<std::size_t>(0, vocab.features.size());
  for (const std::size_t i : draw_subset(vocab.features.size(), n))
    features.emplace_back(vocab.features[i], draw_bool());
  return features;
}

std::vector<std::string> draw_preamble() {
  std::vector<std::string> lines;
  const int count = draw_in(0, 2);
  std::string printable;
  for (char c = ' '; c <= '~'; ++c) printable += c;
  for (int k = 0; k < count; ++k) lines.push_back(draw_word(printable, 30));
  return lines;
}

int draw_task(const Header& h) {
  return h.tasks.at(draw_in<std::size_t>(0, h.tasks.size() - 1)).id;
}

int draw_cpu(const Header& h) { return draw_in(0, h.topology_or_default().ncpus() - 1); }

RationalText draw_rational() {
  RationalText r;
  r.numerator = (draw_bool() ? "-" : "") + *digits(25);
  // A denominator has a non-zero digit; "1" is the common (integer) case.
  r.denominator = draw_bool() ? "1" : *digits(24) + std::to_string(draw_in(1, 9));
  return r;
}

bool needs_task(Verb v) {
  return v == Verb::fork || v == Verb::wake || v == Verb::migrate || v == Verb::renice || v == Verb::setslice;
}

bool about_cpu(Query q) {
  return q == Query::curr || q == Query::nr_running || q == Query::nr_runnable || q == Query::nr_iowait ||
         q == Query::nr_iowait_acct;
}

bool needs_task(Query q) { return !about_cpu(q) && q != Query::measure; }

// The swarm: which verbs and queries this trace uses (never none).
template <typename Enum, std::size_t N, typename Usable>
std::vector<Enum> draw_enabled(const std::array<const char*, N>&, Usable usable, Enum fallback) {
  std::vector<Enum> on;
  for (std::size_t i = 0; i < N; ++i) {
    const auto e = static_cast<Enum>(i);
    if (usable(e) && draw_bool()) on.push_back(e);
  }
  if (on.empty()) on.push_back(fallback);
  return on;
}

// Sleep, yield and exit name a task or a CPU.
void task_or_cpu(const Header& h, Event& e) {
  if (!h.tasks.empty() && draw_bool()) e.task = draw_task(h);
  else e.cpu = draw_cpu(h);
}

}  // namespace

rc::Gen<std::string> digits(int digits_max) {
  return rc::gen::exec([digits_max] { return draw_word("0123456789", digits_max); });
}

rc::Gen<std::uint64_t> duration_ns() {
  // Weighted so that each unit of the canonical text (ns, us, ms, s) shows up.
  return rc::gen::exec([] {
    switch (draw_in(0, 7)) {
      case 0: return std::uint64_t{0};
      case 1: return draw_in<std::uint64_t>(1, 999);
      case 2: return draw_in<std::uint64_t>(1, 999'999) * 1000;
      case 3: return draw_in<std::uint64_t>(1, 999'999) * 1000 + draw_in<std::uint64_t>(0, 999);
      case 4: return draw_in<std::uint64_t>(1, 100'000) * 1'000'000;
      case 5: return draw_in<std::uint64_t>(1, 1'000'000) * 1'000'000'000;
      case 6: return *inRange<std::uint64_t>(kU64Max - 1000, kU64Max) + 1;  // the top, inclusive
      default: return *rc::gen::arbitrary<std::uint64_t>();
    }
  });
}

rc::Gen<Header> header(const Vocabulary& vocab) {
  return rc::gen::exec([vocab] {
    Header h;
    h.preamble = draw_preamble();
    if (draw_bool()) h.kernel = *rc::gen::elementOf(vocab.profiles);
    if (draw_bool()) h.arith = static_cast<Arith>(draw_in(0, 2));
    if (draw_bool()) h.topology = draw_topology();
    if (draw_bool()) h.hz = draw_in(1, detail::kHzMax);
    if (draw_bool()) h.base_slice_ns = draw_in<std::uint64_t>(1, detail::kBaseSliceNsMax);
    h.features = draw_features(vocab);
    const std::size_t injections = draw_in<std::size_t>(0, vocab.injections.size());
    for (const std::size_t i : draw_subset(vocab.injections.size(), injections))
      h.injections.push_back(vocab.injections[i]);
    h.tasks = draw_tasks(h.topology_or_default().ncpus());
    // `expect clean` contradicts `expect violation` and `expect finding`.
    if (draw_bool()) {
      h.expect_clean = true;
    } else {
      const int violations = draw_in(0, 3);
      for (int k = 0; k < violations; ++k) h.expect_violations.push_back(*rc::gen::elementOf(vocab.properties));
      const int findings = vocab.findings.empty() ? 0 : draw_in(0, 2);
      for (int k = 0; k < findings; ++k) h.expect_findings.push_back(*rc::gen::elementOf(vocab.findings));
    }
    const int initial = draw_in(0, kInitialExpectsMax);
    for (int k = 0; k < initial; ++k) {
      const auto q = static_cast<Query>(draw_in<std::size_t>(0, kQueryNames.size() - 1));
      if (!needs_task(q) || !h.tasks.empty()) h.initial_expects.push_back(*expect(h, vocab, q));
    }
    return h;
  });
}

rc::Gen<Event> event(const Header& h, Verb verb, std::uint64_t time_ns) {
  return rc::gen::exec([h, verb, time_ns] {
    Event e;
    e.time_ns = time_ns;
    e.verb = verb;
    switch (verb) {
      case Verb::fork:
      case Verb::wake:
        e.task = draw_task(h);
        if (draw_bool()) e.cpu = draw_cpu(h);
        break;
      case Verb::sleep:
        task_or_cpu(h, e);
        e.io = static_cast<Io>(draw_in(0, 2));
        break;
      case Verb::tick:
        if (draw_bool()) e.all_cpus = true;
        else e.cpu = draw_cpu(h);
        break;
      case Verb::migrate:
        e.task = draw_task(h);
        e.cpu = draw_cpu(h);
        break;
      case Verb::renice:
        e.task = draw_task(h);
        e.nice = draw_in(-20, 19);
        break;
      case Verb::setslice:
        e.task = draw_task(h);
        e.slice_ns = *duration_ns();
        break;
      case Verb::yield:
      case Verb::exit: task_or_cpu(h, e); break;
    }
    return e;
  });
}

rc::Gen<Expect> expect(const Header& h, const Vocabulary& vocab, Query query) {
  return rc::gen::exec([h, vocab, query] {
    Expect x;
    x.query = query;
    if (query == Query::measure) {
      x.measure = *rc::gen::elementOf(vocab.measures);
      x.op = static_cast<CompareOp>(draw_in(0, 4));
      x.rational = draw_rational();
      return x;
    }
    x.subject = about_cpu(query) ? draw_cpu(h) : draw_task(h);
    switch (query) {
      case Query::curr: x.value = h.tasks.empty() || draw_bool() ? 0 : draw_task(h); break;
      case Query::state: x.value = draw_in(0, 5); break;
      case Query::cpu: x.value = draw_cpu(h); break;
      case Query::eligible:
      case Query::protected_: x.value = draw_in(0, 1); break;
      case Query::lag: x.value = draw_in(kS64Min, kS64Max); break;
      case Query::ideal_lag:
      case Query::deadline_rel: x.rational = draw_rational(); break;
      case Query::slice:
      case Query::sum_exec: x.value = static_cast<std::int64_t>(std::min<std::uint64_t>(*duration_ns(), kS64Max)); break;
      case Query::weight: x.value = draw_in<std::int64_t>(1, 1'000'000'000); break;
      case Query::nr_running:
      case Query::nr_runnable:
      case Query::nr_iowait:
      case Query::nr_iowait_acct: x.value = draw_in<std::int64_t>(0, 1'000'000'000); break;
      case Query::measure: break;  // handled above
    }
    return x;
  });
}

rc::Gen<std::vector<BodyStatement>> body(const Header& h, const Vocabulary& vocab, std::uint64_t time_min_ns,
                                         int statements_max) {
  return rc::gen::exec([h, vocab, time_min_ns, statements_max] {
    const bool have_tasks = !h.tasks.empty();
    const std::vector<Verb> verbs = draw_enabled<Verb>(
        kVerbNames, [&](Verb v) { return have_tasks || !needs_task(v); }, Verb::tick);
    const std::vector<Query> queries = draw_enabled<Query>(
        kQueryNames, [&](Query q) { return have_tasks || !needs_task(q); }, Query::curr);
    std::vector<BodyStatement> out;
    std::uint64_t time = time_min_ns;
    const int count = draw_in(0, statements_max);
    for (int k = 0; k < count; ++k) {
      if (!out.empty() && draw_in(0, 3) == 0) {
        out.emplace_back(*expect(h, vocab, *rc::gen::elementOf(queries)));
        continue;
      }
      // Often the same time (file order decides), else a step of any size but never
      // past 2^64-1.
      const std::uint64_t step = draw_bool() ? 0 : *duration_ns();
      time += std::min(step, kU64Max - time);
      out.emplace_back(*event(h, *rc::gen::elementOf(verbs), time));
    }
    return out;
  });
}

rc::Gen<Trace> trace(const Vocabulary& vocab) {
  return rc::gen::exec([vocab] {
    Trace t;
    t.header = *header(vocab);
    // Usually from 0; sometimes near the top of u64, to exercise the largest times.
    const std::uint64_t start = draw_bool() ? 0 : *duration_ns();
    t.body = *body(t.header, vocab, start, kBodyStatementsMax);
    return t;
  });
}

}  // namespace eevdf::trace::testgen

namespace eevdf::trace {

void showValue(const Trace& trace, std::ostream& os) { os << "\n" << to_text(trace); }
void showValue(const Header& header, std::ostream& os) {
  os << "\n";
  write_header(os, header);
}
void showValue(const Event& event, std::ostream& os) { os << format_event(event); }
void showValue(const Expect& expect, std::ostream& os) { os << format_expect(expect); }

}  // namespace eevdf::trace
