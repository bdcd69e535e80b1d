# Runs Qt Linguist over the GUI's sources, in script mode (cmake -P):
#   MODE=update  lupdate writes every tr() string into the .ts files in place
#                (the update_translations target);
#   MODE=check   lupdate runs on a copy of the .ts files and lrelease on the
#                copy; fails when the sources hold a string the .ts files lack,
#                or a translation is unfinished or empty (the translations test).
# LUPDATE, LRELEASE: the tools; SOURCES: the folders lupdate scans; TS_FILES:
# the .ts files, each list joined with "|" (a file named *_en.ts holds the English plural forms only);
# WORK_DIR: where the check copies them.
foreach(var LUPDATE LRELEASE SOURCES TS_FILES MODE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "Translations.cmake: ${var} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" SOURCES "${SOURCES}")
string(REPLACE "|" ";" TS_FILES "${TS_FILES}")

set(failures "")
foreach(ts IN LISTS TS_FILES)
  get_filename_component(name "${ts}" NAME)
  set(target "${ts}")
  if(MODE STREQUAL "check")
    file(MAKE_DIRECTORY "${WORK_DIR}")
    set(target "${WORK_DIR}/${name}")
    file(COPY_FILE "${ts}" "${target}")
  endif()
  set(options -locations none -no-obsolete)
  set(plural_only OFF)
  if(name MATCHES "_en\\.ts$")
    list(APPEND options -pluralonly)  # lupdate counts every other string as new; lrelease tells
    set(plural_only ON)
  endif()
  execute_process(COMMAND "${LUPDATE}" ${options} ${SOURCES} -ts "${target}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("${name}: lupdate: ${out}${err}")
  if(NOT rc EQUAL 0)
    list(APPEND failures "${name}: lupdate failed (${rc})")
    continue()
  endif()
  if(NOT MODE STREQUAL "check")
    continue()
  endif()
  if(NOT plural_only AND NOT "${out}${err}" MATCHES "Found [0-9]+ source text\\(s\\) \\(0 new and")
    list(APPEND failures "${name}: the sources hold tr() strings the .ts file lacks (run the update_translations target, then translate them)")
  endif()
  if("${out}${err}" MATCHES "Removed ([0-9]+) obsolete")
    list(APPEND failures "${name}: ${CMAKE_MATCH_1} entries are no longer in the sources (run the update_translations target)")
  endif()
  execute_process(COMMAND "${LRELEASE}" "${target}" -qm "${WORK_DIR}/${name}.qm"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("${name}: lrelease: ${out}${err}")
  if(NOT rc EQUAL 0)
    list(APPEND failures "${name}: lrelease failed (${rc})")
  elseif(NOT "${out}${err}" MATCHES "\\(([0-9]+) finished and 0 unfinished\\)")
    list(APPEND failures "${name}: unfinished translations")
  elseif("${CMAKE_MATCH_1}" EQUAL 0)
    list(APPEND failures "${name}: no finished translation at all")
  endif()
  if("${out}${err}" MATCHES "Ignored ([0-9]+) untranslated")
    list(APPEND failures "${name}: ${CMAKE_MATCH_1} source texts have no translation")
  endif()
endforeach()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "translations are incomplete:\n  ${text}")
endif()
