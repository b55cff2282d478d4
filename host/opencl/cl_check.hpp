// Turns OpenCL error codes into exceptions that name the failed call and the code
// (CL_OUT_OF_RESOURCES, not -5).
#pragma once

#include <string>

#include "opencl/opencl.hpp"
#include "util/errors.hpp"

namespace clgemm {

// The symbolic name of an OpenCL status code, e.g. "CL_OUT_OF_RESOURCES"; "CL_UNKNOWN(-1234)" else.
std::string clErrorName(int code);

// An OpenCL call failed at run time (exit 3).
class ClError : public RuntimeError {
 public:
  ClError(const std::string& call, int code);
  int clCode() const { return code_; }

 private:
  int code_;
};

// Throws ClError when code is not CL_SUCCESS.
void clCheck(int code, const std::string& call);

// Re-throws a cl::Error from the C++ bindings as a ClError with the code's name.
[[noreturn]] void rethrowClError(const cl::Error& e);

}  // namespace clgemm
