// A device matrix between canaries: one buffer holding guard, matrix, guard, and a sub-buffer of
// exactly the matrix that kernels and CLBlast are given. A kernel that overruns its matrix writes
// into the guards, which checkGuards reads back after the run (memory_check.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "check/memory_check.hpp"
#include "opencl/device.hpp"
#include "opencl/opencl.hpp"

namespace clgemm {

class GuardedClBuffer {
 public:
  GuardedClBuffer() = default;
  // Allocates `count` elements of `precision` with a guard on each side of at least kGuardBytes,
  // rounded up to the
  // device's base address alignment (where a sub-buffer may start), and fills the guards.
  // `view_flags` is the kernels' access to the matrix (CL_MEM_READ_ONLY for A and B).
  GuardedClBuffer(cl::Context& context, cl::CommandQueue& queue, const DeviceInfo& device,
                  cl_mem_flags view_flags, std::size_t count, std::string name,
                  Precision precision = Precision::kFp32);

  bool allocated() const { return count_ != 0; }
  // The matrix alone, as the kernels see it.
  cl::Buffer& view() { return view_; }
  // `count` elements of the matrix from `offset`, as a buffer of their own (a sub-buffer of the
  // allocation: `offset` elements must be a multiple of the device's base address alignment).
  cl::Buffer part(std::size_t offset, std::size_t count);

  // Sets every element of the matrix to `value` (C's NaN poison before each run). On oclgrind this
  // is a host write, not clEnqueueFillBuffer: oclgrind 21.10's uninitialised-value checker sizes a
  // buffer's shadow memory by the last host store into it, so a fill (one 4-byte store per element)
  // leaves shadow for the first element only, the kernel's stores past it are dropped and every
  // load of what the kernel itself wrote is reported as uninitialised.
  void fill(cl::CommandQueue& queue, double value);
  // Adds a finding for each guard that is no longer all canaries, and refills those, so the next
  // variant starts from clean guards.
  void checkGuards(cl::CommandQueue& queue, MemoryCheck& out);
  // Compares the matrix with `original` (bit for bit, a slice at a time) and adds a finding when
  // it changed; then writes the original back, so the next variant gets the true inputs.
  void checkUnchanged(cl::CommandQueue& queue, const HostMatrix& original, std::size_t cols,
                      MemoryCheck& out);

  // Bytes of one guard on this device; 0 on oclgrind, which bounds-checks every access itself.
  static std::size_t guardBytes(const DeviceInfo& device);

 private:
  void fillGuard(cl::CommandQueue& queue, std::size_t offset_bytes);

  std::string name_;
  bool on_oclgrind_ = false;
  std::size_t count_ = 0;
  Precision precision_ = Precision::kFp32;
  std::size_t bytes() const { return count_ * elementBytes(precision_); }
  std::size_t guard_bytes_ = 0;
  cl_mem_flags view_flags_ = CL_MEM_READ_WRITE;
  cl::Buffer whole_, view_;
};

}  // namespace clgemm
