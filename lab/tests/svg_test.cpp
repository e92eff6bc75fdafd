// The SVG timeline (lab/svg.cpp) on hand-built timelines: rectangles where the scale
// puts them, tooltips and escaping, the lag polyline split where the task is not
// queued, coalescing of many short slices, determinism and well-formed XML.
#include <catch2/catch.hpp>

#include <cstddef>  // counts
#include <cstdint>  // ns
#include <string>   // documents
#include <vector>   // open tags

#include "lab/svg_scale.h"
#include "lab/timeline.h"

namespace {

using eevdf::lab::LagSample;
using eevdf::lab::LagSeries;
using eevdf::lab::RunSlice;
using eevdf::lab::Timeline;

constexpr std::uint64_t kUs = 1'000;
constexpr std::uint64_t kMs = 1'000'000;

// 2 CPUs, 3 tasks in 2 groups, over 1..12 ms: the plot's 1100 px make 10 us a pixel,
// and it starts at x = 80, so a time t lands at x = 80 + (t - 1 ms) / 10 us.
Timeline two_cpus_three_tasks() {
  Timeline t;
  t.title = "sample <1> & \"2\"";
  t.from_ns = 1 * kMs;
  t.to_ns = 12 * kMs;
  t.ncpus = 2;
  t.task_names = {"client.0", "client.1", "server<&>"};
  t.task_group = {0, 0, 1};
  t.group_names = {"client", "server"};
  t.slices = {
      {0, 0, 1 * kMs, 2 * kMs},                      // x 80, 100 px
      {0, 2, 2 * kMs, 2500 * kUs},                   // x 180, 50 px
      {0, 1, 2500 * kUs, 2503 * kUs},                // x 230, 0.3 px: drawn 1 px wide
      {1, 1, 3 * kMs, 4234 * kUs},                   // x 280 .. 403.4
      {1, 1, 4236 * kUs, 5 * kMs},                   // 2 us (0.2 px) later: merged, .. 480
      {1, 2, 11500 * kUs, 13 * kMs},                 // clipped at 12 ms: x 1130, 50 px
  };
  return t;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Whether `doc` is well-formed XML as far as an SVG of ours needs: every tag closed
// in order, quoted attributes, no stray '<' and only the five named entities.
bool well_formed(const std::string& doc) {
  std::vector<std::string> open;
  bool root_seen = false;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (doc[i] == '&') {
      bool known = false;
      for (const char* entity : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"}) {
        known = known || doc.compare(i, std::string(entity).size(), entity) == 0;
      }
      if (!known) return false;
      continue;
    }
    if (doc[i] == '>') return false;  // outside a tag
    if (doc[i] != '<') continue;
    const std::size_t close = doc.find('>', i);
    if (close == std::string::npos) return false;
    const std::string tag = doc.substr(i + 1, close - i - 1);
    if (tag.empty()) return false;
    if (count(tag, "\"") % 2 != 0 || tag.find('<') != std::string::npos) return false;
    i = close;
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
      continue;
    }
    if (open.empty() && root_seen) return false;  // a second root
    root_seen = true;
    if (tag.back() == '/') continue;
    open.push_back(tag.substr(0, tag.find_first_of(" \n")));
  }
  return root_seen && open.empty();
}

}  // namespace

TEST_CASE("lab.svg: the scale's arithmetic") {
  using eevdf::lab::svg::fixed;
  using eevdf::lab::svg::nice_step;
  CHECK(nice_step(1) == 1);
  CHECK(nice_step(3) == 5);
  CHECK(nice_step(1'100'000) == 2'000'000);
  CHECK(nice_step(5'000) == 5'000);
  CHECK(eevdf::lab::svg::decimals_for(2'000'000, kMs) == 0);
  CHECK(eevdf::lab::svg::decimals_for(500'000, kMs) == 1);
  CHECK(eevdf::lab::svg::decimals_for(20'000, kMs) == 2);
  CHECK(fixed(1'234'567, kMs, 3) == "1.235");
  CHECK(fixed(2'500'000, kMs, 3) == "2.500");
  CHECK(fixed(-1'500, kUs, 0) == "-2");
  CHECK(fixed(-400, kUs, 0) == "0");
  CHECK(fixed(12 * kMs, kMs, 0) == "12");
  const eevdf::lab::svg::Scale up{-1'000'000, 3'000'000, 436, -200};
  CHECK(up(0) == 386);
  CHECK(up(-5'000'000) == 436);  // clamped
}

TEST_CASE("lab.svg: rectangles where the scale puts them, with tooltips") {
  const std::string svg = eevdf::lab::render_svg(two_cpus_three_tasks());
  // CPU 0's lane is at y 64, CPU 1's at 96, each 26 high.
  CHECK(svg.find("<rect x=\"80\" y=\"64\" width=\"100\" height=\"26\" fill=\"#4e79a7\">"
                 "<title>client.0 on CPU 0: 1.000..2.000 ms</title></rect>") != std::string::npos);
  CHECK(svg.find("<rect x=\"180\" y=\"64\" width=\"50\" height=\"26\" fill=\"#f28e2b\">"
                 "<title>server&lt;&amp;&gt; on CPU 0: 2.000..2.500 ms</title></rect>") != std::string::npos);
  // The second task of a group is a lighter shade of its colour.
  CHECK(svg.find("<rect x=\"230\" y=\"64\" width=\"1\" height=\"26\" fill=\"#94aeca\">"
                 "<title>client.1 on CPU 0: 2.500..2.503 ms</title></rect>") != std::string::npos);
  CHECK(svg.find("<rect x=\"280\" y=\"96\" width=\"200\" height=\"26\" fill=\"#94aeca\">"
                 "<title>client.1 on CPU 1: 3.000..5.000 ms (2 slices)</title></rect>") != std::string::npos);
  CHECK(svg.find("<rect x=\"1130\" y=\"96\" width=\"50\" height=\"26\" fill=\"#f28e2b\">"
                 "<title>server&lt;&amp;&gt; on CPU 1: 11.500..12.000 ms</title></rect>") != std::string::npos);
  CHECK(count(svg, "<title>") == 1 + 5);  // the document's and one per rectangle

  // A name fits in 100 px (8 characters of at most 7 px), not in 50 or 1.
  CHECK(svg.find(">client.0</text>") != std::string::npos);
  CHECK(svg.find(">server&lt;&amp;&gt;</text>") == std::string::npos);
  CHECK(count(svg, ">client.1</text>") == 1);  // in its 200 px rectangle on CPU 1
}

TEST_CASE("lab.svg: a white pixel parts two tasks of one shade") {
  Timeline t = two_cpus_three_tasks();
  t.task_names = {"a.0", "a.1", "a.2", "a.3"};
  t.task_group = {0, 0, 0, 0};
  t.slices = {{0, 0, 1 * kMs, 2 * kMs}, {0, 3, 2 * kMs, 3 * kMs}, {0, 1, 3 * kMs, 4 * kMs}};
  const std::string svg = eevdf::lab::render_svg(t);
  // a.3 takes a.0's shade: a white pixel at x 180; a.1 is lighter: none at 280.
  CHECK(svg.find("<rect x=\"280\" y=\"64\" width=\"100\" height=\"26\" fill=\"#94aeca\">") != std::string::npos);
  CHECK(svg.find("<rect x=\"180\" y=\"64\" width=\"1\" height=\"26\" fill=\"#ffffff\"/>") != std::string::npos);
  CHECK(count(svg, "fill=\"#ffffff\"/>") == 1 + 1);  // the page and the one pixel
}

TEST_CASE("lab.svg: title, window, axis and legend") {
  const std::string svg = eevdf::lab::render_svg(two_cpus_three_tasks());
  CHECK(svg.find("<title>sample &lt;1&gt; &amp; &quot;2&quot;</title>") != std::string::npos);
  CHECK(svg.find(">window 1.000..12.000 ms (11.000 ms)</text>") != std::string::npos);
  // 11 ms / 10 is 1.1 ms, the nice step above it 2 ms: ticks at 2, 4, ..., 12 ms.
  CHECK(svg.find("<text x=\"180\" y=\"146\" text-anchor=\"middle\">2</text>") != std::string::npos);
  CHECK(svg.find("<text x=\"1180\" y=\"146\" text-anchor=\"middle\">12</text>") != std::string::npos);
  CHECK(svg.find(">time (ms)</text>") != std::string::npos);
  CHECK(svg.find(">CPU 0</text>") != std::string::npos);
  CHECK(svg.find(">CPU 1</text>") != std::string::npos);
  CHECK(svg.find("fill=\"#4e79a7\"/><text x=\"20\" y=\"0\">client</text>") != std::string::npos);
  CHECK(svg.find("fill=\"#f28e2b\"/><text x=\"20\" y=\"0\">server</text>") != std::string::npos);
  CHECK(svg.find("polyline") == std::string::npos);  // no lag chosen
  CHECK(well_formed(svg));
}

TEST_CASE("lab.svg: the lag polyline breaks where the task is not queued") {
  Timeline t = two_cpus_three_tasks();
  // Lags from -1 to 3 ms: steps of 1 ms (4 ms / 5, made nice), 50 px a ms over the
  // 200 px of the plot, whose area spans y 236..436 (0 at 386).
  t.lag = {{0,
            {{1 * kMs, true, 0},
             {1500 * kUs, true, -1 * static_cast<std::int64_t>(kMs)},
             {2 * kMs, false, 0},
             {3 * kMs, true, 3 * static_cast<std::int64_t>(kMs)},
             {4 * kMs, true, 1 * static_cast<std::int64_t>(kMs)},
             {4500 * kUs, true, 0}}}};
  const std::string svg = eevdf::lab::render_svg(t);
  CHECK(count(svg, "<polyline") == 2);
  CHECK(svg.find("stroke=\"#4e79a7\" stroke-width=\"1.5\" points=\"80,386 130,436\">"
                 "<title>lag of client.0</title>") != std::string::npos);
  CHECK(svg.find("points=\"280,236 380,336 430,386\">") != std::string::npos);
  // The zero line, and the y axis labelled in us.
  CHECK(svg.find("<line x1=\"76\" y1=\"386\" x2=\"1180\" y2=\"386\" stroke=\"#333333\"/>") != std::string::npos);
  CHECK(svg.find(">3000</text>") != std::string::npos);
  CHECK(svg.find(">-1000</text>") != std::string::npos);
  CHECK(svg.find("<text x=\"20\" y=\"0\">client.0</text>") != std::string::npos);  // its legend
  CHECK(well_formed(svg));
}

TEST_CASE("lab.svg: a lone queued sample is a dot") {
  Timeline t = two_cpus_three_tasks();
  t.lag = {{2, {{2 * kMs, false, 0}, {3 * kMs, true, 0}, {4 * kMs, false, 0}}}};
  const std::string svg = eevdf::lab::render_svg(t);
  CHECK(count(svg, "<polyline") == 0);
  CHECK(count(svg, "<circle") == 1);
  CHECK(well_formed(svg));
}

TEST_CASE("lab.svg: the same timeline gives the same bytes") {
  Timeline t = two_cpus_three_tasks();
  t.lag = {{1, {{3 * kMs, true, 5 * static_cast<std::int64_t>(kUs)}, {4 * kMs, true, -7}}}};
  CHECK(eevdf::lab::render_svg(t) == eevdf::lab::render_svg(t));
}

TEST_CASE("lab.svg: 10^5 short slices draw as at most one rectangle per pixel") {
  Timeline t;
  t.title = "many";
  t.from_ns = 0;
  t.to_ns = 10 * kMs;  // 1100 px: 9.09 us a pixel
  t.ncpus = 1;
  t.task_names = {"a", "b"};
  t.task_group = {0, 1};
  t.group_names = {"a", "b"};
  for (std::uint64_t i = 0; i < 100'000; ++i) {
    t.slices.push_back({0, static_cast<int>(i % 2), i * 100, i * 100 + 100});  // 100 ns each
  }
  t.lag = {{0, {}}};
  for (std::uint64_t i = 0; i < 100'000; ++i) {
    t.lag[0].samples.push_back({i * 100, true, static_cast<std::int64_t>(i % 7) * 1000});
  }
  const std::string svg = eevdf::lab::render_svg(t);
  CHECK(count(svg, "<rect") <= 1100 + 10);
  CHECK(svg.size() < 500'000);
  CHECK(well_formed(svg));
  // Slice i covers 100 i..100 i + 100 ns and starts at x 80 + 100 i / 9091 rounded,
  // so pixel 80 takes slices 0..45 (starting before 4545 ns) and pixel 81 slices
  // 46..136, a's being the even ones. Each pixel's first slice is a's.
  CHECK(svg.find("<rect x=\"80\" y=\"64\" width=\"1\" height=\"26\" fill=\"#4e79a7\"><title>"
                 "a on CPU 0: 0.000..0.005 ms (23 slices), and 23 shorter slices of other tasks</title>") !=
        std::string::npos);
  CHECK(svg.find("<rect x=\"81\" y=\"64\" width=\"1\" height=\"26\" fill=\"#4e79a7\"><title>"
                 "a on CPU 0: 0.005..0.014 ms (46 slices), and 45 shorter slices of other tasks</title>") !=
        std::string::npos);
  CHECK(svg.find("<rect x=\"82\" y=\"64\" width=\"1\" height=\"26\" fill=\"#f28e2b\"><title>b on") !=
        std::string::npos);
}

TEST_CASE("lab.svg: back-to-back slices of one task merge into one rectangle") {
  Timeline t;
  t.from_ns = 0;
  t.to_ns = 11 * kMs;  // 10 us a pixel
  t.ncpus = 1;
  t.task_names = {"solo"};
  t.task_group = {0};
  t.group_names = {"solo"};
  for (std::uint64_t i = 0; i < 1000; ++i) t.slices.push_back({0, 0, i * 10 * kUs + 1 * kUs, (i + 1) * 10 * kUs});
  const std::string svg = eevdf::lab::render_svg(t);
  CHECK(svg.find("<rect x=\"80\" y=\"64\" width=\"1000\" height=\"26\" fill=\"#4e79a7\">"
                 "<title>solo on CPU 0: 0.001..10.000 ms (1000 slices)</title></rect>") != std::string::npos);
}
