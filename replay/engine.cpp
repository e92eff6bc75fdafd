// make_engine: the implementation a replay runs on (engines.h).
#include "replay/engine.h"

#include "model/profiles.h"
#include "replay/engines.h"

namespace eevdf::replay {

std::unique_ptr<Engine> make_engine(const EngineSetup& setup) {
  if (setup.options.diff_kernel_src) return make_diff_engine(setup);
  if (setup.options.diff_ideal) return make_ideal_diff_engine(setup);
  if (setup.options.model == Model::kernel_src) return make_kernel_src_engine(setup);
  if (setup.header.kernel.value_or(std::string(model::kDefaultProfile)) != model::kDefaultProfile)
    return make_profile_engine(setup);
  return make_reference_engine(setup);
}

}  // namespace eevdf::replay
