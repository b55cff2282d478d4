#include "problem/precision.hpp"

#include <cfloat>

namespace clgemm {

std::string precisionName(Precision precision) {
  return precision == Precision::kFp64 ? "fp64" : "fp32";
}

double machineEpsilon(Precision precision) {
  return precision == Precision::kFp64 ? DBL_EPSILON : double(FLT_EPSILON);
}

}  // namespace clgemm
