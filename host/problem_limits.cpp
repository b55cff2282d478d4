#include "problem_limits.hpp"

#include <climits>
#include <cstdint>

#include "errors.hpp"
#include "problem.hpp"

namespace clgemm {

void checkProblemFits(const DeviceInfo& device, int m, int n, int k) {
  const std::uint64_t largest = largestMatrixBytes(m, n, k);
  if (largest > device.max_alloc_bytes) {
    throw RuntimeError("CL_INVALID_BUFFER_SIZE: M=" + std::to_string(m) +
                       " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                       " needs a buffer of " + formatBytes(largest) +
                       ", more than the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                       formatBytes(device.max_alloc_bytes) + "); choose smaller sizes");
  }
  const std::uint64_t total =
      (std::uint64_t(m) * std::uint64_t(k) + std::uint64_t(k) * std::uint64_t(n) +
       std::uint64_t(m) * std::uint64_t(n)) *
      sizeof(float);
  if (total > device.global_mem_bytes) {
    throw RuntimeError("CL_MEM_OBJECT_ALLOCATION_FAILURE: A, B and C need " + formatBytes(total) +
                       ", more than the device's global memory (" +
                       formatBytes(device.global_mem_bytes) + "); choose smaller sizes");
  }
  // The kernels index with 32-bit ints, which keeps the address arithmetic cheap on GPUs.
  const std::uint64_t limit = std::uint64_t(INT_MAX);
  if (largest / sizeof(float) > limit) {
    throw UsageError("a matrix of M=" + std::to_string(m) + " N=" + std::to_string(n) +
                     " K=" + std::to_string(k) +
                     " has more than 2^31-1 elements, beyond the kernels' "
                     "32-bit indexing; choose smaller sizes");
  }
}

}  // namespace clgemm
