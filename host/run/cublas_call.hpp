// The arguments of the cublasSgemm call for a problem, apart from the handle and the pointers:
// kept apart from the runner so that the mapping can be tested on machines without CUDA.
#pragma once

#include "problem/problem.hpp"

namespace clgemm {

// cuBLAS is column-major. A column-major problem goes as it is. A row-major one goes as the
// column-major C^T = op(B)^T op(A)^T, because a row-major matrix's memory read column-major is its
// transpose: B's memory comes first and A's second, each with its own op (op(B)^T of row-major B
// is op applied to B's column-major view) and its own leading dimension, and m and n swap. No
// copies either way.
struct CublasCall {
  int op_first = 0, op_second = 0;  // cublasOperation_t of cuBLAS's A and B
  int m = 0, n = 0, k = 0;
  bool b_first = false;  // cuBLAS's A is the problem's stored B (row-major problems)
  int ld_first = 0, ld_second = 0, ldc = 0;
};

CublasCall cublasCallFor(const Problem& problem);

}  // namespace clgemm
