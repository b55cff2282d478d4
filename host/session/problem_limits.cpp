#include "session/problem_limits.hpp"

#include <climits>
#include <cstdint>

#include "problem/problem.hpp"
#include "session/guarded_cl_buffer.hpp"
#include "util/errors.hpp"

namespace clgemm {

namespace {

// A, B and C together.
std::uint64_t threeMatricesBytes(int m, int n, int k) {
  return (std::uint64_t(m) * std::uint64_t(k) + std::uint64_t(k) * std::uint64_t(n) +
          std::uint64_t(m) * std::uint64_t(n)) *
         sizeof(float);
}

// The kernels index with 32-bit ints, which keeps the address arithmetic cheap on GPUs; the CPU
// paths share the limit.
void checkIndexable(int m, int n, int k) {
  if (largestMatrixBytes(m, n, k) / sizeof(float) > std::uint64_t(INT_MAX)) {
    throw UsageError("a matrix of M=" + std::to_string(m) + " N=" + std::to_string(n) +
                     " K=" + std::to_string(k) +
                     " has more than 2^31-1 elements, beyond the kernels' "
                     "32-bit indexing; choose smaller sizes");
  }
}

}  // namespace

void checkProblemFits(const DeviceInfo& device, int m, int n, int k) {
  const std::uint64_t largest = largestMatrixBytes(m, n, k);
  // Each matrix is allocated with its two guards (guarded_cl_buffer.hpp).
  const std::uint64_t allocation = largest + 2 * GuardedClBuffer::guardBytes(device);
  if (allocation > device.max_alloc_bytes) {
    throw RuntimeError("CL_INVALID_BUFFER_SIZE: M=" + std::to_string(m) +
                       " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                       " needs a buffer of " + formatBytes(allocation) +
                       ", more than the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                       formatBytes(device.max_alloc_bytes) + "); choose smaller sizes");
  }
  const std::uint64_t total = threeMatricesBytes(m, n, k);
  if (total > device.global_mem_bytes) {
    throw RuntimeError("CL_MEM_OBJECT_ALLOCATION_FAILURE: A, B and C need " + formatBytes(total) +
                       ", more than the device's global memory (" +
                       formatBytes(device.global_mem_bytes) + "); choose smaller sizes");
  }
  checkIndexable(m, n, k);
}

void checkHostProblemFits(std::uint64_t host_bytes, int m, int n, int k) {
  const std::uint64_t needed = threeMatricesBytes(m, n, k);
  if (host_bytes != 0 && needed > host_bytes) {
    throw RuntimeError("out of host memory: M=" + std::to_string(m) + " N=" + std::to_string(n) +
                       " K=" + std::to_string(k) + " needs " + formatBytes(needed) +
                       " for A, B and C alone, more than this host's " + formatBytes(host_bytes) +
                       "; choose smaller sizes");
  }
  checkIndexable(m, n, k);
}

}  // namespace clgemm
