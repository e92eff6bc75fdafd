# eevdf_embed_files(<out.cpp> HEADER <h> NAMESPACE <ns> FUNCTION <fn> COMMENT <text>
#                   FILES <paths relative to the repository>...)
# Generates <out.cpp> at build time (cmake/embed_files.cmake): `ns::fn()` returns the
# files' texts (base/embedded_file.h), so that the program has them without the
# repository at hand. The output is regenerated when a file or the script changes.
set(EEVDF_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")

function(eevdf_embed_files out)
  cmake_parse_arguments(E "" "HEADER;NAMESPACE;FUNCTION;COMMENT" "FILES" ${ARGN})
  list(TRANSFORM E_FILES PREPEND "${PROJECT_SOURCE_DIR}/" OUTPUT_VARIABLE paths)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DFILES=${E_FILES}" -DHEADER=${E_HEADER}
            -DNAMESPACE=${E_NAMESPACE} -DFUNCTION=${E_FUNCTION} -DOUT=${out} -P "${EEVDF_EMBED_SCRIPT}"
    DEPENDS ${paths} "${EEVDF_EMBED_SCRIPT}"
    COMMENT "${E_COMMENT}"
    VERBATIM)
endfunction()
