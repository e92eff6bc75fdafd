// Tests of properties/protection.h (being written).
#include <catch2/catch.hpp>
