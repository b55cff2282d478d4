// The OpenCL side of a run: one device, its context and profiling queue, the program cache, and
// the A, B, C buffers every OpenCL variant (kernels and CLBlast) shares, each between canaries.
#pragma once

#include <optional>
#include <vector>

#include "check/memory_check.hpp"
#include "opencl/device.hpp"
#include "opencl/kernel_source.hpp"
#include "opencl/opencl.hpp"
#include "opencl/program.hpp"
#include "problem/problem.hpp"
#include "session/guarded_cl_buffer.hpp"

namespace clgemm {

class ClSession {
 public:
  ClSession(const SelectedDevice& device, const KernelSource& source);

  const DeviceInfo& info() const { return info_; }
  const cl::Device& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }
  ProgramCache& programs() { return *programs_; }

  // Allocates A, B and C on the device and uploads A and B. Called once, after every variant has
  // been prepared, so a bad define fails before any large allocation.
  void upload(const Problem& problem);
  // The matrices as kernels see them (sub-buffers inside the guarded allocations).
  cl::Buffer& a() { return a_.view(); }
  cl::Buffer& b() { return b_.view(); }
  cl::Buffer& c() { return c_.view(); }
  // Rows [first, first + rows) of A or of C as buffers of their own, for a GEMM on part of the
  // problem; first * K (A) or first * N (C) floats must be a multiple of the device's base address
  // alignment.
  cl::Buffer aRows(int first, int rows);
  cl::Buffer cRows(int first, int rows);
  // A scratch matrix of `count` elements of the problem's precision between canaries, e.g. B
  // transposed.
  GuardedClBuffer scratch(std::size_t count, const std::string& name);

  // Enqueues the reset of C before a run: C0 when beta != 0, else NaN, so a run never sees the
  // previous one's result and an element a kernel fails to write cannot pass; the canary in C's
  // gaps (gemm_shape.hpp).
  void resetC();
  // Blocking read of C into `result`, as the logical matrix (M x N, row-major); what a run wrote
  // into C's gaps is reported by the next checkMemory.
  void readC(std::vector<double>& result);
  // After a variant's run: the guards of A, B and C, and A and B against the problem's. Whatever
  // a variant broke is repaired, so the next one starts clean.
  MemoryCheck checkMemory();

 private:
  cl::Device device_;
  DeviceInfo info_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::optional<ProgramCache> programs_;
  const Problem* problem_ = nullptr;
  GuardedClBuffer a_, b_, c_;
  MatrixStorage c_storage_;
  HostMatrix initial_c_;  // initialStoredC: what resetC writes, or empty (a NaN fill)
  MemoryCheck c_gaps_;    // what readC found in C's gaps, for checkMemory
};

}  // namespace clgemm
