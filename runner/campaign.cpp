// The campaign loop; see campaign.h.
#include "runner/campaign.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

#include "base/assert.h"
#include "runner/judged.h"
#include "runner/trace_run.h"

namespace eevdf::runner {
namespace {

using Clock = std::chrono::steady_clock;

// Everything the workers share: the claim counter, the stop flag, live counters.
struct Shared {
  const Options& o;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> traces{0};
  std::atomic<std::uint64_t> events{0};
  std::atomic<std::uint64_t> violations{0};
  std::atomic<int> active{0};  // workers still running
};

// One worker's share: its tally and the digests of its traces.
struct Part {
  Tally tally;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> digests;  // (index, digest)
};

void work(Shared& s, Part& part) {
  // The loop ends at the count budget, the time budget or the index space's end.
  for (std::uint64_t claimed = 0; claimed < UINT64_MAX / 2; ++claimed) {
    if (s.stop.load()) return;
    const std::uint64_t n = s.next.fetch_add(1);
    const std::uint64_t index = s.o.shard_index + n * s.o.shard_count;
    if (s.o.traces_max != 0 && index >= s.o.traces_max) return;
    const TraceOutcome out = run_trace(s.o, index);
    std::uint64_t v = 0;
    for (const auto& [name, count] : out.tally.violations) v += count;
    part.tally.merge(out.tally);
    part.digests.emplace_back(index, out.digest);
    s.events += out.tally.events;
    s.violations += v;
    ++s.traces;
  }
}

Progress snapshot(const Shared& s, Clock::time_point start) {
  return {s.traces.load(), s.events.load(), s.violations.load(),
          std::chrono::duration<double>(Clock::now() - start).count()};
}

std::uint64_t fold(std::vector<std::pair<std::uint64_t, std::uint64_t>>& digests) {
  std::sort(digests.begin(), digests.end());
  std::uint64_t d = kFnvOffset;
  for (const auto& [index, digest] : digests) {
    char bytes[8];
    for (std::size_t i = 0; i < 8; ++i) bytes[i] = static_cast<char>((digest >> (8 * i)) & 0xff);
    d = fnv1a(d, std::string_view(bytes, 8));
  }
  return d;
}

}  // namespace

Result run_campaign(const Options& o, const ProgressFn& progress, std::chrono::milliseconds period) {
  EEVDF_ASSERT(o.jobs >= 1 && o.shard_count >= 1 && o.shard_index < o.shard_count, "options not validated");
  Shared s{o};
  std::vector<Part> parts(static_cast<std::size_t>(o.jobs));
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  s.active = o.jobs;
  for (Part& p : parts) threads.emplace_back([&s, &p] {
    work(s, p);
    --s.active;
  });
  bool timed_out = false;
  for (;;) {  // until every worker has stopped (each checks the budgets itself)
    std::this_thread::sleep_for(std::min(period, std::chrono::milliseconds(50)));
    const Progress now = snapshot(s, start);
    if (o.seconds_max > 0 && now.elapsed_s >= o.seconds_max && !s.stop.exchange(true)) timed_out = true;
    if (s.active.load() == 0) break;
    if (progress) progress(now);
  }
  for (std::thread& t : threads) t.join();
  Result r;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> digests;
  for (Part& p : parts) {
    r.tally.merge(p.tally);
    digests.insert(digests.end(), p.digests.begin(), p.digests.end());
  }
  EEVDF_ASSERT(digests.size() == r.tally.traces, "every trace run has a digest");
  r.digest = fold(digests);
  r.properties = judged_properties(o);
  r.stopped_because = timed_out ? "time" : "trace count";
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (progress) progress(snapshot(s, start));
  return r;
}

std::vector<std::uint64_t> shard_indices(const Options& o) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t k = o.shard_index; k < o.traces_max; k += o.shard_count) out.push_back(k);
  return out;
}

std::vector<FirstViolation> failures(const Result& r, bool strict) {
  std::vector<FirstViolation> out;
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    const auto it = r.tally.first_failure.find(std::string(p.name));
    if (it != r.tally.first_failure.end()) out.push_back(it->second);
    if (!strict) continue;
    for (const auto& [finding, v] : r.tally.first_finding)
      if (v.property == p.name && r.tally.first_failure.count(v.property) == 0) {
        out.push_back(v);  // one saved trace per property
        break;
      }
  }
  return out;
}

}  // namespace eevdf::runner
