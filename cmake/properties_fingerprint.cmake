# The fingerprint of the properties: a hash of every source file that states or
# judges them (properties/*.h, properties/*.cpp; their tests left out). The mutation
# score of docs/MUTATION.md holds for one fingerprint: `eevdf-check mutate` prints the
# fingerprint of the properties it was built with, and the test docs.mutation_measured
# fails once the properties differ from the ones the documented score was measured
# with.
#
#   include(properties_fingerprint.cmake)
#   eevdf_properties_fingerprint(<out var> <repository>)   -> 16 hex digits
#   eevdf_properties_sources(<out var> <repository>)       -> the files hashed
function(eevdf_properties_sources out source_dir)
  file(GLOB files LIST_DIRECTORIES false RELATIVE "${source_dir}"
       "${source_dir}/properties/*.h" "${source_dir}/properties/*.cpp")
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

function(eevdf_properties_fingerprint out source_dir)
  eevdf_properties_sources(files "${source_dir}")
  set(manifest "")
  foreach(f IN LISTS files)
    file(SHA256 "${source_dir}/${f}" h)
    string(APPEND manifest "${f} ${h}\n")
  endforeach()
  string(SHA256 all "${manifest}")
  string(SUBSTRING "${all}" 0 16 short)
  set(${out} "${short}" PARENT_SCOPE)
endfunction()
