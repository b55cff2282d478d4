// The system's BLAS: the sgemm_/dgemm_ that the process would have called without the shim. The
// shim hands it the calls below the threshold and those the device cannot take, and
// `clgemm blas-threshold` times the device against it.
#pragma once

#include <cstddef>
#include <string>

namespace clgemm::blas {

// Fortran SGEMM/DGEMM as gfortran passes them: every argument by reference, then the hidden
// lengths of the two CHARACTER arguments.
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*,
                         const float*, const int*, const float*, const int*, const float*, float*,
                         const int*, std::size_t, std::size_t);
using DgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*,
                         const double*, const double*, const int*, const double*, const int*,
                         const double*, double*, const int*, std::size_t, std::size_t);

struct SystemBlas {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  std::string library;  // the file they come from (its real path), for reports
  std::string error;    // why there is none, when sgemm or dgemm is null
};

// Looked up once, thread-safely: the next sgemm_ and dgemm_ after the object this code is linked
// into (dlsym(RTLD_NEXT)), never the shim's own; else those of libblas.so.3, opened privately
// (RTLD_LOCAL, so its symbols do not join the process's).
const SystemBlas& systemBlas();

}  // namespace clgemm::blas
