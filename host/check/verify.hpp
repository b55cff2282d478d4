// Judges a computed C against the reference with the normalised error of the netlib BLAS tests:
//   ratio = |C - Cref| / (eps * (|alpha| * sum_k |A_ik||B_kj| + |beta| |C0_ij|)),  eps =
//   FLT_EPSILON for FP32 results, DBL_EPSILON for FP64,
// failing when the largest ratio reaches the threshold (16, as in netlib's test input files).
// NaN or Inf in the reference (from NaN/Inf inputs) must be matched exactly; a NaN anywhere else
// (an element the kernel never wrote: C is poisoned with NaN before every run) fails.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "check/reference.hpp"

namespace clgemm {

inline constexpr double kErrorRatioThreshold = 16.0;
inline constexpr double kFp32Epsilon = 1.1920928955078125e-07;  // FLT_EPSILON
// For products of TF32-rounded operands (tc-tf32): the same 16 rounding units, counted in TF32's
// unit 2^-10 instead of FLT_EPSILON's 2^-23, so 16 * 2^13 in the ratio's FP32 units. It applies
// to TF32 variants only; FP32 kernels and tc-3xtf32 are held to kErrorRatioThreshold.
inline constexpr double kTf32ErrorRatioThreshold = 16.0 * 8192.0;

struct Verification {
  bool passed = false;
  double max_ratio = 0.0;    // infinity when an element is NaN/Inf where it should not be
  std::size_t failures = 0;  // elements at or over the threshold
  double threshold = kErrorRatioThreshold;
  std::size_t worst_row = 0, worst_col = 0;
  double worst_value = 0.0;
  double worst_expected = 0.0;
  // Set when the worst case is not one element of C (a sampled check's C*x row); describe() then
  // uses it instead of C[row,col].
  std::string worst_detail;
  // "C[3,17] = 1.5 but the reference is 2.25 (ratio 4.2e6); 12 of 100 elements over 16"
  std::string describe() const;
};

// One element's ratio in units of `eps` (the precision's epsilon: FLT_EPSILON for FP32 results,
// DBL_EPSILON for FP64); infinity when the value is wrong in a way no rounding explains (NaN or Inf
// where the reference has none, a difference where the magnitude is 0).
double errorRatio(double got, double expected, double magnitude, double eps = kFp32Epsilon);

// `c` is the logical result (M x N, row-major), whatever the precision it was computed in.
Verification verify(const Reference& ref, const std::vector<double>& c, std::size_t n,
                    double threshold = kErrorRatioThreshold, double eps = kFp32Epsilon);

}  // namespace clgemm
