// `replay`: run one trace through the model, evaluate its expectations, report.
// The CLI only parses flags and opens files; the work lives here.
#pragma once

#include <istream>   // the trace
#include <optional>  // option overrides
#include <ostream>   // reports
#include <string>    // names
#include <vector>    // repeated options

#include "base/assert.h"
#include "base/kernel_warn.h"
#include "trace/error.h"
#include "trace/trace.h"

namespace eevdf::replay {

// The exit codes of docs/TRACE_FORMAT.md; they never blur.
enum class Outcome { clean = 0, failed = 1, bad_input = 2, internal = 3 };

enum class Dump { none, active_cpus, full };

// Which implementation replays: the reference model (its profile from the trace's
// `kernel` header) or the real 6.12 fair.c (kernel_src/, `kernel 6.12` traces only).
enum class Model { reference, kernel_src };

struct Options {
  std::optional<trace::Arith> arith;    // --arith; default: the trace's `arith`
  std::vector<std::string> injections;  // --inject NAME, repeatable
  Dump dump = Dump::none;
  std::vector<std::string> check;       // --check a,b: only these properties
  std::vector<std::string> skip;        // --skip a,b
  bool keep_going = false;              // --keep-going: collect every violation
  bool diff = false;                    // --diff: fast_matches_reference instead of the checks
  Model model = Model::reference;       // --model
  // --diff=kernel-src: replay the reference (6.12 profile, kernel arithmetic) and
  // kernel-src side by side, comparing every state field after every event
  // (kernel_matches_reference).
  bool diff_kernel_src = false;
  // --diff=ideal: replay the kernel and the ideal arithmetic in lockstep, comparing
  // every decision and the drift against the rounding bound (ideal_tracks_kernel).
  bool diff_ideal = false;
  // Properties another replay of the same trace judges (corpus check's plan, e.g.
  // ideal_tracks_kernel by its --diff=ideal replay): their expectations are left to
  // it instead of refused (replay/judged.h).
  std::vector<std::string> judged_elsewhere;
};

// Whether this build has the kernel-src model (the kernel source package was
// installed when it was configured), and the version it was built from.
bool have_kernel_src();
std::string kernel_src_version();
// The release of the kernel-src built into the program (the default tree).
std::string builtin_kernel_src_version();

// Replays `in` (named `file` in messages). Reports go to `out`, errors to `err`.
Outcome replay(std::istream& in, const std::string& file, const Options& options, std::ostream& out,
               std::ostream& err);

// `replay --diff`: runs `in` through the kernel-arithmetic reference and both builds
// of the fast model, comparing every state field after every event (fast_diff.h);
// the first difference names field, event and line (exit 1). Expectations and
// properties are not judged in this mode.
Outcome replay_diff(std::istream& in, const std::string& file, const Options& options, std::ostream& out,
                    std::ostream& err);

// The worst of several outcomes (a replay of several files exits with the highest).
Outcome worst(Outcome a, Outcome b);

// Runs `body` (returning an Outcome) and turns the errors of a replay into
// outcomes, printed on `err`: a bad trace (exit 2) or an internal assertion (exit 3).
template <class F>
Outcome guarded(const std::string& file, std::ostream& err, F&& body) {
  try {
    return body();
  } catch (const trace::TraceError& e) {
    err << e.what() << "\n";
    return Outcome::bad_input;
  } catch (const InternalError& e) {
    err << file << ": " << e.what() << "\n";
    return Outcome::internal;
  } catch (const KernelWarn& e) {  // met by a model outside CheckedRun (a shadow, a differential)
    err << file << ": kernel_warn: " << e.what() << "\n";
    return Outcome::failed;
  }
}

}  // namespace eevdf::replay
