// tally_evaluated; see measures.h.
#pragma once

#include "properties/registry.h"

namespace eevdf::runner {

template <class A, class P>
void tally_evaluated(const properties::Checker<A, P>& checker, std::map<std::string, std::uint64_t>& evaluated) {
  checker.for_each([&](const properties::Property<A, P>& p) {
    if (p.evaluated() != 0 && properties::find_property(p.name()) != nullptr) evaluated[std::string(p.name())] += p.evaluated();
  });
}

}  // namespace eevdf::runner
