// Tests model/topology.h (docs/TRACE_FORMAT.md `topology`): the CPU numbering
// cpu = (socket * cores_per_socket + core_in_socket) * smt + thread and the membership
// queries for the default 2x64, 1x2, 2x3 (one LLC per socket), 1x12 and 2x12 (a full LLC
// of 8 and a partial one of 4), a long form with smt=2, and the rejection of bad shapes.
// Expected ids are worked by hand from the numbering in the comments.
#include <catch2/catch.hpp>

#include "model/topology.h"

namespace m = eevdf::model;

namespace {
m::Topology must(const m::TopologyResult& r) {
  REQUIRE(r.error.empty());
  REQUIRE(r.topology.has_value());
  return *r.topology;
}
}  // namespace

TEST_CASE("default 2x64: 2 sockets x 8 LLCs x 8 cores", "[topology]") {
  const m::Topology t = m::Topology::trace_default();
  CHECK(t == must(m::Topology::short_form(2, 64)));
  CHECK(t == must(m::Topology::long_form(2, 8, 8, 1)));
  CHECK(t.llcs_per_socket == 8);
  CHECK(t.cores_per_llc == 8);
  CHECK(t.ncpus() == 128);
  // cpu 0..7 LLC 0, 8..15 LLC 1, ..., 56..63 LLC 7 (socket 0); 64.. LLC 8 (socket 1).
  CHECK(t.llc_of(0) == 0);
  CHECK(t.llc_of(7) == 0);
  CHECK(t.llc_of(8) == 1);
  CHECK(t.llc_of(63) == 7);
  CHECK(t.llc_of(64) == 8);
  CHECK(t.llc_of(127) == 15);
  CHECK(t.socket_of(63) == 0);
  CHECK(t.socket_of(64) == 1);
  CHECK(t.core_of(127) == 127);  // no SMT: core == cpu
  CHECK(t.same_llc(0, 7));
  CHECK_FALSE(t.same_llc(7, 8));
  CHECK(t.same_socket(0, 63));
  CHECK_FALSE(t.same_socket(63, 64));
  CHECK(t.smt_siblings(5, 5));
  CHECK_FALSE(t.smt_siblings(0, 1));
}

TEST_CASE("1x2: one socket, one LLC of 2 cores", "[topology]") {
  const m::Topology t = must(m::Topology::short_form(1, 2));
  CHECK(t.ncpus() == 2);
  CHECK(t.llcs_per_socket == 1);
  CHECK(t.cores_per_llc == 2);
  CHECK(t.llc_of(0) == 0);
  CHECK(t.llc_of(1) == 0);
  CHECK(t.same_llc(0, 1));
  CHECK(t.same_socket(0, 1));
  CHECK_FALSE(t.smt_siblings(0, 1));
}

TEST_CASE("2x3: one LLC of 3 cores per socket", "[topology]") {
  const m::Topology t = must(m::Topology::short_form(2, 3));
  CHECK(t == must(m::Topology::long_form(2, 1, 3, 1)));
  CHECK(t.ncpus() == 6);
  // cpus 0-2: socket 0, LLC 0; cpus 3-5: socket 1, LLC 1.
  CHECK(t.socket_of(2) == 0);
  CHECK(t.socket_of(3) == 1);
  CHECK(t.llc_of(2) == 0);
  CHECK(t.llc_of(3) == 1);
  CHECK(t.llc_of(5) == 1);
  CHECK(t.same_llc(0, 2));
  CHECK_FALSE(t.same_llc(2, 3));
  CHECK(t.same_llc(3, 5));
  CHECK_FALSE(t.same_socket(2, 3));
}

TEST_CASE("1x12: an LLC of 8 and a partial LLC of 4", "[topology]") {
  const m::Topology t = must(m::Topology::short_form(1, 12));
  CHECK(t.ncpus() == 12);
  CHECK(t.llcs_per_socket == 2);  // ceil(12 / 8)
  CHECK(t.cores_per_llc == 8);
  CHECK(t.cores_per_socket == 12);
  CHECK(t.llc_of(0) == 0);
  CHECK(t.llc_of(7) == 0);
  CHECK(t.llc_of(8) == 1);
  CHECK(t.llc_of(11) == 1);
  CHECK(t.same_llc(8, 11));
  CHECK_FALSE(t.same_llc(7, 8));
  CHECK(t.same_socket(0, 11));
}

TEST_CASE("2x12: partial LLCs do not shift the next socket's ids", "[topology]") {
  // Socket 1 starts at cpu 12 (not at a multiple of 8): core_in_socket 0..7 is its first
  // LLC, global id 1 * 2 + 0 = 2; core_in_socket 8..11 (cpus 20..23) is LLC 3.
  const m::Topology t = must(m::Topology::short_form(2, 12));
  CHECK(t.ncpus() == 24);
  CHECK(t.llc_of(11) == 1);
  CHECK(t.llc_of(12) == 2);
  CHECK(t.llc_of(19) == 2);
  CHECK(t.llc_of(20) == 3);
  CHECK(t.llc_of(23) == 3);
  CHECK_FALSE(t.same_llc(11, 12));
  CHECK(t.same_llc(12, 19));
  CHECK_FALSE(t.same_llc(19, 20));
}

TEST_CASE("1x8 is one full LLC, 1x16 two", "[topology]") {
  const m::Topology eight = must(m::Topology::short_form(1, 8));
  CHECK(eight.llcs_per_socket == 1);
  CHECK(eight.same_llc(0, 7));
  const m::Topology sixteen = must(m::Topology::short_form(1, 16));
  CHECK(sixteen.llcs_per_socket == 2);
  CHECK_FALSE(sixteen.same_llc(7, 8));
}

TEST_CASE("long form with smt=2: siblings are adjacent", "[topology]") {
  // 2 sockets x 2 LLCs x 4 cores x 2 threads = 32 CPUs; cpu = (socket*8 + core)*2 + thread.
  const m::Topology t = must(m::Topology::long_form(2, 2, 4, 2));
  CHECK(t.ncpus() == 32);
  CHECK(t.cores_per_socket == 8);
  CHECK(t.smt_siblings(0, 1));         // core 0
  CHECK_FALSE(t.smt_siblings(1, 2));   // cores 0 and 1
  CHECK(t.smt_siblings(30, 31));       // core 15
  CHECK(t.core_of(7) == 3);
  CHECK(t.core_of(8) == 4);
  CHECK(t.llc_of(7) == 0);   // core 3: LLC 0
  CHECK(t.llc_of(8) == 1);   // core 4: LLC 1
  CHECK(t.llc_of(15) == 1);  // core 7
  CHECK(t.llc_of(16) == 2);  // core 8 = socket 1, core_in_socket 0
  CHECK(t.llc_of(31) == 3);  // core 15 = socket 1, core_in_socket 7
  CHECK(t.socket_of(15) == 0);
  CHECK(t.socket_of(16) == 1);
  CHECK_FALSE(t.same_llc(7, 8));
  CHECK(t.same_llc(8, 15));
  CHECK_FALSE(t.same_socket(15, 16));
}

TEST_CASE("bad shapes are errors, not exceptions or assertions", "[topology]") {
  const auto rejected = [](const m::TopologyResult& r) {
    return !r.topology.has_value() && !r.error.empty();
  };
  CHECK(rejected(m::Topology::short_form(0, 64)));
  CHECK(rejected(m::Topology::short_form(2, 0)));
  CHECK(rejected(m::Topology::short_form(-1, 4)));
  CHECK(rejected(m::Topology::short_form(4097, 1)));
  CHECK(rejected(m::Topology::short_form(64, 65)));  // 4160 CPUs
  CHECK(rejected(m::Topology::long_form(1, 1, 1, 0)));
  CHECK(rejected(m::Topology::long_form(1, 0, 8, 1)));
  CHECK(rejected(m::Topology::long_form(1, 8, 0, 1)));
  // Each field in range, product 4096^4 = 2^48: no int overflow on the way to the error.
  CHECK(rejected(m::Topology::long_form(4096, 4096, 4096, 4096)));
  CHECK(m::Topology::short_form(0, 64).error ==
        "topology: sockets must be 1..4096, got 0");
  CHECK(m::Topology::short_form(64, 65).error ==
        "topology: 4160 CPUs, more than the 4096 the model supports");
}

TEST_CASE("the largest accepted shapes", "[topology]") {
  CHECK(must(m::Topology::short_form(1, 4096)).ncpus() == 4096);
  CHECK(must(m::Topology::short_form(4096, 1)).ncpus() == 4096);
  CHECK(must(m::Topology::long_form(2, 16, 64, 2)).ncpus() == 4096);  // 2*16*64*2
}
