# The core's two libraries, built from the same objects (clgemm_objects, position-independent):
#
#   target          file           export name             who links it
#   clgemm_core     libclgemm.a    clgemm::clgemm_static   the CLI, the tests; installed
#   clgemm_shared   libclgemm.so   clgemm::clgemm          programs using the C API; the BLAS shim
#
# In the build tree clgemm_core carries clgemm_internal (host/ headers, the baselines) to the CLI
# and the tests. Installed, both show only include/clgemm/clgemm.h and OpenCL::OpenCL: the shared
# library keeps its dependencies to itself (they are PRIVATE, and its symbols other than the C API
# are hidden), and the static one needs them at link time only ($<LINK_ONLY:...>), found by
# clgemmConfig.cmake. The executable is called clgemm too, so the targets are not: OUTPUT_NAME and
# EXPORT_NAME give the libraries their names.
include(GNUInstallDirs)

# Installed binaries find libclgemm.so (and OpenCL's libraries where they are beside it) wherever
# the prefix is: an executable in bin/ through the libdir relative to it, a library in lib/ through
# its own folder. Set before any target is created: targets read it then.
file(RELATIVE_PATH CLGEMM_LIBDIR_FROM_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_FULL_LIBDIR}")
set(CMAKE_INSTALL_RPATH "$ORIGIN/${CLGEMM_LIBDIR_FROM_BINDIR}" "$ORIGIN")

# Where the installed library finds share/clgemm (kernels.cl, data/): opencl/kernel_source.cpp.
file(RELATIVE_PATH CLGEMM_SHARE_FROM_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}"
     "${CMAKE_INSTALL_FULL_DATADIR}/clgemm")
set_property(SOURCE host/opencl/kernel_source.cpp APPEND PROPERTY COMPILE_DEFINITIONS
             CLGEMM_SHARE_FROM_LIBDIR="${CLGEMM_SHARE_FROM_LIBDIR}")

set(CLGEMM_PUBLIC_INCLUDE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                          $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

add_library(clgemm_core STATIC $<TARGET_OBJECTS:clgemm_objects>)
set_target_properties(clgemm_core PROPERTIES OUTPUT_NAME clgemm EXPORT_NAME clgemm_static
                                             LINKER_LANGUAGE CXX)
target_include_directories(clgemm_core INTERFACE ${CLGEMM_PUBLIC_INCLUDE})
target_link_libraries(clgemm_core PUBLIC OpenCL::OpenCL $<BUILD_INTERFACE:clgemm_internal>)
# What the installed libclgemm.a needs at link time: C++ code's runtime libraries (a C program
# links it with the C++ driver: the exported target says its language is CXX) and the libraries
# the core calls. nlohmann_json is headers only; OpenCL is public above.
set(CLGEMM_STATIC_LINK_DEPS OpenMP::OpenMP_CXX Threads::Threads ${CMAKE_DL_LIBS})
if(TARGET clblast)
  list(APPEND CLGEMM_STATIC_LINK_DEPS clblast)
endif()
if(OpenBLAS_FOUND AND CLGEMM_WITH_OPENBLAS)
  list(APPEND CLGEMM_STATIC_LINK_DEPS ${OpenBLAS_LIBRARIES})
endif()
foreach(dep IN LISTS CLGEMM_STATIC_LINK_DEPS)
  target_link_libraries(clgemm_core INTERFACE $<INSTALL_INTERFACE:$<LINK_ONLY:${dep}>>)
endforeach()

add_library(clgemm_shared SHARED $<TARGET_OBJECTS:clgemm_objects>)
set_target_properties(clgemm_shared PROPERTIES
  OUTPUT_NAME clgemm EXPORT_NAME clgemm LINKER_LANGUAGE CXX
  VERSION ${PROJECT_VERSION} SOVERSION 0)
target_include_directories(clgemm_shared PUBLIC ${CLGEMM_PUBLIC_INCLUDE})
target_link_libraries(clgemm_shared PUBLIC OpenCL::OpenCL PRIVATE clgemm_internal)
# Only the C API (clgemm*) is exported: the core's C++ symbols (and the copies of nlohmann_json's
# templates in it) cannot clash with a program's own, and nothing but clgemm.h can be relied upon.
# --no-undefined: every dependency is linked here, so a consumer never has to name one.
set(CLGEMM_VERSION_SCRIPT ${PROJECT_SOURCE_DIR}/cmake/libclgemm.map)
target_link_options(clgemm_shared PRIVATE "LINKER:--version-script=${CLGEMM_VERSION_SCRIPT}"
                    "LINKER:--no-undefined")
set_property(TARGET clgemm_shared APPEND PROPERTY LINK_DEPENDS ${CLGEMM_VERSION_SCRIPT})
