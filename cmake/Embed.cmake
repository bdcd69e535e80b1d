# threadmap_embed(TARGET target OUTPUT file.cpp NAMESPACE ns FILES a.cl b.cl ...)
# Compiles each file's bytes into the target, reachable at run time through
# ns::embedded_file("a.cl"), so an installed binary needs no source tree.
function(threadmap_embed)
  cmake_parse_arguments(E "" "TARGET;OUTPUT;FUNCTION" "FILES" ${ARGN})
  set(inputs)
  foreach(f IN LISTS E_FILES)
    get_filename_component(abs "${f}" ABSOLUTE)
    list(APPEND inputs "${abs}")
  endforeach()
  add_custom_command(
    OUTPUT "${E_OUTPUT}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${E_OUTPUT}" "-DFUNCTION=${E_FUNCTION}"
            "-DINPUTS=${inputs}" -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake"
    COMMENT "Embedding ${E_FUNCTION} sources"
    VERBATIM)
  target_sources(${E_TARGET} PRIVATE "${E_OUTPUT}")
endfunction()
