// The SVG timeline of a lab run (timeline.h): one lane of run slices per CPU over a
// time axis, a legend of groups and, when the driver chose tasks, a plot of their lag.
//
// Size: a lane draws at most one rectangle per pixel column, so that 10^5 slices give
// at most 1100 rectangles a lane, not 10^5. Consecutive slices of one task on one CPU
// whose gap is below one pixel merge into one rectangle. A slice that lies wholly
// inside pixels already drawn is absorbed by the rectangle drawn there, whose tooltip
// counts it; one that starts inside them begins at the next free pixel. So a pixel
// column shows the task whose slice reached it first, and a stretch where tasks switch
// faster than a pixel shows their colours interleaved. A lag polyline keeps at most
// four points per pixel column (its first, lowest, highest and last), which keeps its
// shape.
#include <algorithm>    // min, max
#include <array>        // palette
#include <cstddef>      // size_t
#include <cstdint>      // ns
#include <iterator>     // back_inserter
#include <string>       // the document
#include <string_view>  // escaping
#include <utility>      // forward
#include <vector>       // lanes, points

#include <fmt/format.h>

#include "lab/svg_scale.h"
#include "lab/timeline.h"

namespace eevdf::lab {
namespace {

using svg::Scale;

// The page: CPU labels left of the plot, then 1100 px of time.
constexpr int kWidth = 1200;
constexpr int kPlotLeft = 80;
constexpr int kPlotWidth = 1100;
constexpr int kPlotRight = kPlotLeft + kPlotWidth;
constexpr int kTop = 64;  // below the title and the window
constexpr int kLaneHeight = 26;
constexpr int kLaneGap = 6;
constexpr int kLagHeight = 200;
// A generous width of one character of 12 px sans-serif, so that text placed by it
// never overlaps.
constexpr int kCharWidth = 7;

int text_width(std::string_view s) { return static_cast<int>(s.size()) * kCharWidth; }

struct Rgb {
  int r = 0, g = 0, b = 0;
};

// Ten clearly distinct hues, one per group (group index mod 10).
constexpr std::array<Rgb, 10> kPalette{{{78, 121, 167},
                                        {242, 142, 43},
                                        {89, 161, 79},
                                        {225, 87, 89},
                                        {118, 183, 178},
                                        {237, 201, 72},
                                        {176, 122, 161},
                                        {255, 157, 167},
                                        {156, 117, 95},
                                        {186, 176, 172}}};

// The tasks of a group take turns at its base, a lighter and a darker shade, so that
// a switch between two tasks of one group shows.
Rgb shade(Rgb c, int ordinal) {
  switch (ordinal % 3) {
    case 1: return {c.r + (255 - c.r) * 2 / 5, c.g + (255 - c.g) * 2 / 5, c.b + (255 - c.b) * 2 / 5};
    case 2: return {c.r * 6 / 10, c.g * 6 / 10, c.b * 6 / 10};
    default: return c;
  }
}

std::string hex(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

bool is_light(Rgb c) { return 299 * c.r + 587 * c.g + 114 * c.b >= 150000; }

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// How a task is drawn: its escaped name, its fill and the ink of text on it.
struct Look {
  std::string name;
  std::string fill;
  std::string ink;
};

class Looks {
 public:
  explicit Looks(const Timeline& t) {
    std::vector<int> tasks_seen;  // per group
    for (std::size_t task = 0; task < t.task_names.size(); ++task) {
      const auto group = static_cast<std::size_t>(group_of(t, static_cast<int>(task)));
      if (group >= tasks_seen.size()) tasks_seen.resize(group + 1, 0);
      const Rgb c = shade(kPalette[group % kPalette.size()], tasks_seen[group]++);
      looks_.push_back({escape(t.task_names[task]), hex(c), is_light(c) ? "#000000" : "#ffffff"});
    }
  }
  Look of(int task) const {
    if (task >= 0 && task < static_cast<int>(looks_.size())) return looks_[static_cast<std::size_t>(task)];
    return {fmt::format("task {}", task), "#808080", "#ffffff"};
  }
  static int group_of(const Timeline& t, int task) {
    const bool known = task >= 0 && task < static_cast<int>(t.task_group.size());
    return known ? std::max(0, t.task_group[static_cast<std::size_t>(task)]) : 0;
  }

 private:
  std::vector<Look> looks_;
};

// Times in ms with `decimals` digits: 3 (us) for windows of 1 ms or more, else 6.
int ms_decimals(std::uint64_t span) { return span >= 1'000'000 ? 3 : 6; }
std::string ms(std::uint64_t ns, int decimals) {
  return svg::fixed(static_cast<std::int64_t>(ns), 1'000'000, decimals);
}

// The ticks of an axis: every `step` (a nice step), labelled in `unit` ns.
struct Ticks {
  std::int64_t step = 1;
  std::uint64_t unit = 1;
  int decimals = 0;
};

// Ticks of the time axis: about ten, in ms for windows of 1 ms or more, else in us,
// and never closer than their widest label.
Ticks time_ticks(std::uint64_t from, std::uint64_t to) {
  const std::uint64_t span = std::max<std::uint64_t>(1, to - from);
  Ticks ticks;
  ticks.unit = span >= 1'000'000 ? 1'000'000 : 1'000;
  std::uint64_t step = svg::nice_step(std::max<std::uint64_t>(1, span / 10));
  for (;; step = svg::nice_step(step + 1)) {
    ticks.decimals = svg::decimals_for(step, ticks.unit);
    const int widest = std::max(
        text_width(svg::fixed(static_cast<std::int64_t>(from), ticks.unit, ticks.decimals)),
        text_width(svg::fixed(static_cast<std::int64_t>(to), ticks.unit, ticks.decimals)));
    if (static_cast<svg::i128>(step) * kPlotWidth >= static_cast<svg::i128>(widest + 16) * span) break;
  }
  ticks.step = static_cast<std::int64_t>(step);
  return ticks;
}

std::vector<std::int64_t> tick_values(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  std::vector<std::int64_t> values;
  std::int64_t v = lo / step * step;
  if (v < lo) v += step;
  for (; v <= hi; v += step) values.push_back(v);
  return values;
}

class Page {
 public:
  explicit Page(const Timeline& t)
      : t_(t),
        looks_(t),
        from_(t.from_ns),
        to_(std::max(t.to_ns, t.from_ns + 1)),
        x_{static_cast<std::int64_t>(from_), static_cast<std::int64_t>(to_), kPlotLeft, kPlotWidth},
        ticks_(time_ticks(from_, to_)),
        times_(tick_values(x_.lo, x_.hi, ticks_.step)) {}

  std::string render() {
    title();
    lanes();
    time_axis(lanes_bottom());
    group_legend(y_ + 28);
    if (!t_.lag.empty()) lag_plot(y_ + 34);
    std::string doc = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
        "<title>{2}</title>\n"
        "<rect width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n",
        kWidth, y_ + 16, escape(t_.title));
    doc += body_;
    doc += "</svg>\n";
    return doc;
  }

 private:
  template <typename... Args>
  void emit(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(body_), format, std::forward<Args>(args)...);
  }

  int lanes_bottom() const { return kTop + std::max(0, t_.ncpus) * (kLaneHeight + kLaneGap); }

  void title() {
    const int decimals = ms_decimals(to_ - from_);
    emit("<text x=\"16\" y=\"26\" font-size=\"16\" font-weight=\"bold\">{}</text>\n", escape(t_.title));
    emit("<text x=\"16\" y=\"46\" fill=\"#444444\">window {}..{} ms ({} ms)</text>\n", ms(from_, decimals),
         ms(to_, decimals), ms(to_ - from_, decimals));
  }

  void grid(int top, int bottom) {
    for (const std::int64_t v : times_) {
      const int x = x_(v);
      emit("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#d0d0d0\"/>\n", x, top, bottom);
    }
  }

  void lanes() {
    std::vector<std::vector<RunSlice>> per_cpu(static_cast<std::size_t>(std::max(0, t_.ncpus)));
    for (const RunSlice& s : t_.slices) {
      if (s.cpu < 0 || s.cpu >= t_.ncpus || s.end_ns <= from_ || s.start_ns >= to_) continue;
      per_cpu[static_cast<std::size_t>(s.cpu)].push_back(s);
    }
    for (int cpu = 0; cpu < t_.ncpus; ++cpu) {
      const int y = kTop + cpu * (kLaneHeight + kLaneGap);
      emit("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">CPU {}</text>\n", kPlotLeft - 8, y + kLaneHeight / 2 + 4, cpu);
      emit("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f2f2f2\"/>\n", kPlotLeft, y, kPlotWidth,
           kLaneHeight);
    }
    grid(kTop - 4, lanes_bottom() - kLaneGap + 4);
    for (int cpu = 0; cpu < t_.ncpus; ++cpu) lane(cpu, per_cpu[static_cast<std::size_t>(cpu)]);
  }

  // A rectangle of a lane: `slices` slices of `task` from `start` to `end`, and
  // `absorbed` slices of other tasks too short to get a pixel of their own.
  struct Block {
    int task = 0;
    int x0 = 0, x1 = 0;
    std::uint64_t start = 0, end = 0;
    int slices = 1;
    int absorbed = 0;
  };

  // A lane's rectangles, at most one per pixel column: see the top of this file.
  std::vector<Block> blocks(const std::vector<RunSlice>& slices) const {
    const svg::i128 span = to_ - from_;
    std::vector<Block> out;
    for (const RunSlice& s : slices) {
      const std::uint64_t start = std::max(s.start_ns, from_), end = std::min(s.end_ns, to_);
      int x0 = std::min(x_(static_cast<std::int64_t>(start)), kPlotRight - 1);
      const int x1 = std::max(x_(static_cast<std::int64_t>(end)), x0 + 1);
      if (!out.empty()) {
        Block& last = out.back();
        const std::uint64_t gap = start > last.end ? start - last.end : 0;
        const bool adjacent = s.task == last.task && last.absorbed == 0;
        if (adjacent && static_cast<svg::i128>(gap) * kPlotWidth < span) {
          last.x1 = std::max(last.x1, x1);
          last.end = std::max(last.end, end);
          ++last.slices;
          continue;
        }
        if (x1 <= last.x1) {  // no pixel of its own
          if (s.task == last.task) {
            last.end = std::max(last.end, end);
            ++last.slices;
          } else {
            ++last.absorbed;
          }
          continue;
        }
        x0 = std::max(x0, last.x1);
      }
      out.push_back({s.task, x0, x1, start, end, 1, 0});
    }
    return out;
  }

  void lane(int cpu, const std::vector<RunSlice>& slices) {
    const int y = kTop + cpu * (kLaneHeight + kLaneGap);
    const int decimals = ms_decimals(to_ - from_);
    const std::vector<Block> drawn = blocks(slices);
    for (const Block& b : drawn) {
      const Look look = looks_.of(b.task);
      std::string tip = fmt::format("{} on CPU {}: {}..{} ms", look.name, cpu, ms(b.start, decimals), ms(b.end, decimals));
      if (b.slices > 1) tip += fmt::format(" ({} slices)", b.slices);
      if (b.absorbed > 0) tip += fmt::format(", and {} shorter slices of other tasks", b.absorbed);
      emit("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n", b.x0, y,
           b.x1 - b.x0, kLaneHeight, look.fill, tip);
    }
    // Two tasks of a group can share a shade (the fourth task takes the first's):
    // a white pixel marks where one follows the other.
    for (std::size_t i = 1; i < drawn.size(); ++i) {
      const Block& before = drawn[i - 1];
      const Block& after = drawn[i];
      if (before.x1 != after.x0 || before.task == after.task || before.x1 - before.x0 < 3 ||
          after.x1 - after.x0 < 3 || looks_.of(before.task).fill != looks_.of(after.task).fill) {
        continue;
      }
      emit("<rect x=\"{}\" y=\"{}\" width=\"1\" height=\"{}\" fill=\"#ffffff\"/>\n", after.x0, y, kLaneHeight);
    }
    emit("<g font-size=\"11\" pointer-events=\"none\">\n");
    for (const Block& b : drawn) {
      const Look look = looks_.of(b.task);
      // look.name is escaped: an entity counts as several characters, which errs wide.
      if (b.x1 - b.x0 < text_width(look.name) + 6) continue;
      emit("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", b.x0 + 3, y + kLaneHeight / 2 + 4, look.ink, look.name);
    }
    emit("</g>\n");
  }

  // The time axis along `y`: ticks, their labels and the unit below the last one.
  void time_axis(int y) {
    emit("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333333\"/>\n", kPlotLeft, y, kPlotRight);
    for (const std::int64_t v : times_) {
      const int x = x_(v);
      emit("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\n", x, y, y + 5);
      const std::string label = svg::fixed(v, ticks_.unit, ticks_.decimals);
      // A label centred on a tick near the page's right edge would be cut: it ends there.
      const bool at_edge = x + text_width(label) / 2 > kWidth - 4;
      emit("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>\n", x, y + 18, at_edge ? "end" : "middle", label);
    }
    emit("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#444444\">time ({})</text>\n", kPlotRight, y + 34,
         ticks_.unit == 1'000'000 ? "ms" : "us");
    y_ = y + 34;
  }

  // A row of legend entries from the plot's left, wrapping at the page's right.
  // Each entry is `swatch` (SVG drawn at x, y) and a label.
  struct Entry {
    std::string swatch;
    std::string label;  // escaped
  };
  void legend(int y, std::string_view heading, const std::vector<Entry>& entries) {
    emit("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#444444\">{}</text>\n", kPlotLeft - 8, y, heading);
    int x = kPlotLeft;
    for (const Entry& e : entries) {
      const int width = 20 + text_width(e.label) + 24;
      if (x > kPlotLeft && x + width > kWidth - 16) {
        x = kPlotLeft;
        y += 20;
      }
      emit("<g transform=\"translate({},{})\">{}<text x=\"20\" y=\"0\">{}</text></g>\n", x, y, e.swatch, e.label);
      x += width;
    }
    y_ = y;
  }

  void group_legend(int y) {
    std::vector<Entry> entries;
    for (std::size_t g = 0; g < t_.group_names.size(); ++g) {
      entries.push_back({fmt::format("<rect x=\"0\" y=\"-10\" width=\"14\" height=\"12\" fill=\"{}\"/>",
                                     hex(kPalette[g % kPalette.size()])),
                         escape(t_.group_names[g])});
    }
    legend(y, "groups", entries);
  }

  void lag_plot(int top);
  void lag_series(const LagSeries& series, const Scale& y);

  const Timeline& t_;
  Looks looks_;
  std::uint64_t from_, to_;  // the window, never empty
  Scale x_;
  Ticks ticks_;
  std::vector<std::int64_t> times_;  // of the ticks
  std::string body_;
  int y_ = 0;  // the bottom of what is drawn so far
};

// The lag plot from `top`: a heading, the area with its y axis in us, one polyline
// per series, the time axis again and a legend of the series.
void Page::lag_plot(int top) {
  std::int64_t lo = 0, hi = 0;  // the range of the lags drawn, with 0 in it
  for (const LagSeries& series : t_.lag) {
    for (const LagSample& s : series.samples) {
      if (!s.queued || s.time_ns < from_ || s.time_ns > to_) continue;
      lo = std::min(lo, s.lag_ns);
      hi = std::max(hi, s.lag_ns);
    }
  }
  if (lo == hi) hi = lo + 1000;
  const auto step = static_cast<std::int64_t>(svg::nice_step(static_cast<std::uint64_t>(hi - lo) / 5 + 1));
  // Out to whole steps: lo <= 0 <= hi, so that truncation rounds towards 0.
  lo = lo % step == 0 ? lo : (lo / step - 1) * step;
  hi = hi % step == 0 ? hi : (hi / step + 1) * step;
  const int area_top = top + 12, area_bottom = area_top + kLagHeight;
  const Scale y{lo, hi, area_bottom, -kLagHeight};
  const int decimals = svg::decimals_for(static_cast<std::uint64_t>(step), 1000);

  emit("<text x=\"{}\" y=\"{}\" font-weight=\"bold\">lag = V - vruntime (us); above 0: owed service</text>\n",
       kPlotLeft, top);
  emit("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#999999\"/>\n", kPlotLeft,
       area_top, kPlotWidth, kLagHeight);
  grid(area_top, area_bottom);
  for (const std::int64_t v : tick_values(lo, hi, step)) {
    const int py = y(v);
    emit("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\"/>\n", kPlotLeft - 4, py, kPlotRight,
         v == 0 ? "#333333" : "#e0e0e0");
    emit("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kPlotLeft - 8, py + 4,
         svg::fixed(v, 1000, decimals));
  }
  for (const LagSeries& series : t_.lag) lag_series(series, y);
  time_axis(area_bottom);

  std::vector<Entry> entries;
  for (const LagSeries& series : t_.lag) {
    const Look look = looks_.of(series.task);
    entries.push_back({fmt::format("<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"{}\" stroke-width=\"3\"/>",
                                   look.fill),
                       look.name});
  }
  legend(y_ + 24, "lag of", entries);
}

struct Point {
  int x = 0, y = 0;
};

// At most four points per pixel column: its first, lowest, highest and last point,
// in their order.
std::vector<Point> compact(const std::vector<Point>& points) {
  std::vector<Point> out;
  for (std::size_t i = 0; i < points.size();) {
    std::size_t end = i, low = i, high = i;
    for (; end < points.size() && points[end].x == points[i].x; ++end) {
      if (points[end].y > points[low].y) low = end;  // y grows downwards
      if (points[end].y < points[high].y) high = end;
    }
    std::array<std::size_t, 4> keep{i, std::min(low, high), std::max(low, high), end - 1};
    for (std::size_t k = 0; k < keep.size(); ++k) {
      if (k > 0 && keep[k] == keep[k - 1]) continue;
      const Point p = points[keep[k]];
      if (out.empty() || out.back().x != p.x || out.back().y != p.y) out.push_back(p);
    }
    i = end;
  }
  return out;
}

// A series as polylines in its task's colour, one per run of queued samples (a lone
// sample is a dot).
void Page::lag_series(const LagSeries& series, const Scale& y) {
  const Look look = looks_.of(series.task);
  std::vector<Point> run;
  const auto flush = [&] {
    const std::vector<Point> points = compact(run);
    run.clear();
    if (points.size() == 1) {
      emit("<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"{}\"/>\n", points[0].x, points[0].y, look.fill);
    } else if (points.size() > 1) {
      emit("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"", look.fill);
      for (std::size_t i = 0; i < points.size(); ++i) emit("{}{},{}", i == 0 ? "" : " ", points[i].x, points[i].y);
      emit("\"><title>lag of {}</title></polyline>\n", look.name);
    }
  };
  for (const LagSample& s : series.samples) {
    if (s.time_ns < from_ || s.time_ns > to_) continue;
    if (!s.queued) {
      flush();
      continue;
    }
    run.push_back({x_(static_cast<std::int64_t>(s.time_ns)), y(s.lag_ns)});
  }
  flush();
}

}  // namespace

std::string render_svg(const Timeline& timeline) { return Page(timeline).render(); }

}  // namespace eevdf::lab
