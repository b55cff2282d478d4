// One clgemmSgemm / clgemmDgemm call: its arguments checked as BLAS checks them, the parameters
// found as the command line finds them, and the launches of the command line's KernelPlan
// enqueued on the caller's queue.
#pragma once

#include <clgemm/clgemm.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "problem/precision.hpp"

namespace clgemm {

// A call the library refuses, with its status and a message naming the argument.
class ApiError : public std::runtime_error {
 public:
  ApiError(clgemmStatus status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  clgemmStatus status() const { return status_; }

 private:
  clgemmStatus status_;
};

// The arguments of clgemmSgemm / clgemmDgemm, alpha and beta widened to double (exact for floats).
struct GemmCall {
  Precision precision = Precision::kFp32;
  clgemmLayout layout = clgemmLayoutRowMajor;
  clgemmTranspose a_transpose = clgemmTransposeNo, b_transpose = clgemmTransposeNo;
  std::size_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  cl_mem a = nullptr, b = nullptr, c = nullptr;
  std::size_t a_offset = 0, a_ld = 0, b_offset = 0, b_ld = 0, c_offset = 0, c_ld = 0;
  cl_command_queue* queue = nullptr;
  cl_event* event = nullptr;
};

// Enqueues the call (ApiError for a refused argument; the core's errors otherwise: ClError,
// BuildError, UsageError for parameters that do not fit the device). Sets *event (where given)
// to the last command's event, retained for the caller, or to null when nothing was enqueued.
void enqueueGemmCall(const GemmCall& call);

}  // namespace clgemm
