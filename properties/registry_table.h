// Internal to the registry: the table of property factories each group header adds
// its properties to (register_lag, register_protection, ...).
#pragma once

#include <functional>   // factories
#include <memory>       // properties
#include <string_view>  // names
#include <utility>      // pairs
#include <vector>       // the table

#include "properties/property.h"

namespace eevdf::properties {

template <class A, class P>
using Factory = std::function<std::unique_ptr<Property<A, P>>(Env<A, P>&)>;

template <class A, class P>
using Table = std::vector<std::pair<std::string_view, Factory<A, P>>>;

// The factory of a property class constructed from the Env alone.
template <class A, class P, class Check>
Factory<A, P> plain() {
  return [](Env<A, P>& env) { return make_property<Check>(env); };
}

}  // namespace eevdf::properties
