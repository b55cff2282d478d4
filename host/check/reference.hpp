// The CPU reference every result is checked against: the product accumulated in double, plus the
// magnitude |alpha| * sum_k |A_ik||B_kj| + |beta| |C0_ij| that scales the allowed error per
// element.
#pragma once

#include <vector>

#include "problem/problem.hpp"

namespace clgemm {

struct Reference {
  std::vector<double> c;          // alpha * A * B + beta * C0, in double
  std::vector<double> magnitude;  // |alpha| * |A| * |B| + |beta| * |C0|, elementwise
};

// OpenMP over blocks of rows; when beta == 0, C0 is not read (BLAS semantics), like the kernels.
Reference computeReference(const Problem& problem);

}  // namespace clgemm
