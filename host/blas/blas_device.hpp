// The device side of the BLAS shim: one context and in-order queue on the chosen device, and the
// host-pointer GEMM that copies the caller's matrices in, runs clgemmSgemm/clgemmDgemm and copies
// C back. The shim (blas_shim.cpp) and `clgemm blas-threshold` run this same code, so the
// threshold is measured on what the shim does, copies included.
#pragma once

#include <clgemm/clgemm.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"

namespace clgemm::blas {

struct BlasDevice {
  cl::Context context;
  cl::CommandQueue queue;  // in order: copies, the GEMM and the read of C follow one another
  DeviceInfo info;
};

// CLGEMM_DEVICE's "P:D" (platform and device index as `clgemm --list` prints them). A value that
// is not two non-negative integers around a colon gives the reason in `error`.
struct DeviceSpec {
  std::optional<std::pair<int, int>> indices;  // unset: not given
  std::string error;                           // set: the value is not P:D, and why
};
DeviceSpec parseDeviceSpec(const char* value);

// A context and queue on that device, else the first GPU, else the first device
// (opencl/device.hpp's selectDevice). Throws clgemm's Error (an index out of range names what
// exists) or cl::Error.
BlasDevice openBlasDevice(const std::optional<std::pair<int, int>>& indices);
// A context and queue on a device already chosen (clgemm blas-threshold's --platform/--device).
BlasDevice openBlasDevice(const SelectedDevice& selected);

// What one GEMM on the device came to: clgemmSuccess, or the status and clgemmLastMessage()
// (or the OpenCL call that failed).
struct DeviceGemmResult {
  int status = clgemmSuccess;
  std::string message;
  bool ok() const { return status == clgemmSuccess; }
};

// C = alpha op(A) op(B) + beta C on host matrices in `layout` (element (i, j) of a column-major
// matrix at j * ld + i, row-major at i * ld + j), through device buffers of the stored extents.
// Only the elements of the matrices move: A and B are not copied when alpha == 0 or k == 0, nor C
// when beta == 0, and only C's m x n elements are written back, never the gaps between its lines.
// Blocks until C is back. m, n must be > 0 (the caller's quick return).
template <typename T>
DeviceGemmResult deviceGemm(BlasDevice& device, clgemmLayout layout, clgemmTranspose trans_a,
                            clgemmTranspose trans_b, std::size_t m, std::size_t n, std::size_t k,
                            T alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb,
                            T beta, T* c, std::size_t ldc);

}  // namespace clgemm::blas
