// Topology construction and queries (docs/TRACE_FORMAT.md `topology`; numbering in topology.h).
#include "model/topology.h"

#include <algorithm>  // std::min
#include <cassert>    // assert
#include <cstdint>    // std::int64_t

namespace eevdf::model {

namespace {

// docs/TRACE_FORMAT.md `topology`: one header number must be 1..NR_CPUS_MAX; empty if it is.
std::string count_error(const char* what, int value) {
  assert(what != nullptr);
  if (value >= 1 && value <= NR_CPUS_MAX) {
    return {};
  }
  return std::string("topology: ") + what + " must be 1.." + std::to_string(NR_CPUS_MAX) +
         ", got " + std::to_string(value);
}

// docs/TRACE_FORMAT.md `topology`: the CPU count, in 64 bits so that no field combination
// overflows; only meaningful once every field is within 1..NR_CPUS_MAX.
std::int64_t cpu_count(const Topology& t) {
  assert(t.sockets <= NR_CPUS_MAX && t.cores_per_socket <= NR_CPUS_MAX * NR_CPUS_MAX &&
         t.smt <= NR_CPUS_MAX && "fields bounded before multiplying");
  const std::int64_t n = std::int64_t{t.sockets} * t.cores_per_socket * t.smt;
  assert(n >= 0);
  return n;
}

// docs/TRACE_FORMAT.md `topology`: the structural invariant every query relies on.
bool well_formed(const Topology& t) {
  const bool fields_in_range = t.sockets >= 1 && t.sockets <= NR_CPUS_MAX &&
                               t.llcs_per_socket >= 1 && t.llcs_per_socket <= NR_CPUS_MAX &&
                               t.cores_per_llc >= 1 && t.cores_per_llc <= NR_CPUS_MAX &&
                               t.smt >= 1 && t.smt <= NR_CPUS_MAX;
  if (!fields_in_range) {
    return false;
  }
  // Only the last LLC of a socket may be partial, and it is never empty.
  const bool llcs_fit = t.cores_per_socket > (t.llcs_per_socket - 1) * t.cores_per_llc &&
                        t.cores_per_socket <= t.llcs_per_socket * t.cores_per_llc;
  return llcs_fit && cpu_count(t) <= NR_CPUS_MAX;
}

// docs/TRACE_FORMAT.md `topology`: accept a shape whose fields are in range iff it has at most
// NR_CPUS_MAX CPUs.
TopologyResult finish(const Topology& t) {
  assert(t.sockets >= 1 && t.cores_per_socket >= 1 && t.smt >= 1 && "fields checked first");
  const std::int64_t n = cpu_count(t);
  if (n > NR_CPUS_MAX) {
    return {std::nullopt, "topology: " + std::to_string(n) + " CPUs, more than the " +
                              std::to_string(NR_CPUS_MAX) + " the model supports"};
  }
  assert(well_formed(t));
  return {t, {}};
}

}  // namespace

// docs/TRACE_FORMAT.md `topology AxB`.
TopologyResult Topology::short_form(int sockets, int cores_per_socket) {
  for (const std::string& e :
       {count_error("sockets", sockets), count_error("cores per socket", cores_per_socket)}) {
    if (!e.empty()) {
      return {std::nullopt, e};
    }
  }
  const int cores_per_llc = std::min(cores_per_socket, SHORT_FORM_LLC_CORES);
  const int llcs = (cores_per_socket + cores_per_llc - 1) / cores_per_llc;
  assert(llcs >= 1 && (llcs - 1) * cores_per_llc < cores_per_socket && "last LLC non-empty");
  return finish({sockets, llcs, cores_per_llc, 1, cores_per_socket});
}

// docs/TRACE_FORMAT.md `topology sockets= llcs= cores= smt=`.
TopologyResult Topology::long_form(int sockets, int llcs_per_socket, int cores_per_llc,
                                   int smt) {
  for (const std::string& e :
       {count_error("sockets", sockets), count_error("llcs", llcs_per_socket),
        count_error("cores", cores_per_llc), count_error("smt", smt)}) {
    if (!e.empty()) {
      return {std::nullopt, e};
    }
  }
  // Both factors are <= NR_CPUS_MAX, so the product fits int (<= 2^24).
  const int cores_per_socket = llcs_per_socket * cores_per_llc;
  assert(cores_per_socket >= 1);
  return finish({sockets, llcs_per_socket, cores_per_llc, smt, cores_per_socket});
}

// docs/TRACE_FORMAT.md: the default `topology 2x64`.
Topology Topology::trace_default() {
  const TopologyResult r = short_form(2, 64);
  assert(r.topology.has_value() && r.error.empty());
  assert(r.topology->llcs_per_socket == 8 && r.topology->cores_per_llc == 8);
  return *r.topology;
}

// docs/TRACE_FORMAT.md `topology`: sockets * cores_per_socket * smt.
int Topology::ncpus() const {
  assert(well_formed(*this) && "queries need a valid topology");
  const int n = sockets * cores_per_socket * smt;
  assert(n >= 1 && n <= NR_CPUS_MAX);
  return n;
}

// topology.h numbering: SMT siblings are adjacent, so the core is cpu / smt.
int Topology::core_of(int cpu) const {
  const int core = checked_cpu(cpu) / smt;
  assert(core >= 0 && core < sockets * cores_per_socket);
  return core;
}

// topology.h numbering: sockets hold consecutive cores.
int Topology::socket_of(int cpu) const {
  const int socket = core_of(cpu) / cores_per_socket;
  assert(socket >= 0 && socket < sockets);
  return socket;
}

// topology.h numbering: LLC index within the socket is core_in_socket / cores_per_llc, so
// a partial last LLC is handled without assuming uniform LLC sizes.
int Topology::llc_of(int cpu) const {
  const int core_in_socket = core_of(cpu) % cores_per_socket;
  const int llc = socket_of(cpu) * llcs_per_socket + core_in_socket / cores_per_llc;
  assert(llc >= 0 && llc < sockets * llcs_per_socket);
  return llc;
}

// docs/TRACE_FORMAT.md `topology`: LLC sharing decides wakeup-affine targets.
bool Topology::same_llc(int a, int b) const {
  const bool same = llc_of(a) == llc_of(b);
  assert((!same || socket_of(a) == socket_of(b)) && "an LLC never spans sockets");
  return same;
}

// docs/TRACE_FORMAT.md `topology`: socket membership.
bool Topology::same_socket(int a, int b) const {
  const bool same = socket_of(a) == socket_of(b);
  assert(same || !same_llc(a, b));
  return same;
}

// docs/TRACE_FORMAT.md `topology`: SMT siblings share a core.
bool Topology::smt_siblings(int a, int b) const {
  const bool siblings = core_of(a) == core_of(b);
  assert((!siblings || smt > 1 || a == b) && "without SMT a CPU is only its own sibling");
  return siblings;
}

// topology.h: every query's precondition, a CPU id in 0..ncpus-1.
int Topology::checked_cpu(int cpu) const {
  assert(well_formed(*this) && "queries need a valid topology");
  assert(cpu >= 0 && cpu < ncpus() && "CPU id out of range");
  return cpu;
}

}  // namespace eevdf::model
