// The GEMM being solved: sizes, scalars and the host matrices (row-major float).
#pragma once

#include <cstdint>
#include <vector>

namespace clgemm {

struct Problem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  std::vector<float> a;   // m x k
  std::vector<float> b;   // k x n
  std::vector<float> c0;  // m x n: C before the product; empty when beta == 0 and none was given

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  // GFLOP/s of one product that took `ms` milliseconds.
  double gflopsAt(double ms) const { return flops() / (ms * 1e-3) * 1e-9; }
};

// Fills A and B (and C0 when beta != 0) with uniform values in [-1, 1) from a fixed-seed generator,
// so runs are repeatable and signs mix (which keeps the error ratio meaningful at large K).
Problem makeRandomProblem(int m, int n, int k, float alpha, float beta, std::uint64_t seed);

// Bytes of the largest of A, B and C for these sizes.
std::uint64_t largestMatrixBytes(int m, int n, int k);

}  // namespace clgemm
