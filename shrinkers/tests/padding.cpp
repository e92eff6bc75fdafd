// Noise padding and the independent 1-minimality helper; see padding.h.
#include "shrinkers/tests/padding.h"

#include <algorithm>  // std::max
#include <fstream>    // the corpus file
#include <set>        // named tasks
#include <sstream>    // whole-file read
#include <stdexcept>  // missing files
#include <variant>    // std::get_if
#include <vector>     // events

#include "replay/vocabulary.h"
#include "trace/reader.h"

namespace eevdf::shrinkers::testing {
namespace {

constexpr int kNoiseTasks = 6;

std::vector<trace::Event> events_of(const trace::Trace& t) {
  std::vector<trace::Event> out;
  for (const trace::BodyStatement& s : t.body)
    if (const trace::Event* e = std::get_if<trace::Event>(&s)) out.push_back(*e);
  return out;
}

// Declares the noise tasks; returns the first noise id.
int declare_noise_tasks(trace::Header& h) {
  int base = 1;
  for (const trace::TaskDecl& d : h.tasks) base = std::max(base, d.id + 1);
  const int last_cpu = h.topology_or_default().ncpus() - 1;
  for (int k = 0; k < kNoiseTasks; ++k) {
    trace::TaskDecl d;
    d.id = base + k;
    d.name = "noise" + std::to_string(k);
    d.cpu = last_cpu;
    h.tasks.push_back(d);
  }
  return base;
}

// The j-th noise event at `time_ns`: forks first, then tick / renice / setslice.
trace::Event noise_event(std::size_t j, int base, int ncpus, std::uint64_t time_ns) {
  trace::Event e;
  e.time_ns = time_ns;
  const auto k = static_cast<int>(j);
  if (k < kNoiseTasks) {
    e.verb = trace::Verb::fork;
    e.task = base + k;
    return e;
  }
  const int task = base + (k / 3) % kNoiseTasks;
  switch (k % 3) {
    case 0:
      e.verb = trace::Verb::tick;
      e.cpu = (k / 3) % ncpus;
      break;
    case 1:
      e.verb = trace::Verb::renice;
      e.task = task;
      e.nice = k % 7 - 3;
      break;
    default:
      e.verb = trace::Verb::setslice;
      e.task = task;
      e.slice_ns = static_cast<std::uint64_t>(k % 4 + 1) * 100000;
      break;
  }
  return e;
}

trace::Trace with_events(const trace::Header& h, const std::vector<trace::Event>& events) {
  trace::Trace out;
  out.header = h;
  int line = 1;
  for (trace::Event e : events) {
    e.line = line++;
    out.body.emplace_back(e);
  }
  return out;
}

}  // namespace

trace::Trace load_corpus_trace(const std::string& relative_path) {
  const std::string path = std::string(EEVDF_SOURCE_DIR) + "/corpus/" + relative_path;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream text;
  text << in.rdbuf();
  return trace::parse_trace_text(text.str(), path, replay::vocabulary());
}

trace::Trace pad_interleaved(const trace::Trace& t, std::size_t noise_count) {
  trace::Header h = t.header;
  const int base = declare_noise_tasks(h);
  const int ncpus = h.topology_or_default().ncpus();
  const std::vector<trace::Event> original = events_of(t);
  const std::size_t share = (noise_count + original.size() - 1) / std::max<std::size_t>(original.size(), 1);
  std::vector<trace::Event> events;
  std::size_t j = 0;
  for (const trace::Event& e : original) {
    events.push_back(e);
    for (std::size_t k = 0; k < share && j < noise_count; ++k, ++j)
      events.push_back(noise_event(j, base, ncpus, e.time_ns));
  }
  return with_events(h, events);
}

trace::Trace pad_appended(const trace::Trace& t, std::size_t noise_count) {
  trace::Header h = t.header;
  const int base = declare_noise_tasks(h);
  const int ncpus = h.topology_or_default().ncpus();
  std::vector<trace::Event> events = events_of(t);
  const std::uint64_t end = events.empty() ? 0 : events.back().time_ns;
  for (std::size_t j = 0; j < noise_count; ++j)
    events.push_back(noise_event(j, base, ncpus, end + (j + 1) * 1000000));
  return with_events(h, events);
}

std::size_t count_events(const trace::Trace& t) { return events_of(t).size(); }

trace::Trace without_event(const trace::Trace& t, std::size_t i) {
  const std::vector<trace::Event> events = events_of(t);
  const trace::Event& gone = events.at(i);
  const int unforked = gone.verb == trace::Verb::fork ? gone.task : 0;
  std::vector<trace::Event> kept;
  std::set<int> named;
  for (std::size_t k = 0; k < events.size(); ++k) {
    if (k == i || (unforked != 0 && events[k].task == unforked)) continue;
    kept.push_back(events[k]);
    if (events[k].task != 0) named.insert(events[k].task);
  }
  trace::Header h = t.header;
  std::vector<trace::TaskDecl> decls;
  for (const trace::TaskDecl& d : h.tasks)
    if (named.count(d.id) != 0) decls.push_back(d);
  h.tasks = decls;
  return with_events(h, kept);
}

}  // namespace eevdf::shrinkers::testing
