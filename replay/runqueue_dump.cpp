// See runqueue_dump.h.
#include "replay/runqueue_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace eevdf::replay {

// The sums under the names the tree gives them (detected from the fields its code uses).
static bool renamed_sums(unsigned shape) { return (shape & KSRC_SHAPE_SUM_W_VRUNTIME) != 0; }

const char* sum_name(unsigned shape) {
  return renamed_sums(shape) ? "sum_w_vruntime" : "avg_vruntime";
}
const char* sum_weight_name(unsigned shape) {
  return renamed_sums(shape) ? "sum_weight" : "avg_load";
}
const char* v0_name(unsigned shape) {
  return (shape & KSRC_SHAPE_ZERO_VRUNTIME) != 0 ? "zero_vruntime" : "min_vruntime";
}

namespace {

std::string task_or_none(int id) { return id == 0 ? "-" : std::to_string(id); }

std::string flags_of(const EntityDump& e) {
  std::string out;
  const auto add = [&](bool on, const char* name) {
    if (on) out += (out.empty() ? "" : ",") + std::string(name);
  };
  add(!e.on_rq, "!on_rq");
  add(e.sched_delayed, "sched_delayed");
  add(e.rel_deadline, "rel_deadline");
  add(e.custom_slice, "custom_slice");
  return out.empty() ? "-" : out;
}

}  // namespace

std::string format_runqueue(const RunqueueDump& d, const std::string& indent) {
  std::string out = fmt::format("{}runqueue of CPU {} ({}):\n", indent, d.cpu, d.source);
  out += fmt::format("{}  curr {}  next {}  need_resched {}  rq->nr_running {}  nr_queued {}  h_nr_queued {}  "
                     "h_nr_runnable {}{}\n",
                     indent, task_or_none(d.curr), task_or_none(d.next), d.need_resched ? 1 : 0, d.rq_nr_running,
                     d.nr_queued, d.h_nr_queued, d.h_nr_runnable,
                     d.has(KSRC_SHAPE_H_NR_DELAYED) ? fmt::format("  h_nr_delayed {}", d.h_nr_delayed) : "");
  out += fmt::format("{}  load.weight {}  {} {}  {} {}{}  {} {}  avg_vruntime() (V) {}\n", indent, d.load_weight,
                     sum_name(d.shape), d.sum_w_vruntime, sum_weight_name(d.shape), d.sum_weight,
                     d.has(KSRC_SHAPE_SUM_SHIFT) ? fmt::format("  sum_shift {}", d.sum_shift) : "", v0_name(d.shape),
                     d.v0, d.V);
  if (d.entities.empty()) return out + indent + "  (no entity)\n";
  const bool vprot = d.has(KSRC_SHAPE_VPROT);
  out += fmt::format("{}  {:>5} {:<4} {:>20} {:>20} {:>20}{} {:>10} {:>7} {:>8}  {}\n", indent, "task", "", "vruntime",
                     "deadline", "vlag", vprot ? fmt::format(" {:>20}", "vprot") : "", "slice", "weight", "eligible",
                     "flags");
  for (const EntityDump& e : d.entities)
    out += fmt::format("{}  {:>5} {:<4} {:>20} {:>20} {:>20}{} {:>10} {:>7} {:>8}  {}\n", indent, e.task,
                       e.is_curr ? "curr" : "tree", e.vruntime, e.deadline, e.vlag,
                       vprot ? fmt::format(" {:>20}", e.vprot) : "", e.slice, e.weight, e.eligible ? "yes" : "no",
                       flags_of(e));
  return out;
}

nlohmann::json runqueue_json(const RunqueueDump& d) {
  nlohmann::json j;
  j["source"] = d.source;
  j["cpu"] = d.cpu;
  j["curr"] = d.curr;
  j["next"] = d.next;
  j["need_resched"] = d.need_resched;
  j["rq_nr_running"] = d.rq_nr_running;
  j["nr_queued"] = d.nr_queued;
  j["h_nr_queued"] = d.h_nr_queued;
  j["h_nr_runnable"] = d.h_nr_runnable;
  if (d.has(KSRC_SHAPE_H_NR_DELAYED)) j["h_nr_delayed"] = d.h_nr_delayed;
  j["load_weight"] = d.load_weight;
  j[sum_name(d.shape)] = d.sum_w_vruntime;
  j[sum_weight_name(d.shape)] = d.sum_weight;
  if (d.has(KSRC_SHAPE_SUM_SHIFT)) j["sum_shift"] = d.sum_shift;
  j[v0_name(d.shape)] = d.v0;
  j["V"] = d.V;
  j["entities"] = nlohmann::json::array();
  for (const EntityDump& e : d.entities) {
    nlohmann::json x = {{"task", e.task},         {"curr", e.is_curr},       {"on_rq", e.on_rq},
                        {"vruntime", e.vruntime}, {"deadline", e.deadline},  {"vlag", e.vlag},
                        {"slice", e.slice},       {"weight", e.weight},      {"eligible", e.eligible},
                        {"sched_delayed", e.sched_delayed}, {"rel_deadline", e.rel_deadline},
                        {"custom_slice", e.custom_slice}};
    if (d.has(KSRC_SHAPE_VPROT)) x["vprot"] = e.vprot;
    j["entities"].push_back(x);
  }
  return j;
}

int report_cpu(int violation_cpu, int violation_task, const trace::Event* event,
               const std::function<int(int)>& cpu_of_task) {
  if (violation_cpu >= 0) return violation_cpu;
  if (violation_task != 0) return cpu_of_task(violation_task);
  if (event == nullptr) return -1;
  if (event->cpu) return *event->cpu;
  return event->task != 0 ? cpu_of_task(event->task) : -1;
}

namespace {

struct Compare {
  std::string out;
  const std::string& a_name;
  const std::string& b_name;
  template <class T>
  void check(const std::string& where, const char* field, const T& a, const T& b) {
    if (out.empty() && !(a == b)) out = fmt::format("{}: {}: {} {}, {} {}", where, field, a_name, a, b_name, b);
  }
};

std::map<int, const EntityDump*> by_task(const RunqueueDump& d) {
  std::map<int, const EntityDump*> m;
  for (const EntityDump& e : d.entities) m[e.task] = &e;
  return m;
}

// Where vprot shares vlag's storage (6.18, 6.19), the bits of an entity on the
// runqueue are whichever was written last: vprot while it ran, vlag when it left. The
// kernel reads them as vlag only after update_entity_lag() wrote them on the way out,
// and as vprot only while the entity is curr; on the runqueue they are otherwise stale.
void compare_entity(Compare& c, const std::string& where, const EntityDump& a, const EntityDump& b, bool shared) {
  c.check(where, "in_tree", a.in_tree, b.in_tree);
  c.check(where, "curr", a.is_curr, b.is_curr);
  c.check(where, "on_rq", a.on_rq, b.on_rq);
  c.check(where, "sched_delayed", a.sched_delayed, b.sched_delayed);
  c.check(where, "load.weight", a.weight, b.weight);
  c.check(where, "load.inv_weight", a.inv_weight, b.inv_weight);
  c.check(where, "slice", a.slice, b.slice);
  c.check(where, "custom_slice", a.custom_slice, b.custom_slice);
  c.check(where, "vruntime", a.vruntime, b.vruntime);
  c.check(where, "deadline", a.deadline, b.deadline);
  c.check(where, "rel_deadline", a.rel_deadline, b.rel_deadline);
  if (!shared) c.check(where, "vlag", a.vlag, b.vlag);
  if (a.is_curr && b.is_curr) c.check(where, "vprot", a.vprot, b.vprot);
  c.check(where, "eligible", a.eligible, b.eligible);  // derived from the values above and V
  if (a.augmented && b.augmented) {
    c.check(where, "min_vruntime (subtree)", a.min_vruntime, b.min_vruntime);
    c.check(where, "min_slice (subtree)", a.min_slice, b.min_slice);
    c.check(where, "max_slice (subtree)", a.max_slice, b.max_slice);
  }
}

}  // namespace

bool augmented_slice_stale(const RunqueueDump& d) {
  const EntityDump* root = nullptr;
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (const EntityDump& e : d.entities) {
    if (!e.in_tree) continue;
    if (e.is_root && e.augmented) root = &e;
    lo = std::min(lo, e.slice);
    hi = std::max(hi, e.slice);
  }
  if (root == nullptr) return false;
  return (d.has(KSRC_SHAPE_MIN_SLICE) && root->min_slice != lo) || (d.has(KSRC_SHAPE_MAX_SLICE) && root->max_slice != hi);
}

std::string first_runqueue_difference(const RunqueueDump& a, const RunqueueDump& b, const std::string& a_name,
                                      const std::string& b_name) {
  Compare c{"", a_name, b_name};
  const std::string where = fmt::format("CPU {}", a.cpu);
  c.check(where, "curr", a.curr, b.curr);
  c.check(where, "next", a.next, b.next);
  c.check(where, "need_resched", a.need_resched, b.need_resched);
  c.check(where, "rq->nr_running", a.rq_nr_running, b.rq_nr_running);
  c.check(where, "nr_queued", a.nr_queued, b.nr_queued);
  c.check(where, "h_nr_queued", a.h_nr_queued, b.h_nr_queued);
  c.check(where, "h_nr_runnable", a.h_nr_runnable, b.h_nr_runnable);
  if (a.has(KSRC_SHAPE_H_NR_DELAYED) && b.has(KSRC_SHAPE_H_NR_DELAYED))
    c.check(where, "h_nr_delayed", a.h_nr_delayed, b.h_nr_delayed);
  // Entity by entity in task order (the tree's order is compared through the deadlines
  // and vruntimes it is keyed by).
  const auto ea = by_task(a), eb = by_task(b);
  auto ia = ea.begin(), ib = eb.begin();
  while (c.out.empty() && (ia != ea.end() || ib != eb.end())) {
    if (ib == eb.end() || (ia != ea.end() && ia->first < ib->first)) {
      c.out = fmt::format("{}: task {}: on the runqueue in {}, not in {}", where, ia->first, a_name, b_name);
    } else if (ia == ea.end() || ib->first < ia->first) {
      c.out = fmt::format("{}: task {}: on the runqueue in {}, not in {}", where, ib->first, b_name, a_name);
    } else {
      compare_entity(c, fmt::format("{}: task {}", where, ia->first), *ia->second, *ib->second,
                     a.has(KSRC_SHAPE_VPROT_IN_VLAG) || b.has(KSRC_SHAPE_VPROT_IN_VLAG));
      ++ia, ++ib;
    }
  }
  // The sums, v0 and V after the entities they are made of: a differing entity is the cause.
  c.check(where, "load.weight", a.load_weight, b.load_weight);
  c.check(where, sum_name(a.shape), a.sum_w_vruntime, b.sum_w_vruntime);
  c.check(where, sum_weight_name(a.shape), a.sum_weight, b.sum_weight);
  c.check(where, "sum_shift", a.sum_shift, b.sum_shift);
  c.check(where, v0_name(a.shape), a.v0, b.v0);
  c.check(where, "V", a.V, b.V);
  return c.out;
}

}  // namespace eevdf::replay
