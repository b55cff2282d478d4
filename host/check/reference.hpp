// The CPU reference every result is checked against: the product accumulated in double (an FP32
// result's error is 2^29 times the reference's), compensated for FP64 results (Dot2: each product
// and each sum's rounding error kept in a second double, as if summed in twice the precision), plus
// the magnitude |alpha| * sum_k |A_ik||B_kj| + |beta| |C0_ij| that scales the allowed error per
// element.
#pragma once

#include <cmath>
#include <vector>

#include "problem/problem.hpp"

namespace clgemm {

struct Reference {
  std::vector<double> c;          // alpha * A * B + beta * C0, in double
  std::vector<double> magnitude;  // |alpha| * |A| * |B| + |beta| * |C0|, elementwise
};

// One step of Dot2 (Ogita, Rump and Oishi, "Accurate sum and dot product", 2005): hi + lo +=
// a * b, with the product's rounding error (an FMA gives it exactly) and the sum's (TwoSum) added
// to lo.
inline void addProduct(double& hi, double& lo, double a, double b) {
  const double p = a * b;
  const double e = std::fma(a, b, -p);
  const double s = hi + p;
  const double z = s - hi;
  lo += ((hi - (s - z)) + (p - z)) + e;
  hi = s;
}

// OpenMP over blocks of rows; when beta == 0, C0 is not read (BLAS semantics), like the kernels.
Reference computeReference(const Problem& problem);

}  // namespace clgemm
