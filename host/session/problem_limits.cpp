#include "session/problem_limits.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "problem/problem.hpp"
#include "session/guarded_cl_buffer.hpp"
#include "util/errors.hpp"

namespace clgemm {

namespace {

// A, B and C together, as stored (gaps included).
std::uint64_t threeMatricesBytes(const GemmStorage& s, Precision precision) {
  return (std::uint64_t(s.a.count()) + s.b.count() + s.c.count()) * elementBytes(precision);
}

std::uint64_t largestStoredElements(const GemmStorage& s) {
  return std::max({s.a.count(), s.b.count(), s.c.count()});
}

// The kernels index with 32-bit ints, which keeps the address arithmetic cheap on GPUs; the CPU
// paths share the limit. Gaps count: an index reaches across them.
void checkIndexable(int m, int n, int k, const GemmStorage& s) {
  if (largestStoredElements(s) > std::uint64_t(INT_MAX)) {
    throw UsageError("a matrix of M=" + std::to_string(m) + " N=" + std::to_string(n) +
                     " K=" + std::to_string(k) +
                     " spans more than 2^31-1 elements (leading dimensions included), beyond the "
                     "kernels' 32-bit indexing; choose smaller sizes or leading dimensions");
  }
}

}  // namespace

void checkProblemFits(const DeviceInfo& device, int m, int n, int k, const GemmShape& shape,
                      Precision precision) {
  const GemmStorage storage = gemmStorage(m, n, k, shape);
  const std::uint64_t largest = largestStoredElements(storage) * elementBytes(precision);
  // Each matrix is allocated with its two guards (guarded_cl_buffer.hpp).
  const std::uint64_t allocation = largest + 2 * GuardedClBuffer::guardBytes(device);
  if (allocation > device.max_alloc_bytes) {
    throw RuntimeError("CL_INVALID_BUFFER_SIZE: M=" + std::to_string(m) +
                       " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                       " needs a buffer of " + formatBytes(allocation) +
                       ", more than the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                       formatBytes(device.max_alloc_bytes) + "); choose smaller sizes");
  }
  const std::uint64_t total = threeMatricesBytes(storage, precision);
  if (total > device.global_mem_bytes) {
    throw RuntimeError("CL_MEM_OBJECT_ALLOCATION_FAILURE: A, B and C need " + formatBytes(total) +
                       ", more than the device's global memory (" +
                       formatBytes(device.global_mem_bytes) + "); choose smaller sizes");
  }
  checkIndexable(m, n, k, storage);
}

void checkHostProblemFits(std::uint64_t host_bytes, int m, int n, int k, const GemmShape& shape,
                          Precision precision) {
  const GemmStorage storage = gemmStorage(m, n, k, shape);
  // The stored matrices and the logical ones the reference reads (doubles).
  const std::uint64_t needed =
      threeMatricesBytes(storage, precision) +
      (std::uint64_t(m) * k + std::uint64_t(k) * n + std::uint64_t(m) * n) * sizeof(double);
  if (host_bytes != 0 && needed > host_bytes) {
    throw RuntimeError("out of host memory: M=" + std::to_string(m) + " N=" + std::to_string(n) +
                       " K=" + std::to_string(k) + " needs " + formatBytes(needed) +
                       " for A, B and C alone, more than this host's " + formatBytes(host_bytes) +
                       "; choose smaller sizes");
  }
  checkIndexable(m, n, k, storage);
}

}  // namespace clgemm
