// The GEMM being solved: sizes, scalars, the caller's shape (gemm_shape.hpp) and the host
// matrices, logical and stored.
#pragma once

#include <cstdint>
#include <vector>

#include "problem/gemm_shape.hpp"
#include "problem/host_matrix.hpp"
#include "problem/precision.hpp"

namespace clgemm {

struct Problem {
  int m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;  // in FP32 problems, values a float holds (applyShape rounds)
  Precision precision = Precision::kFp32;
  GemmShape shape;
  // The logical matrices, row-major and packed, which the reference reads: doubles whatever the
  // precision (an FP32 problem's are floats, which applyShape rounds them to).
  std::vector<double> a;   // op(A), m x k
  std::vector<double> b;   // op(B), k x n
  std::vector<double> c0;  // m x n: C before the product; empty when beta == 0 and none was given
  // The stored ones in the run's precision, which the variants are given (set by applyShape).
  HostMatrix a_stored, b_stored, c0_stored;

  GemmStorage storage() const { return gemmStorage(m, n, k, shape); }
  RowMajorGemm rowMajor() const { return rowMajorGemm(m, n, k, storage()); }
  const HostMatrix& storedA() const { return a_stored; }
  const HostMatrix& storedB() const { return b_stored; }
  const HostMatrix& storedC0() const { return c0_stored; }
  // Elements of stored C, gaps included.
  std::size_t storedCCount() const { return storage().c.count(); }

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  // GFLOP/s of one product that took `ms` milliseconds.
  double gflopsAt(double ms) const { return flops() / (ms * 1e-3) * 1e-9; }
};

// Fills A and B (and C0 when beta != 0) with uniform values in [-1, 1) from a fixed-seed generator,
// so runs are repeatable and signs mix (which keeps the error ratio meaningful at large K): 24
// random bits for FP32, 53 for FP64. Then applyShape(shape).
Problem makeRandomProblem(int m, int n, int k, double alpha, double beta, std::uint64_t seed,
                          const GemmShape& shape = {}, Precision precision = Precision::kFp32);

// The problem's shape with every leading dimension filled in (the least where it was 0): what the
// reports print.
GemmShape resolvedShape(const Problem& problem);

// Sets the shape and makes the stored matrices from the logical ones in the problem's precision
// (gaps hold the canary); for FP32 first rounds the logical matrices, alpha and beta to float, so
// the reference multiplies what the variants do. Every problem passes through it before it runs.
// Throws UsageError when a leading dimension is below its least.
void applyShape(Problem& problem, const GemmShape& shape);

// C as a run starts it: stored C0 when beta != 0, else NaN in every element (so an element never
// written cannot pass), with the canary in the gaps. Empty when C has no gaps and beta == 0 (a
// fill with NaN does it).
HostMatrix initialStoredC(const Problem& problem);

}  // namespace clgemm
