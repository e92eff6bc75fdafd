// What the lab's driver runs its events on: an implementation of the fair class with
// the properties checked after every event. The reference model (either arithmetic,
// the workload's profile) or the real fair.c of a kernel tree (kernel-src, judged by
// its mirror). The driver reads back only what a trace could observe.
#pragma once

#include <cstdint>   // counts
#include <map>       // evaluated counts
#include <memory>    // the target
#include <optional>  // lag
#include <string>    // reasons, names
#include <vector>    // specs

#include "model/config.h"
#include "model/machine.h"  // task_state, TaskSpec
#include "properties/property.h"
#include "properties/registry.h"
#include "trace/trace.h"

namespace eevdf::lab {

class Target {
 public:
  virtual ~Target() = default;
  // Applies `e` with the checks around it; the reason when the implementation
  // refuses it (then nothing changed).
  virtual std::string apply(const trace::Event& e) = 0;
  virtual int curr(int cpu) const = 0;  // the running task's index, -1: idle
  virtual model::task_state state(int p) const = 0;
  virtual int cpu_of(int p) const = 0;
  virtual std::int64_t nr_iowait(int cpu) const = 0;
  virtual std::int64_t nr_iowait_acct(int cpu) const = 0;
  // V - vruntime of a queued task's runqueue in virtual ns, rounded toward zero;
  // nullopt when it is not queued.
  virtual std::optional<std::int64_t> lag_ns(int p) const = 0;
  // Whether the implementation met a condition it cannot go past (a crash, an
  // s64 overflow the kernel dies on): the run stops there.
  virtual bool halted() const = 0;
  // The end of the run: the end-of-trace checks.
  virtual void finish() = 0;
  // How often each property was judged (its statement evaluated past its hypothesis).
  virtual void tally(std::map<std::string, std::uint64_t>& evaluated) const = 0;
};

// Which implementation, in which terms.
struct TargetSpec {
  enum Kind { reference, kernel_tree } kind = reference;
  trace::Arith arith = trace::Arith::kernel;  // reference only
  std::string tree;                           // kernel_tree: its directory, selected before the run
  properties::Selection selection;
};

// Throws trace::TraceError (exit 2) when the implementation cannot run this header
// (a tree without forms for its shape, a profile it does not follow).
std::unique_ptr<Target> make_target(const TargetSpec& spec, const trace::Header& header, properties::Sink& sink,
                                    const std::string& file);

}  // namespace eevdf::lab
