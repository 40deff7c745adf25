# adgen's CMake package: `find_package(adgen CONFIG)` (with `adgen_DIR` or
# `CMAKE_PREFIX_PATH` pointing at this directory or the repository) or
# `add_subdirectory(path/to/adgen)`. It provides
#
#   adgen::adgen      the adgen executable, an imported target. Taken from
#                     `ADGEN_EXECUTABLE` when set, else found on PATH or in the
#                     repository's target/release or target/debug.
#
#   add_ad_library(<name> MANIFEST <ad.toml> [MODES <mode>...] [OUTPUT_DIR <dir>])
#                     a STATIC library target <name> holding the manifest's sources, their
#                     derivatives and adgen's runtime. MODES (tangent, adjoint) overrides
#                     the manifest's modes; OUTPUT_DIR (default
#                     ${CMAKE_CURRENT_BINARY_DIR}/<name>-adgen) receives the generated
#                     sources. Fortran modules go to OUTPUT_DIR/mod, which, with
#                     OUTPUT_DIR (for adgen_runtime.h), is a PUBLIC include directory.
#
# adgen runs once at configure time to learn the sources and the files it will write;
# at build time one custom command regenerates them whenever the manifest, a source (or,
# through its DEPFILE, an included file) or the adgen executable changes. Adding a root
# to the manifest re-runs the configuration. Needs CMake >= 3.20 and the C and Fortran
# languages enabled; works with the Ninja and Makefile generators.

cmake_minimum_required(VERSION 3.20)
include_guard(GLOBAL)

get_filename_component(_adgen_repository "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

if(NOT TARGET adgen::adgen)
  if(NOT ADGEN_EXECUTABLE)
    find_program(ADGEN_EXECUTABLE adgen
      HINTS "${_adgen_repository}/target/release" "${_adgen_repository}/target/debug"
      DOC "The adgen executable")
  endif()
  if(NOT ADGEN_EXECUTABLE)
    message(FATAL_ERROR
      "adgen: the adgen executable was not found; build it with `cargo build --release` "
      "in ${_adgen_repository}, put it on PATH, or pass -DADGEN_EXECUTABLE=/path/to/adgen")
  endif()
  if(NOT EXISTS "${ADGEN_EXECUTABLE}")
    message(FATAL_ERROR "adgen: ADGEN_EXECUTABLE `${ADGEN_EXECUTABLE}` does not exist")
  endif()
  add_executable(adgen::adgen IMPORTED GLOBAL)
  set_target_properties(adgen::adgen PROPERTIES IMPORTED_LOCATION "${ADGEN_EXECUTABLE}")
endif()
set(adgen_FOUND TRUE)

# Runs `adgen diff` at configure time with the given extra arguments and stores its
# output lines (paths) in `out_var`. adgen prints its diagnostics (warnings and errors)
# to the terminal itself, intact: `message()` would re-wrap them and split their source
# snippets. When it fails, the configuration stops with a one-line summary.
function(_adgen_query out_var manifest output_dir)
  get_target_property(_adgen_exe adgen::adgen IMPORTED_LOCATION)
  if(NOT _adgen_exe)
    # A non-imported target (built in this project): use its future location.
    get_target_property(_adgen_exe adgen::adgen LOCATION)
  endif()
  execute_process(
    COMMAND "${_adgen_exe}" diff --manifest "${manifest}" --out-dir "${output_dir}" ${ARGN}
    RESULT_VARIABLE _status
    OUTPUT_VARIABLE _stdout)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "adgen failed (status ${_status}): its diagnostics are above")
  endif()
  string(REGEX REPLACE "\n$" "" _stdout "${_stdout}")
  if(_stdout STREQUAL "")
    set(_lines "")
  else()
    string(REPLACE "\n" ";" _lines "${_stdout}")
  endif()
  set(${out_var} "${_lines}" PARENT_SCOPE)
endfunction()

function(add_ad_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "MANIFEST;OUTPUT_DIR" "MODES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_ad_library(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_MANIFEST)
    message(FATAL_ERROR "add_ad_library(${name}): missing required argument MANIFEST <ad.toml>")
  endif()
  if("MODES" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "add_ad_library(${name}): MODES needs at least one mode (tangent, adjoint)")
  endif()
  get_filename_component(_manifest "${arg_MANIFEST}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${_manifest}")
    message(FATAL_ERROR "add_ad_library(${name}): MANIFEST `${_manifest}` does not exist")
  endif()
  if(arg_OUTPUT_DIR)
    get_filename_component(_out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/${name}-adgen")
  endif()
  set(_mode_args "")
  if(arg_MODES)
    list(JOIN arg_MODES "," _modes)
    set(_mode_args --modes "${_modes}")
  endif()

  # What adgen reads and writes, learned once now.
  _adgen_query(_sources "${_manifest}" "${_out}" --list-sources)
  _adgen_query(_compile_options "${_manifest}" "${_out}" --list-compile-options)
  _adgen_query(_outputs "${_manifest}" "${_out}" --list-outputs ${_mode_args})
  # A new root or mode changes the outputs: configure again when the manifest changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_manifest}")

  # The languages the sources and the generated files are in, and only those, must be
  # enabled: a C-only model needs no Fortran compiler (nor the reverse).
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_needed "")
  foreach(_file IN LISTS _sources _outputs)
    if(_file MATCHES "\\.c$")
      list(APPEND _needed C)
    elseif(_file MATCHES "\\.([fF]|[fF]90|[fF]95|[fF]03|[fF]08|for)$")
      list(APPEND _needed Fortran)
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _needed)
  foreach(_language IN LISTS _needed)
    if(NOT _language IN_LIST _languages)
      message(FATAL_ERROR
        "add_ad_library(${name}): ${arg_MANIFEST} needs the ${_language} language: enable it first, "
        "e.g. project(... LANGUAGES ${_needed})")
    endif()
  endforeach()

  set(_generated_sources "")
  foreach(_file IN LISTS _outputs)
    if(_file MATCHES "\\.(c|f|f90|F90)$")
      list(APPEND _generated_sources "${_file}")
    endif()
  endforeach()
  set(_depfile "${CMAKE_CURRENT_BINARY_DIR}/${name}-adgen.d")
  list(GET _outputs 0 _outputs_list)

  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND adgen::adgen diff --manifest "${_manifest}" --out-dir "${_out}"
            --depfile "${_depfile}" ${_mode_args}
    # adgen leaves unchanged files alone; mark the run done for make and Ninja.
    COMMAND "${CMAKE_COMMAND}" -E touch "${_outputs_list}"
    DEPENDS "${_manifest}" ${_sources} "$<TARGET_FILE:adgen::adgen>"
    DEPFILE "${_depfile}"
    COMMENT "adgen: differentiating ${arg_MANIFEST}"
    VERBATIM)

  add_library(${name} STATIC ${_sources} ${_generated_sources})
  set_target_properties(${name} PROPERTIES
    Fortran_MODULE_DIRECTORY "${_out}/mod"
    POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC "${_out}" "${_out}/mod")
  # No absolute build paths in the objects (reproducible builds). GCC lets the last
  # matching map win: the build directory, often inside the source tree, comes last.
  set(_maps "-ffile-prefix-map=${CMAKE_SOURCE_DIR}=.;-ffile-prefix-map=${CMAKE_BINARY_DIR}=build")
  target_compile_options(${name} PRIVATE
    "$<$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>:${_maps}>"
    "$<$<COMPILE_LANG_AND_ID:C,GNU>:-gno-record-gcc-switches>"
    "$<$<COMPILE_LANG_AND_ID:Fortran,GNU>:${_maps};-gno-record-gcc-switches>")
  # The manifest's `preprocess` and `defines`: the sources compile as adgen read them.
  foreach(_option IN LISTS _compile_options)
    if(_option STREQUAL "-cpp")
      set_target_properties(${name} PROPERTIES Fortran_PREPROCESS ON)
    elseif(_option MATCHES "^-D(.+)$")
      target_compile_definitions(${name} PRIVATE "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set_property(TARGET ${name} PROPERTY ADGEN_OUTPUT_DIR "${_out}")
  set_property(TARGET ${name} PROPERTY ADGEN_MANIFEST "${_manifest}")
endfunction()
