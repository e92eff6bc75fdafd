// The ideal-arithmetic sample of a campaign; see ideal_only.h.
#include "runner/ideal_only.h"

#include <algorithm>

#include "base/assert.h"
#include "generator/generator.h"
#include "model/arith_ideal.h"
#include "model/profiles.h"
#include "properties/registry.h"
#include "replay/checked_run.h"
#include "replay/model_config.h"
#include "runner/measures.h"

namespace eevdf::runner {
namespace {

template <class P>
void replay_in_ideal(const Options& o, std::uint64_t seed, Tally& t, properties::Sink& sink) {
  generator::Generator gen(seed, o.generator);
  const properties::Selection only{ideal_only_properties(o.selection), {}};
  replay::CheckedRun<model::IdealArith, P> run(replay::make_config(gen.header(), replay::Options{}, "<generated>"),
                                               replay::make_task_specs(gen.header()), sink, only);
  while (auto e = gen.next()) {
    const std::string reason = run.apply(*e);
    EEVDF_ASSERT(reason.empty(), "the ideal-arithmetic replay rejected a generated event: " + reason);
    ++t.ideal_only_events;
  }
  run.finish();
  tally_evaluated(run.checker(), t.evaluated);
  ++t.ideal_only_checked;
}

}  // namespace

std::vector<std::string> ideal_only_properties(const properties::Selection& selection) {
  std::vector<std::string> out;
  for (const properties::PropertyInfo& p : properties::kCatalogue) {
    if (p.exact_in != properties::Exact::ideal) continue;
    const std::string name(p.name);
    const auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), name) != v.end(); };
    if ((selection.check.empty() || in(selection.check)) && !in(selection.skip)) out.push_back(name);
  }
  return out;
}

bool ideal_only_sampled(const Options& o, std::uint64_t index, bool steady) {
  return !o.kernel_src && steady && o.steady_every != 0 && index % o.steady_every == 0 &&
         !ideal_only_properties(o.selection).empty();
}

void replay_ideal_only(const Options& o, std::uint64_t seed, Tally& t, properties::Sink& sink) {
  if (o.generator.profile == model::profile_6_12::name) replay_in_ideal<model::profile_6_12>(o, seed, t, sink);
  else replay_in_ideal<model::profile_6_18>(o, seed, t, sink);
}

}  // namespace eevdf::runner
