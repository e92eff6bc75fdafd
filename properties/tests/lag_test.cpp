// Tests of properties/lag.h (being written).
#include <catch2/catch.hpp>
