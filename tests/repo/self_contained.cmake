# The repository is its own manual: no file of it may cite a document outside it
# (the scheduler's description, the property list, the bug list and the style rules
# are docs/MODEL.md, docs/PROPERTIES.md, docs/INJECTIONS.md and the comments
# themselves). Fails, naming file:line, when a tracked file mentions a path into a
# sibling "shared" folder or one of the outside documents' file names.
#
#   cmake -DSOURCE_DIR=<repository> -P self_contained.cmake
#
# The file names are assembled from pieces so that this script does not match itself.
cmake_minimum_required(VERSION 3.25)  # list() keeps empty elements (CMP0007)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repository> -P self_contained.cmake")
endif()

set(dir "shared")
set(patterns "${dir}/" "\\.\\./${dir}")
foreach(stem IN ITEMS "INVARIANTS" "EEVDF_MODEL" "BUGS" "STYLE")
  list(APPEND patterns "${stem}\\.md")
endforeach()
list(JOIN patterns "|" regex)

# The files git tracks or would track (new ones before their commit) when git knows
# the tree; otherwise every file outside build folders and .git (a source tarball).
find_program(GIT git)
set(files "")
if(GIT AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" ls-files --cached --others --exclude-standard
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ls-files failed in ${SOURCE_DIR}")
  endif()
  string(STRIP "${listed}" listed)
  string(REPLACE "\n" ";" files "${listed}")
else()
  file(GLOB_RECURSE all RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
  foreach(f IN LISTS all)
    if(NOT f MATCHES "^(build[^/]*|\\.git)/")
      list(APPEND files "${f}")
    endif()
  endforeach()
endif()

set(found 0)
foreach(f IN LISTS files)
  if(f STREQUAL "" OR NOT EXISTS "${SOURCE_DIR}/${f}" OR IS_DIRECTORY "${SOURCE_DIR}/${f}")
    continue()
  endif()
  if(f MATCHES "${regex}")
    message("${f}: the file name itself cites an outside document")
    math(EXPR found "${found} + 1")
  endif()
  file(STRINGS "${SOURCE_DIR}/${f}" lines REGEX "${regex}")
  foreach(line IN LISTS lines)
    message("${f}: ${line}")
    math(EXPR found "${found} + 1")
  endforeach()
endforeach()

list(LENGTH files checked)
if(found GREATER 0)
  message(FATAL_ERROR "${found} line(s) cite a document outside the repository; cite docs/ instead")
endif()
message("${checked} files checked: no reference outside the repository")
