# Runs at install time (from install(CODE) in the top-level CMakeLists.txt):
# writes batchdiff.pc for the prefix actually being installed to.
# In: BD_PC_IN BD_PC_OUT BD_PC_LIBDIR BD_PC_INCLUDEDIR BD_PC_VERSION,
#     CMAKE_INSTALL_PREFIX (set by cmake --install, --prefix included).
set(BD_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
foreach(_bd_v BD_PC_LIBDIR BD_PC_INCLUDEDIR)
  if(NOT IS_ABSOLUTE "${${_bd_v}}")
    set(${_bd_v} "\${prefix}/${${_bd_v}}")
  endif()
endforeach()
configure_file("${BD_PC_IN}" "${BD_PC_OUT}" @ONLY)
