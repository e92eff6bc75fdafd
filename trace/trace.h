// The trace format v1 as data: what docs/TRACE_FORMAT.md describes, after parsing.
// Plain values only, so generators, shrinkers and the writer can build and edit
// traces without the parser.
#pragma once

#include <array>     // the name tables
#include <cstdint>   // std::uint64_t, std::int64_t
#include <map>       // the task lookup, expectation lines
#include <optional>  // optional header values and event arguments
#include <string>    // names
#include <string_view>  // index_of
#include <utility>   // std::pair
#include <variant>   // BodyStatement
#include <vector>    // repeated header lines

namespace eevdf::trace {

inline constexpr int kFormatVersion = 1;

enum class Arith { kernel, ideal, both };

// `topology AxB` or `topology sockets= llcs= cores= smt=`; the model builds the
// real topology from it. Kept in its written form so the writer round-trips it.
struct TopologySpec {
  bool long_form = false;
  int sockets = 2;
  int cores_per_socket = 64;  // short form only
  int llcs = 8;               // long form only: LLCs per socket
  int cores = 8;              // long form only: cores per LLC
  int smt = 1;                // long form only: threads per core
  int ncpus() const;
  bool operator==(const TopologySpec&) const = default;
};

struct TaskDecl {
  int id = 0;
  int nice = 0;
  std::uint64_t slice_ns = 0;  // 0: the default slice
  std::string name;
  std::optional<int> cpu;
  int line = 0;
  bool operator==(const TaskDecl& o) const {
    return id == o.id && nice == o.nice && slice_ns == o.slice_ns && name == o.name &&
           cpu == o.cpu;
  }
};

enum class Verb { fork, wake, sleep, tick, migrate, renice, setslice, yield, exit };
enum class Io { none, io, noacct };

// One event line. Which fields are meaningful depends on the verb (docs/TRACE_FORMAT.md).
struct Event {
  int line = 0;
  int column = 0;              // where the task (or else the verb) is written, for messages
  std::uint64_t time_ns = 0;
  Verb verb = Verb::tick;
  int task = 0;                // 0 when the event names a CPU instead of a task
  std::optional<int> cpu;      // cpu=<c>, or the CPU of `tick <cpu>`
  bool all_cpus = false;       // `tick all`
  Io io = Io::none;            // sleep only
  int nice = 0;                // renice only
  std::uint64_t slice_ns = 0;  // setslice only (0: default slice)
  bool operator==(const Event& o) const {
    return time_ns == o.time_ns && verb == o.verb && task == o.task && cpu == o.cpu &&
           all_cpus == o.all_cpus && io == o.io && nice == o.nice && slice_ns == o.slice_ns;
  }
};

enum class Query {
  curr, state, cpu, eligible, protected_, lag, ideal_lag, deadline_rel, slice, weight,
  nr_running, nr_runnable, nr_iowait, nr_iowait_acct, sum_exec, measure
};
enum class TaskState { new_, running, queued, delayed, blocked, exited };
enum class CompareOp { lt, le, eq, ge, gt };

// An exact rational p/q with q > 0, kept as decimal text so that values of any
// size survive parsing (ideal.lag can exceed 64 bits); the model parses it.
struct RationalText {
  std::string numerator = "0";
  std::string denominator = "1";
  bool operator==(const RationalText&) const = default;
};

// A state query, checked right after the event before it.
struct Expect {
  int line = 0;
  Query query = Query::curr;
  int subject = 0;            // task id, or CPU for curr and nr_* queries
  std::int64_t value = 0;     // task id (0 = idle), TaskState, 0/1, integer or ns
  RationalText rational;      // ideal.lag; measure value (exact decimal)
  std::string measure;        // measure name
  CompareOp op = CompareOp::eq;
  bool operator==(const Expect& o) const {
    return query == o.query && subject == o.subject && value == o.value &&
           rational == o.rational && measure == o.measure && op == o.op;
  }
};

struct Header {
  std::vector<std::string> preamble;  // comment lines before `eevdf-trace 1`
  std::optional<std::string> kernel;
  std::optional<Arith> arith;
  std::optional<TopologySpec> topology;
  std::optional<int> hz;
  std::optional<std::uint64_t> base_slice_ns;
  // Effective setting per feature name, in order of first mention (a later word wins).
  std::vector<std::pair<std::string, bool>> features;
  std::vector<std::string> injections;
  std::vector<TaskDecl> tasks;
  std::vector<std::string> expect_violations;
  // `expect finding NAME`: the known finding that must occur, within its condition,
  // and nothing else (replay/finding_conditions.h).
  std::vector<std::string> expect_findings;
  // The header line of each trace-wide expectation, keyed "violation P" or "finding
  // NAME", for messages (not part of the trace's meaning, as Event::line).
  std::map<std::string, int> expectation_lines;
  bool expect_clean = false;
  std::vector<Expect> initial_expects;  // queries on the initial state

 private:
  mutable std::map<int, std::size_t> task_lookup_;  // id -> index, for the first lookup_count_ tasks
  mutable std::size_t lookup_count_ = 0;

 public:

  TopologySpec topology_or_default() const { return topology.value_or(TopologySpec{}); }
  int hz_or_default() const { return hz.value_or(1000); }
  Arith arith_or_default() const { return arith.value_or(Arith::kernel); }
  // By id; a cached index keeps this O(log n) for headers of thousands of tasks.
  const TaskDecl* find_task(int id) const;
  bool has_trace_expectations() const {
    return expect_clean || !expect_violations.empty() || !expect_findings.empty();
  }
  bool operator==(const Header& o) const {
    return kernel == o.kernel && arith == o.arith && topology == o.topology && hz == o.hz &&
           base_slice_ns == o.base_slice_ns && features == o.features &&
           injections == o.injections && tasks == o.tasks &&
           expect_violations == o.expect_violations && expect_findings == o.expect_findings &&
           expect_clean == o.expect_clean &&
           initial_expects == o.initial_expects;
  }
};

using BodyStatement = std::variant<Event, Expect>;

// A whole trace in memory: for generators, shrinkers and tests. `replay` streams.
struct Trace {
  Header header;
  std::vector<BodyStatement> body;
  bool operator==(const Trace&) const = default;
};

// The words of the format, indexed by the enumerations above.
inline constexpr std::array<const char*, 9> kVerbNames{
    "fork", "wake", "sleep", "tick", "migrate", "renice", "setslice", "yield", "exit"};
inline constexpr std::array<const char*, 16> kQueryNames{
    "curr",   "state",  "cpu",        "eligible",    "protected", "lag",            "ideal.lag", "deadline_rel",
    "slice",  "weight", "nr_running", "nr_runnable", "nr_iowait", "nr_iowait_acct", "sum_exec",  "measure"};
inline constexpr std::array<const char*, 6> kStateNames{"new", "running", "queued", "delayed", "blocked", "exited"};
inline constexpr std::array<const char*, 5> kOpNames{"<", "<=", "==", ">=", ">"};
inline constexpr std::array<const char*, 3> kArithNames{"kernel", "ideal", "both"};

inline const char* verb_name(Verb v) { return kVerbNames.at(static_cast<std::size_t>(v)); }
inline const char* query_name(Query q) { return kQueryNames.at(static_cast<std::size_t>(q)); }
inline const char* state_name(TaskState s) { return kStateNames.at(static_cast<std::size_t>(s)); }
inline const char* op_name(CompareOp o) { return kOpNames.at(static_cast<std::size_t>(o)); }
inline const char* arith_name(Arith a) { return kArithNames.at(static_cast<std::size_t>(a)); }

// The index of `word` in `names`, or -1.
template <std::size_t N>
int index_of(const std::array<const char*, N>& names, std::string_view word) {
  for (std::size_t i = 0; i < N; ++i)
    if (word == names[i]) return static_cast<int>(i);
  return -1;
}

}  // namespace eevdf::trace
