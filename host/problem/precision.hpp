// The precision a GEMM is computed in: FP32 (float) or FP64 (double), chosen with --precision.
// Every OpenCL kernel of the ladder builds in both from one source (kernels.cl's REAL), the
// libraries have S and D routines, and results are judged in units of the precision's epsilon.
#pragma once

#include <cstddef>
#include <string>

namespace clgemm {

enum class Precision { kFp32, kFp64 };

// "fp32" / "fp64": as --precision takes them and the reports print them.
std::string precisionName(Precision precision);

inline std::size_t elementBytes(Precision precision) {
  return precision == Precision::kFp64 ? sizeof(double) : sizeof(float);
}

// The unit of the error ratio (check/verify.hpp): FLT_EPSILON or DBL_EPSILON.
double machineEpsilon(Precision precision);

}  // namespace clgemm
