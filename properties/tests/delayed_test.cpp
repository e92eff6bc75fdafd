// Tests of properties/delayed.h (being written).
#include <catch2/catch.hpp>
