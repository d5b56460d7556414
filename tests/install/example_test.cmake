# CTest driver (cmake -P): build one example of examples/ against an installed
# prefix both ways its README shows — find_package(batchdiff) +
# batchdiff_enable, and one clang-19 line with pkg-config — run both builds
# with small arguments (each program checks its own results and exits
# non-zero when a check fails), and plot with gnuplot when it is installed.
#
# In: PREFIX LIBDIR NAME EXAMPLE_DIR WORK_DIR C_COMPILER [ARGS] [OUTPUTS]
#     [PLOTS]
#   ARGS: the program's arguments; OUTPUTS: files the run must write;
#   PLOTS: files plot.gp must write, checked only when gnuplot exists.
#   (All three are lists separated by "|".)
cmake_minimum_required(VERSION 3.20)

foreach(v PREFIX LIBDIR NAME EXAMPLE_DIR WORK_DIR C_COMPILER)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "example_test.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what dir)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("-- ${what}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAILED (${rc}): ${what}\n  command: ${ARGN}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

foreach(v ARGS OUTPUTS PLOTS)
  string(REPLACE "|" ";" ${v} "${${v}}")
endforeach()
set(libdir ${PREFIX}/${LIBDIR})
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/cmake ${WORK_DIR}/pkgconfig)

# 1. CMake, as the example's CMakeLists.txt says.
run("configure ${NAME}" ${WORK_DIR} ${CMAKE_COMMAND} -S ${EXAMPLE_DIR}
  -B ${WORK_DIR}/cmake -DCMAKE_PREFIX_PATH=${PREFIX}
  -DCMAKE_C_COMPILER=${C_COMPILER})
run("build ${NAME}" ${WORK_DIR} ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake
  --verbose)
if(NOT OUT MATCHES "-fplugin=${libdir}/batchdiff/batchdiff.so")
  message(FATAL_ERROR "${NAME} was not compiled with the installed plugin")
endif()

# 2. pkg-config: the README's one line,
#    clang-19 -O2 -march=native $(pkg-config --cflags batchdiff) *.c \
#      $(pkg-config --libs batchdiff) -o NAME
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(pc ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${libdir}/pkgconfig
  ${PKG_CONFIG})
run("pkg-config --cflags" ${WORK_DIR} ${pc} --cflags batchdiff)
separate_arguments(cflags UNIX_COMMAND "${OUT}")
run("pkg-config --libs" ${WORK_DIR} ${pc} --libs batchdiff)
separate_arguments(libs UNIX_COMMAND "${OUT}")
file(GLOB srcs ${EXAMPLE_DIR}/*.c)
# Where clang itself warns at every -march=native compile (a VM's CPU model
# with AVX10.1 and AVX-512: "invalid feature combination"), that warning is
# about the host, not the example, and not made an error here.
set(hostw "")
execute_process(COMMAND ${C_COMPILER} -march=native -fsyntax-only -x c
  /dev/null ERROR_VARIABLE hostout OUTPUT_QUIET)
if(hostout MATCHES "invalid feature combination")
  set(hostw -Wno-invalid-feature-combination)
endif()
run("compile ${NAME} (pkg-config)" ${WORK_DIR} ${C_COMPILER} -std=c11 -O2
  -march=native -Wall -Wextra -Werror ${hostw} ${cflags} ${srcs} ${libs}
  -o ${WORK_DIR}/pkgconfig/${NAME})

# 3. Run both; the second run is the one whose outputs are checked.
foreach(build cmake pkgconfig)
  run("run ${NAME} ${ARGS} (${build})" ${WORK_DIR}/${build}
    ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
    ${WORK_DIR}/${build}/${NAME} ${ARGS})
endforeach()
set(rundir ${WORK_DIR}/pkgconfig)
find_program(GNUPLOT gnuplot)
if(EXISTS ${EXAMPLE_DIR}/plot.gp)
  if(GNUPLOT)
    run("gnuplot plot.gp" ${rundir} ${GNUPLOT} ${EXAMPLE_DIR}/plot.gp)
  else()
    message("-- gnuplot not found: not plotting (the data files are checked)")
    set(PLOTS "") # (an empty normal variable hides the -D one)
  endif()
endif()
foreach(f IN LISTS OUTPUTS PLOTS)
  set(size 0)
  if(EXISTS ${rundir}/${f})
    file(SIZE ${rundir}/${f} size)
  endif()
  if(size EQUAL 0)
    message(FATAL_ERROR "${NAME} did not write ${f}")
  endif()
endforeach()
message("-- example ${NAME}: passed")
