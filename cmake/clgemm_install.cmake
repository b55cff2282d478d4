# `cmake --install build --prefix P` (GNUInstallDirs; the layout is in README.md, "Library"):
#   P/bin/clgemm                       the command line (the core linked in statically)
#   P/lib/libclgemm.so*, libclgemm.a   the core with the C API; libclgemm_blas.so, the BLAS shim
#   P/include/clgemm/clgemm.h          the C API
#   P/share/clgemm/kernels.cl, data/   the kernels and the shipped tuned entries and peaks, found
#                                      from bin/ and lib/ (opencl/kernel_source.hpp)
#   P/lib/cmake/clgemm/                find_package(clgemm): clgemm::clgemm, clgemm::clgemm_static
#   P/lib/pkgconfig/clgemm.pc          pkg-config clgemm
include(CMakePackageConfigHelpers)

set(CLGEMM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/clgemm)
set(CLGEMM_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/clgemm)

install(TARGETS clgemm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS clgemm_shared EXPORT clgemmTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET clgemm_blas)  # the BLAS shim (host/blas/), where this tree has it
  install(TARGETS clgemm_blas EXPORT clgemmTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The static library in an export set of its own: its link dependencies (OpenMP, CLBlast) must be
# found to import it, and a program using only the shared library must not need them.
install(TARGETS clgemm_core EXPORT clgemmStaticTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/clgemm/clgemm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/clgemm)

install(FILES kernels.cl DESTINATION ${CLGEMM_SHARE_DIR})
# The shipped entries, not data/results (measurements, for reading, not for the lookup).
foreach(sub params peaks blas)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/data/${sub})
    install(DIRECTORY data/${sub} DESTINATION ${CLGEMM_SHARE_DIR}/data)
  endif()
endforeach()

install(EXPORT clgemmTargets NAMESPACE clgemm:: DESTINATION ${CLGEMM_CMAKE_DIR})
install(EXPORT clgemmStaticTargets NAMESPACE clgemm:: DESTINATION ${CLGEMM_CMAKE_DIR})
set(CLGEMM_STATIC_NEEDS_CLBLAST OFF)
if(TARGET clblast)
  set(CLGEMM_STATIC_NEEDS_CLBLAST ON)
endif()
configure_package_config_file(cmake/clgemmConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/clgemmConfig.cmake INSTALL_DESTINATION ${CLGEMM_CMAKE_DIR})
# 0.x: a minor version may change the ABI (SOVERSION is 0 throughout), so only 0.1 satisfies 0.1.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/clgemmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/clgemmConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/clgemmConfigVersion.cmake
        DESTINATION ${CLGEMM_CMAKE_DIR})

# pkg-config: prefix from the .pc file's own place (${pcfiledir}), because `cmake --install
# --prefix P` moves the install after configure time, when the file is written.
set(CLGEMM_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH CLGEMM_PC_TO_PREFIX "${CMAKE_INSTALL_PREFIX}/${CLGEMM_PC_DIR}"
     "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" CLGEMM_PC_TO_PREFIX "${CLGEMM_PC_TO_PREFIX}")
# libclgemm.a's own dependencies, for pkg-config --static.
set(CLGEMM_PC_LIBS_PRIVATE "-lstdc++")
foreach(lib IN LISTS OpenMP_CXX_LIB_NAMES)
  string(APPEND CLGEMM_PC_LIBS_PRIVATE " -l${lib}")
endforeach()
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND CLGEMM_PC_LIBS_PRIVATE " -l${lib}")
endforeach()
if(TARGET clblast)
  string(APPEND CLGEMM_PC_LIBS_PRIVATE " -lclblast")
endif()
if(OpenBLAS_FOUND AND CLGEMM_WITH_OPENBLAS)
  # By name, not the path OpenBLASConfig.cmake gives (one of Debian's alternatives).
  string(APPEND CLGEMM_PC_LIBS_PRIVATE " -lopenblas")
endif()
configure_file(cmake/clgemm.pc.in ${CMAKE_CURRENT_BINARY_DIR}/clgemm.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/clgemm.pc DESTINATION ${CLGEMM_PC_DIR})
