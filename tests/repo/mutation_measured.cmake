# docs/MUTATION.md gives the mutation score of the Debian 6.12 tree for the properties
# of one fingerprint (cmake/properties_fingerprint.cmake). Fails when the properties
# changed since: the score must then be measured again and the section rewritten from
# the new report (`eevdf-check mutate` prints the fingerprint it was built with).
#
#   cmake -DSOURCE_DIR=<repository> -P mutation_measured.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repository> -P mutation_measured.cmake")
endif()
include("${SOURCE_DIR}/cmake/properties_fingerprint.cmake")
eevdf_properties_fingerprint(now "${SOURCE_DIR}")
file(READ "${SOURCE_DIR}/docs/MUTATION.md" doc)
string(REGEX MATCH "properties fingerprint `([0-9a-f]+)`" found "${doc}")
if(NOT found)
  message(FATAL_ERROR "docs/MUTATION.md names no properties fingerprint (expected: properties fingerprint `${now}`)")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL now)
  message(FATAL_ERROR "docs/MUTATION.md was measured with properties fingerprint ${CMAKE_MATCH_1}; the properties "
                      "are now ${now}: measure again (docs/MUTATION.md, \"The Debian 6.12 tree\") and rewrite the section")
endif()
message(STATUS "docs/MUTATION.md measured with the properties of today (${now})")
