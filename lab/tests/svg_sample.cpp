// lab_svg_sample FILE: writes the SVG of a made-up but busy timeline (4 CPUs, 3
// groups, slices from 20 us to 3 ms with some idle time, the lag of two tasks) to
// FILE, for the browser check (check_svg.sh) and for looking at by eye.
#include <algorithm>  // min
#include <cstdint>    // ns
#include <cstdio>     // the file
#include <random>     // mt19937: the same numbers everywhere
#include <string>     // the document

#include "lab/timeline.h"

namespace {

using eevdf::lab::Timeline;

Timeline sample() {
  Timeline t;
  t.title = "sample: 4 CPUs, clients & servers, seed 1";
  t.from_ns = 2'000'000'000;
  t.to_ns = t.from_ns + 40'000'000;
  t.ncpus = 4;
  t.task_names = {"client.0", "client.1", "client.2", "client.3", "server.0", "server.1", "batch.0", "batch.1"};
  t.task_group = {0, 0, 0, 0, 1, 1, 2, 2};
  t.group_names = {"client", "server", "batch"};
  std::mt19937 rng(1);
  const auto draw = [&rng](std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  // CPU c runs tasks c and c + 4 (a client or server with a batch task) and now and
  // then another one, with short bursts where it switches every few us.
  for (int cpu = 0; cpu < t.ncpus; ++cpu) {
    int turn = 0;
    for (std::uint64_t now = t.from_ns; now < t.to_ns;) {
      const bool burst = draw(0, 19) == 0;
      const int steps = burst ? 200 : 1;
      for (int i = 0; i < steps && now < t.to_ns; ++i, ++turn) {
        const int task = draw(0, 9) == 0 ? static_cast<int>(draw(0, 7)) : (turn % 2 == 0 ? cpu : cpu + 4);
        const std::uint64_t length = burst ? draw(1'000, 6'000) : draw(20'000, 3'000'000);
        t.slices.push_back({cpu, task, now, std::min(now + length, t.to_ns)});
        now += length;
      }
      if (draw(0, 3) == 0) now += draw(10'000, 800'000);  // idle
    }
  }
  // The lag of client.0 and server.1: a walk, not queued while "asleep".
  for (const int task : {0, 5}) {
    eevdf::lab::LagSeries series{task, {}};
    std::int64_t lag = 0;
    bool queued = true;
    for (std::uint64_t now = t.from_ns; now <= t.to_ns; now += draw(20'000, 400'000)) {
      if (draw(0, 29) == 0) queued = !queued;
      lag = queued ? lag + static_cast<std::int64_t>(draw(0, 600'000)) - 300'000 : 0;
      series.samples.push_back({now, queued, lag});
    }
    t.lag.push_back(series);
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: lab_svg_sample FILE\n", stderr);
    return 2;
  }
  const std::string svg = eevdf::lab::render_svg(sample());
  std::FILE* out = std::fopen(argv[1], "wb");
  if (out == nullptr || std::fwrite(svg.data(), 1, svg.size(), out) != svg.size() || std::fclose(out) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
