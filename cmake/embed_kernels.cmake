# Writes kernels.cl into a C++ source file as a raw string, so a clgemm binary copied anywhere
# still has its kernels. Run with -DINPUT=kernels.cl -DOUTPUT=embedded_kernels.cpp.
file(READ "${INPUT}" content)
set(delimiter "CLGEMM_CL")
string(FIND "${content}" ")${delimiter}" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter ${delimiter}")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from kernels.cl by cmake/embed_kernels.cmake; do not edit.\n"
  "#include \"opencl/kernel_source.hpp\"\n"
  "namespace clgemm {\n"
  "const char* const kEmbeddedKernels = R\"${delimiter}(${content})${delimiter}\";\n"
  "}  // namespace clgemm\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
