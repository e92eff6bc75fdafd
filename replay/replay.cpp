// The replay driver: stream the trace, apply the model-independent rules, hand
// events to the engine, evaluate expectations. See replay.h.
#include "replay/replay.h"

#include <algorithm>
#include <sstream>

#include "base/assert.h"
#include "replay/engine.h"
#include "replay/judged.h"
#include "replay/vocabulary.h"
#include "trace/error.h"
#include "trace/line.h"
#include "trace/reader.h"
#include "trace/static_rules.h"

namespace eevdf::replay {
namespace {

// Which cross-arithmetic queries a trace makes, found by a cheap first pass so that
// the costly shadow model runs only when a query needs it.
struct Prescan {
  bool seekable = false;
  bool kernel_queries = false;  // `expect lag`
  bool ideal_queries = false;   // `expect ideal.lag`
};

Prescan prescan(std::istream& in) {
  Prescan scan;
  const std::istream::pos_type start = in.tellg();
  if (start == std::istream::pos_type(-1)) return scan;
  scan.seekable = true;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("lag") == std::string::npos) continue;
    const trace::detail::Line tokens = trace::detail::tokenize(line, 0);
    if (tokens.tokens.size() < 2 || tokens.tokens[0].text != "expect") continue;
    scan.kernel_queries |= tokens.tokens[1].text == "lag";
    scan.ideal_queries |= tokens.tokens[1].text == "ideal.lag";
  }
  in.clear();
  in.seekg(start);
  return scan;
}

// One pass in `arith` of a replay in `replay_arith` (`both`: this pass and the other).
Outcome run_pass(std::istream& in, const std::string& file, const Options& options, trace::Arith arith,
                 trace::Arith replay_arith, const Prescan& scan, std::ostream& out, std::ostream& err) {
  trace::TraceReader reader(in, file, vocabulary());
  const trace::Header& header = reader.header();
  require_judged(options, header, replay_arith, file);
  const bool shadow = scan.seekable && (arith == trace::Arith::kernel ? scan.ideal_queries : scan.kernel_queries);
  std::unique_ptr<Engine> engine = make_engine({header, options, arith, shadow, file, out, err});
  trace::StaticRules rules(file);
  for (const trace::Expect& x : header.initial_expects) engine->expect(x);
  std::uint64_t events = 0;
  while (auto statement = reader.next()) {
    if (const trace::Event* e = std::get_if<trace::Event>(&*statement)) {
      rules.check(*e);
      ++events;
      if (!engine->apply(*e)) break;
    } else {
      engine->expect(std::get<trace::Expect>(*statement));
    }
  }
  return engine->finish(events);
}

// The arithmetic(s) to run: --arith, else the trace's `arith` header.
trace::Arith choose_arith(std::istream& in, const std::string& file, const Options& options) {
  if (options.arith) return *options.arith;
  const std::istream::pos_type start = in.tellg();
  trace::TraceReader reader(in, file, vocabulary());
  const trace::Arith arith = reader.header().arith_or_default();
  in.clear();
  if (start != std::istream::pos_type(-1)) in.seekg(start);
  else if (arith == trace::Arith::both) throw trace::TraceError({file, 0, 0}, "`arith both` needs a seekable input");
  return arith;
}

}  // namespace

Outcome replay(std::istream& in, const std::string& file, const Options& options, std::ostream& out,
               std::ostream& err) {
  if (options.diff) return replay_diff(in, file, options, out, err);
  return guarded(file, err, [&] {
    const Prescan scan = prescan(in);
    // kernel-src and the differential run the kernel arithmetic only: the real code has no other.
    const bool kernel_only = options.model == Model::kernel_src || options.diff_kernel_src || options.diff_ideal;
    if (kernel_only && options.arith && *options.arith != trace::Arith::kernel)
      throw trace::TraceError({file, 0, 0}, options.diff_ideal
                                                ? "--diff=ideal runs both arithmetics itself: drop --arith"
                                                : "kernel-src runs in kernel arithmetic only: drop --arith");
    const trace::Arith arith = kernel_only        ? trace::Arith::kernel
                               : scan.seekable ? choose_arith(in, file, options)
                                               : options.arith.value_or(trace::Arith::kernel);
    if (arith != trace::Arith::both) return run_pass(in, file, options, arith, arith, scan, out, err);
    const Outcome kernel = run_pass(in, file, options, trace::Arith::kernel, arith, scan, out, err);
    in.clear();
    in.seekg(0);
    Options ideal_options = options;
    ideal_options.dump = Dump::none;  // with `both` the dump is of the kernel arithmetic
    return worst(kernel, run_pass(in, file, ideal_options, trace::Arith::ideal, arith, scan, out, err));
  });
}

Outcome worst(Outcome a, Outcome b) { return std::max(a, b); }

}  // namespace eevdf::replay
