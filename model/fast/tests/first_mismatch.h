// Test helper: the trace of (seed, options) replayed on the reference and one fast
// build side by side (replay::FastDiff), stopping where both overflow.
#pragma once

#include <cstdint>
#include <string>

#include "generator/generator.h"
#include "replay/fast_diff.h"
#include "replay/model_config.h"

namespace eevdf::model::fast::testing {

// The first mismatch as `line L (event N): FIELD: ...`, an illegal event, or "".
template <bool Simd>
std::string first_mismatch(std::uint64_t seed, const generator::Options& o) {
  generator::Generator gen(seed, o);
  replay::FastDiff<Simd> diff(replay::make_config(gen.header(), {}, "<generated>"),
                              replay::make_task_specs(gen.header()));
  using Step = typename replay::FastDiff<Simd>::Step;
  while (auto e = gen.next()) {
    const Step step = diff.apply(*e);
    if (step == Step::overflow || step == Step::kernel_warn) return {};
    if (step == Step::illegal) return "illegal event: " + diff.illegal_reason();
    if (step == Step::mismatch) return diff.mismatch().message();
  }
  return {};
}

}  // namespace eevdf::model::fast::testing
