// One Vocabulary built from the model's and the catalogue's tables; see vocabulary.h.
#include "replay/vocabulary.h"

#include "model/features.h"
#include "model/injections.h"
#include "model/profiles.h"
#include "properties/catalogue.h"
#include "properties/findings.h"

namespace eevdf::replay {
namespace {

trace::Vocabulary build() {
  trace::Vocabulary v;
  for (auto p : model::kProfiles) v.profiles.emplace_back(p);
  for (const auto& f : model::kFeatures) v.features.emplace_back(f.name);
  for (const auto& i : model::kInjections) v.injections.emplace_back(i.name);
  for (const auto& p : properties::kCatalogue) {
    v.properties.emplace_back(p.name);
    if (p.kind != properties::Kind::pass_fail) v.measures.emplace_back(p.name);
  }
  for (const auto& f : properties::kFindings) v.findings.emplace_back(f.name);
  return v;
}

}  // namespace

const trace::Vocabulary& vocabulary() {
  static const trace::Vocabulary v = build();  // immutable after first use
  return v;
}

}  // namespace eevdf::replay
