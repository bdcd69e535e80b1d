# The rooms of the source tree and which rooms each may include from
# (docs/ARCHITECTURE.md draws them). Run as a test:
#   cmake -DSOURCE_DIR=<tree> -P cmake/CheckLayers.cmake
# It fails, naming the file, its line and the rule, when a file includes a
# header of a room above its own: an include that climbs a layer, or a room
# not listed (every folder with sources is in a room).
#
# Bottom to top: the lessons' kernel texts, which include nothing (lessons);
# the plain data (core); the built-in workloads (families);
# manifests, packs and the catalog they make (pack); the PTX instrumenter,
# text in and text out (ptx); trace analysis (analysis); the devices, which
# run, time and trace (engine); the worker protocol (app/protocol); the
# views (viz/views); the window (app/gui, which opens no device: it asks the
# worker); the command line (app/cli). Benchmarks and tests may include any.
cmake_minimum_required(VERSION 3.20)
set(rooms lessons core families pack ptx analysis engine protocol views gui cli)
set(lessons_path kernels/lessons)
set(core_path kernels/core)
set(families_path kernels/families)
set(pack_path kernels/pack)
set(ptx_path kernels/ptx)
set(analysis_path kernels/analysis)
set(engine_path kernels/engine)
set(protocol_path app/protocol)
set(views_path viz/views)
set(gui_path app/gui)
set(cli_path app/cli)

set(lessons_may lessons)
set(core_may core)
set(families_may core families)
set(pack_may core families pack)
set(ptx_may core ptx)
set(analysis_may core families pack analysis)
set(engine_may core families pack ptx analysis engine)
set(protocol_may core families pack analysis protocol)
set(views_may core families pack analysis views)
set(gui_may core families pack analysis protocol views gui)
set(cli_may core families pack ptx analysis engine protocol cli)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "give -DSOURCE_DIR=<the source tree>")
endif()

# The room a path (relative to the tree) is in, or "" when none.
function(room_of path out)
  set(found "")
  foreach(room IN LISTS rooms)
    if(path MATCHES "^${${room}_path}/")
      set(found ${room})
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(problems "")
set(checked 0)
foreach(top kernels app viz)
  file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${top}/*.h" "${SOURCE_DIR}/${top}/*.cpp"
       "${SOURCE_DIR}/${top}/*.cu" "${SOURCE_DIR}/${top}/*.cuh")
  foreach(file IN LISTS sources)
    room_of("${file}" room)
    if(room STREQUAL "")
      list(APPEND problems "${file}: in no room (cmake/CheckLayers.cmake lists them)")
      continue()
    endif()
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${SOURCE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" included "${line}")
      if(NOT included MATCHES "^(kernels|app|viz|bench)/")
        continue()  # a system, Qt or generated header
      endif()
      room_of("${included}" to)
      if(to STREQUAL "")
        list(APPEND problems "${file}: includes ${included}, which is in no room")
      elseif(NOT to IN_LIST ${room}_may)
        list(APPEND problems "${file}: includes ${included}: ${room} may include ${${room}_may}, not ${to}")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  list(LENGTH problems count)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "${count} problems with the layers:\n  ${text}")
endif()
message(STATUS "${checked} files, no include climbs a layer")
