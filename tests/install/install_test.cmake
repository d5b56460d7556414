# CTest driver (cmake -P): install the build tree into a fresh prefix and use
# it the way a user would, with CMake and with pkg-config.
#
# In: BUILD_DIR SOURCE_DIR WORK_DIR C_COMPILER INSTALL_LIBDIR
cmake_minimum_required(VERSION 3.20)

foreach(v BUILD_DIR SOURCE_DIR WORK_DIR C_COMPILER INSTALL_LIBDIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_test.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("-- ${what}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAILED (${rc}): ${what}\n  command: ${ARGN}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer ${SOURCE_DIR}/examples/cmake-consumer)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run("install into ${prefix}"
  ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

if(IS_ABSOLUTE "${INSTALL_LIBDIR}")
  message(FATAL_ERROR "absolute CMAKE_INSTALL_LIBDIR is not supported here")
endif()
set(libdir ${prefix}/${INSTALL_LIBDIR})
foreach(f include/batchdiff.h ${INSTALL_LIBDIR}/batchdiff/batchdiff.so
    ${INSTALL_LIBDIR}/pkgconfig/batchdiff.pc
    ${INSTALL_LIBDIR}/cmake/batchdiff/batchdiffConfig.cmake
    ${INSTALL_LIBDIR}/cmake/batchdiff/batchdiffConfigVersion.cmake
    ${INSTALL_LIBDIR}/cmake/batchdiff/batchdiffTargets.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

# 1. CMake: find_package(batchdiff) + batchdiff_enable(target).
run("configure consumer" ${CMAKE_COMMAND} -S ${consumer} -B ${WORK_DIR}/cmake
  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER}
  -DCMAKE_BUILD_TYPE=Release)
run("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake --verbose)
if(NOT OUT MATCHES "-fplugin=${libdir}/batchdiff/batchdiff.so")
  message(FATAL_ERROR "the consumer was not compiled with the installed plugin")
endif()
run("run consumer (cmake)" ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
  ${WORK_DIR}/cmake/consumer)

# 2. pkg-config, both styles from the docs:
#    clang-19 ... $(pkg-config --cflags batchdiff) -c model.c
#    clang-19 ... -fplugin=$(pkg-config --variable=plugin batchdiff) \
#                 $(pkg-config --cflags batchdiff) -c model.c
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(pc ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${libdir}/pkgconfig
  ${PKG_CONFIG})
run("pkg-config --cflags" ${pc} --cflags batchdiff)
separate_arguments(cflags UNIX_COMMAND "${OUT}")
run("pkg-config --libs" ${pc} --libs batchdiff)
separate_arguments(libs UNIX_COMMAND "${OUT}")
run("pkg-config --variable=plugin" ${pc} --variable=plugin batchdiff)
string(STRIP "${OUT}" plugin)
if(NOT plugin STREQUAL "${libdir}/batchdiff/batchdiff.so")
  message(FATAL_ERROR "pkg-config plugin=${plugin}, expected "
    "${libdir}/batchdiff/batchdiff.so")
endif()

set(pkdir ${WORK_DIR}/pkgconfig)
file(MAKE_DIRECTORY ${pkdir})
foreach(style cflags both)
  set(extra)
  if(style STREQUAL "both")
    set(extra -fplugin=${plugin})
  endif()
  foreach(src model main)
    run("compile ${src}.c (${style})" ${C_COMPILER} -O2 -march=native
      ${extra} ${cflags} -c ${consumer}/${src}.c -o ${pkdir}/${src}_${style}.o)
  endforeach()
  run("link (${style})" ${C_COMPILER} ${pkdir}/main_${style}.o
    ${pkdir}/model_${style}.o ${libs} -o ${pkdir}/consumer_${style})
  run("run consumer (pkg-config, ${style})" ${CMAKE_COMMAND} -E env
    --unset=LD_LIBRARY_PATH ${pkdir}/consumer_${style})
endforeach()
message("-- install_consumer: all passed")
