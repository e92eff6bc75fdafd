// The machine's shape (docs/TRACE_FORMAT.md `topology` header): sockets, last-level caches,
// cores and SMT threads, and the CPU-numbering queries the wakeup and migration paths ask.
//
// CPU numbering: cpu = (socket * cores_per_socket + core_in_socket) * smt + thread, so SMT
// siblings are adjacent, the cores of one LLC are contiguous and sockets follow each other.
// LLC membership is core_in_socket / cores_per_llc: the last LLC of a socket may be
// partial (short form 1x12 = one LLC of 8 cores and one of 4), so LLC sizes need not be
// uniform and cores_per_socket is stored rather than derived.
//
// Errors: a header's numbers are user input, so short_form/long_form report a bad shape
// as a value (TopologyResult::error) and never throw or assert; the trace reader turns it
// into exit 2. Queries on a Topology assert their preconditions (a valid shape, a CPU in
// 0..ncpus-1): breaking those is a bug in the tool, not bad input.
#pragma once

#include <optional>  // std::optional
#include <string>    // std::string

namespace eevdf::model {

/// The most CPUs a topology may have. Every event can touch every CPU (`tick all`, the
/// ascending reschedule pass), and a search replays millions of events, so the bound keeps
/// that work and per-CPU state small; it also keeps every product of header numbers far
/// from int overflow. Today's largest servers fit.
inline constexpr int NR_CPUS_MAX = 4096;

/// docs/TRACE_FORMAT.md: the short form `AxB` groups each socket's cores into LLCs of 8.
inline constexpr int SHORT_FORM_LLC_CORES = 8;

struct TopologyResult;

/// docs/TRACE_FORMAT.md `topology`: build with short_form/long_form, not field by field.
struct Topology {
  int sockets;
  int llcs_per_socket;  // ceil(cores_per_socket / cores_per_llc)
  int cores_per_llc;    // cores in a full LLC; a socket's last LLC may hold fewer
  int smt;              // hardware threads per core
  int cores_per_socket;

  /// docs/TRACE_FORMAT.md `topology AxB`: LLCs of 8 cores (the last one partial when B is not
  /// a multiple of 8), one LLC per socket when B < 8, no SMT.
  static TopologyResult short_form(int sockets, int cores_per_socket);

  /// docs/TRACE_FORMAT.md `topology sockets= llcs= cores= smt=`: per socket LLCs, per LLC
  /// cores, per core threads; every LLC is full.
  static TopologyResult long_form(int sockets, int llcs_per_socket, int cores_per_llc,
                                  int smt);

  /// docs/TRACE_FORMAT.md default `topology 2x64`: 2 sockets x 8 LLCs x 8 cores, 128 CPUs.
  static Topology trace_default();

  /// Number of CPUs, 1..NR_CPUS_MAX.
  int ncpus() const;
  /// Socket of a CPU, 0..sockets-1.
  int socket_of(int cpu) const;
  /// Global LLC id of a CPU, 0..sockets*llcs_per_socket-1 (socket-major).
  int llc_of(int cpu) const;
  /// Global core id of a CPU, 0..sockets*cores_per_socket-1.
  int core_of(int cpu) const;
  /// Whether two CPUs share a last-level cache (true for a == b).
  bool same_llc(int a, int b) const;
  /// Whether two CPUs are on one socket (true for a == b).
  bool same_socket(int a, int b) const;
  /// Whether two CPUs are threads of one core; like the kernel's cpu_smt_mask, a CPU is
  /// its own sibling (true for a == b).
  bool smt_siblings(int a, int b) const;

  bool operator==(const Topology&) const = default;

 private:
  int checked_cpu(int cpu) const;
};

/// A topology, or why the header's numbers describe none.
struct TopologyResult {
  std::optional<Topology> topology;  // set iff the shape is valid
  std::string error;                 // empty iff topology is set
};

}  // namespace eevdf::model
