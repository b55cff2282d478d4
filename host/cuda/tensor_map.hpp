// Tensor maps for NVIDIA's bulk tensor copies (cp.async.bulk.tensor, sm_90 and later): the
// 128-byte descriptor of a 2-D array in global memory and of the box each copy moves, which the
// Tensor Memory Accelerator reads. Its format is the CUDA driver's own, so the driver encodes it
// (cuTensorMapEncodeTiled from libcuda.so.1, loaded with dlopen when a kernel first needs a map,
// as the cuBLAS baseline loads its libraries: nothing of CUDA is needed at build time). OpenCL
// gives no device address of a buffer, so the map is encoded with a placeholder address, and a
// helper kernel writes the buffer's own address into it on the device (tensormap.replace) before
// the GEMM reads it: kernels.cl, set_tensor_map_address.
#pragma once

#include <array>
#include <cstdint>

#include "opencl/device.hpp"
#include "util/errors.hpp"

namespace clgemm {

// The encoded map, as the kernel reads it from global memory (64-byte aligned there).
using TensorMapBytes = std::array<std::uint64_t, 16>;

// A row-major float matrix of `rows` x `cols`, `ld` floats from one row to the next, copied in
// boxes of `box_rows` x `box_cols`, laid out in local memory with the swizzle of a box row
// (box_cols 8, 16 or 32: 32, 64 or 128 bytes), as wgmma reads a k-major swizzled operand. Throws
// CudaError (a RuntimeError: the report row says "error") naming what failed (libcuda missing, no
// CUDA device for `device`, the driver's refusal and the values it refused).
TensorMapBytes encodeSwizzledFloatTiles(const DeviceInfo& device, int rows, int cols, int ld,
                                        int box_rows, int box_cols);

}  // namespace clgemm
