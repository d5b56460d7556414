# Helpers for the batchdiff test suite (included from tests/CMakeLists.txt).
#
# bd_add_plugin_test(NAME <name> SOURCES <file.c>...
#                    [CFLAGS <flag>...] [SSE2]
#                    [LABELS <label>...] [LIBS <lib>...] [ARGS <arg>...]
#                    [TIMEOUT <seconds>])
#
# Builds the CMocka executable <name> from SOURCES, compiled by the project's
# C compiler (must be clang-19) with -fplugin=<the in-tree batchdiff.so>,
# -O2 -march=native and CFLAGS, with annotations/ and runtime/include on the
# include path, linked with batchdiff_rt, cmocka, m and LIBS; registers it
# with CTest under labels "plugin" + LABELS. The sources are recompiled when
# the plugin is rebuilt. A missing source is a configure error.
# SSE2 adds a variant <name>_sse2 compiled with -O2 and no -m flags (the
# x86-64 baseline ISA, SSE2), labelled "sse2" too, and the wide widths that
# -march=native does not give: <name>_avx2 (-march=x86-64-v3, 256-bit
# vectors) and <name>_avx512 (-march=x86-64-v4, 512-bit vectors), labelled
# "avx2" / "avx512". So every width runs on a host that has it: on an
# AVX-512 host, native is 512-bit and _avx2 is added; on an AVX2 host, native
# is 256-bit and _avx512 is added and reports SKIPPED (bd_run_if_cpu).

if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang"
   OR NOT CMAKE_C_COMPILER_VERSION MATCHES "^19\\.")
  message(FATAL_ERROR "The batchdiff tests compile C with the clang-19 plugin, "
    "but the C compiler is ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} "
    "(${CMAKE_C_COMPILER}). Configure a fresh build directory with "
    "-DCMAKE_C_COMPILER=clang-19, or -DBATCHDIFF_BUILD_TESTS=OFF.")
endif()

if(NOT TARGET PkgConfig::CMOCKA)
  pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET GLOBAL cmocka)
endif()

set(BD_TESTING_INCLUDE_DIRS
  ${PROJECT_SOURCE_DIR}/annotations
  ${PROJECT_SOURCE_DIR}/runtime/include)

# Runs a test built for -march=<level> only where the CPU has the level's
# features; exit code 77 (reported as a skip) with a message otherwise.
if(NOT TARGET bd_run_if_cpu)
  add_executable(bd_run_if_cpu ${PROJECT_SOURCE_DIR}/tests/common/run_if_cpu.c)
  target_compile_options(bd_run_if_cpu PRIVATE -O2 -Wall -Wextra)
endif()

# The vector width -march=native gives (what the default variants test).
execute_process(COMMAND ${CMAKE_C_COMPILER} -march=native -dM -E -x c
  /dev/null OUTPUT_VARIABLE _bd_native_macros ERROR_QUIET)
if(_bd_native_macros MATCHES "__AVX512F__")
  set(BD_NATIVE_WIDTH avx512)
elseif(_bd_native_macros MATCHES "__AVX2__")
  set(BD_NATIVE_WIDTH avx2)
else()
  set(BD_NATIVE_WIDTH sse2)
endif()
message(STATUS "batchdiff tests: -march=native gives ${BD_NATIVE_WIDTH} vectors")

# Internal: one executable + one CTest test; LEVEL runs it through
# bd_run_if_cpu.
function(_bd_add_plugin_test_variant name opts)
  cmake_parse_arguments(PARSE_ARGV 2 V "" "TIMEOUT;LEVEL"
    "SOURCES;LABELS;LIBS;ARGS")
  add_executable(${name} ${V_SOURCES})
  target_compile_options(${name} PRIVATE
    "$<$<COMPILE_LANGUAGE:C>:-fplugin=$<TARGET_FILE:batchdiff>>" ${opts})
  target_include_directories(${name} PRIVATE ${BD_TESTING_INCLUDE_DIRS})
  target_link_libraries(${name} PRIVATE batchdiff_rt PkgConfig::CMOCKA m
    ${V_LIBS})
  add_dependencies(${name} batchdiff)
  if(V_LEVEL)
    add_test(NAME ${name} COMMAND bd_run_if_cpu ${V_LEVEL}
      $<TARGET_FILE:${name}> ${V_ARGS})
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
  else()
    add_test(NAME ${name} COMMAND ${name} ${V_ARGS})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "plugin;${V_LABELS}")
  if(V_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${V_TIMEOUT})
  endif()
endfunction()

function(bd_add_plugin_test)
  cmake_parse_arguments(PARSE_ARGV 0 BD "SSE2" "NAME;TIMEOUT"
    "SOURCES;CFLAGS;LABELS;LIBS;ARGS")
  if(BD_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bd_add_plugin_test: unexpected arguments: "
      "${BD_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT BD_NAME OR NOT BD_SOURCES)
    message(FATAL_ERROR "bd_add_plugin_test: NAME and SOURCES are required")
  endif()
  foreach(src IN LISTS BD_SOURCES)
    if(NOT IS_ABSOLUTE ${src})
      set(src ${CMAKE_CURRENT_SOURCE_DIR}/${src})
    endif()
    if(NOT EXISTS ${src})
      message(FATAL_ERROR "bd_add_plugin_test(${BD_NAME}): no source ${src}")
    endif()
  endforeach()
  # Object files depend on the plugin binary, so rebuilding the plugin
  # recompiles every test (add_dependencies only orders the build).
  # (OBJECT_DEPENDS takes no generator expressions: spell out the path.)
  get_target_property(plugin_dir batchdiff LIBRARY_OUTPUT_DIRECTORY)
  set(plugin_file
    "${plugin_dir}/batchdiff${CMAKE_SHARED_MODULE_SUFFIX}")
  foreach(src IN LISTS BD_SOURCES)
    if(src MATCHES "\\.c$")
      set_property(SOURCE ${src} APPEND PROPERTY OBJECT_DEPENDS
        "${plugin_file}")
    endif()
  endforeach()
  set(common SOURCES ${BD_SOURCES} LIBS ${BD_LIBS} ARGS ${BD_ARGS}
    TIMEOUT ${BD_TIMEOUT})
  _bd_add_plugin_test_variant(${BD_NAME} "-O2;-march=native;${BD_CFLAGS}"
    ${common} LABELS ${BD_LABELS})
  if(BD_SSE2)
    _bd_add_plugin_test_variant(${BD_NAME}_sse2 "-O2;${BD_CFLAGS}"
      ${common} LABELS sse2 ${BD_LABELS})
    foreach(w avx2 avx512)
      if(NOT BD_NATIVE_WIDTH STREQUAL w)
        set(level x86-64-v3)
        if(w STREQUAL avx512)
          set(level x86-64-v4)
        endif()
        _bd_add_plugin_test_variant(${BD_NAME}_${w}
          "-O2;-march=${level};${BD_CFLAGS}" ${common} LEVEL ${level}
          LABELS ${w} ${BD_LABELS})
      endif()
    endforeach()
  endif()
endfunction()

# Tools the shell-script tests drive (tests/plugin/lib.sh).
find_program(BATCHDIFF_FILECHECK NAMES FileCheck-19 FileCheck
  HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-19/bin REQUIRED)
find_program(BATCHDIFF_NM NAMES llvm-nm-19 llvm-nm
  HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-19/bin REQUIRED)
find_program(BATCHDIFF_OBJDUMP NAMES llvm-objdump-19 llvm-objdump
  HINTS ${LLVM_TOOLS_BINARY_DIR} /usr/lib/llvm-19/bin REQUIRED)
find_program(BATCHDIFF_CLANG NAMES clang-19 REQUIRED)
find_program(BATCHDIFF_CLANGXX NAMES clang++-19 REQUIRED)

# bd_add_script_test(NAME <name> SCRIPT <file.sh> [ARGS <arg>...]
#                    [SRC <dir>] [LABELS <label>...] [TIMEOUT <seconds>])
#
# Registers CTest test <name> running `sh SCRIPT ARGS` in a fresh, empty
# scratch directory WORK (stale outputs cannot pass a test), with the
# environment tests/plugin/lib.sh reads: CLANG, PLUGIN, FILECHECK, NM,
# OBJDUMP, CLANGXX, SRC (default: the calling source directory) and WORK. A missing
# SCRIPT is a configure error.
function(bd_add_script_test)
  cmake_parse_arguments(PARSE_ARGV 0 S "" "NAME;SCRIPT;SRC;TIMEOUT"
    "ARGS;LABELS")
  if(S_UNPARSED_ARGUMENTS OR NOT S_NAME OR NOT S_SCRIPT)
    message(FATAL_ERROR "bd_add_script_test: NAME and SCRIPT are required "
      "(unexpected: ${S_UNPARSED_ARGUMENTS})")
  endif()
  if(NOT EXISTS ${S_SCRIPT})
    message(FATAL_ERROR "bd_add_script_test(${S_NAME}): no script ${S_SCRIPT}")
  endif()
  if(NOT S_SRC)
    set(S_SRC ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  if(NOT S_TIMEOUT)
    set(S_TIMEOUT 120)
  endif()
  set(work ${CMAKE_CURRENT_BINARY_DIR}/work/${S_NAME})
  set(args "")
  foreach(a IN LISTS S_ARGS)
    string(APPEND args " '${a}'")
  endforeach()
  add_test(NAME ${S_NAME}
    COMMAND sh -c "rm -rf '${work}' && mkdir -p '${work}' && exec sh '${S_SCRIPT}'${args}")
  set_tests_properties(${S_NAME} PROPERTIES LABELS "${S_LABELS}"
    TIMEOUT ${S_TIMEOUT}
    ENVIRONMENT "CLANG=${BATCHDIFF_CLANG};CLANGXX=${BATCHDIFF_CLANGXX};PLUGIN=$<TARGET_FILE:batchdiff>;FILECHECK=${BATCHDIFF_FILECHECK};NM=${BATCHDIFF_NM};OBJDUMP=${BATCHDIFF_OBJDUMP};RTLIB=$<TARGET_FILE:batchdiff_rt_static>;SRC=${S_SRC};WORK=${work}")
endfunction()
