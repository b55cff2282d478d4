// What problem sizes a run may use on a device: the default when none is given, and the checks
// that refuse a size the device cannot hold before anything is allocated.
#pragma once

#include <cstdint>

#include "opencl/device.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/precision.hpp"

namespace clgemm {

// Big enough to time meaningfully on a GPU, small enough that run and reference take seconds.
inline constexpr int kDefaultGpuSize = 2048;
inline constexpr int kDefaultOtherSize = 512;

inline int defaultProblemSize(bool is_gpu) { return is_gpu ? kDefaultGpuSize : kDefaultOtherSize; }

// Throws RuntimeError when a matrix exceeds the device's largest allocation or the three exceed
// its global memory, UsageError when a matrix has more elements than the kernels' 32-bit indexing.
// Matrices count as stored in `shape` (gaps included); a leading dimension below its least is a
// UsageError naming the option.
void checkProblemFits(const DeviceInfo& device, int m, int n, int k, const GemmShape& shape = {},
                      Precision precision = Precision::kFp32);

// The host's side, for every run (the CPU paths have no device to refuse a size): throws
// RuntimeError when A, B and C alone exceed the host's physical memory `host_bytes` (0: unknown,
// not checked), UsageError when a matrix has more elements than 32-bit indexing.
void checkHostProblemFits(std::uint64_t host_bytes, int m, int n, int k,
                          const GemmShape& shape = {}, Precision precision = Precision::kFp32);

}  // namespace clgemm
