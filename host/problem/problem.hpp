// The GEMM being solved: sizes, scalars, the caller's shape (gemm_shape.hpp) and the host
// matrices, logical and stored.
#pragma once

#include <cstdint>
#include <vector>

#include "problem/gemm_shape.hpp"

namespace clgemm {

struct Problem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  GemmShape shape;
  // The logical matrices, row-major and packed, which the reference reads.
  std::vector<float> a;   // op(A), m x k
  std::vector<float> b;   // op(B), k x n
  std::vector<float> c0;  // m x n: C before the product; empty when beta == 0 and none was given
  // The stored ones, which the variants are given, where they differ from the logical ones (set
  // by applyShape; empty where the storage is packed row-major).
  std::vector<float> a_stored, b_stored, c0_stored;

  GemmStorage storage() const { return gemmStorage(m, n, k, shape); }
  RowMajorGemm rowMajor() const { return rowMajorGemm(m, n, k, storage()); }
  const std::vector<float>& storedA() const { return a_stored.empty() ? a : a_stored; }
  const std::vector<float>& storedB() const { return b_stored.empty() ? b : b_stored; }
  const std::vector<float>& storedC0() const { return c0_stored.empty() ? c0 : c0_stored; }
  // Floats of stored C, gaps included.
  std::size_t storedCCount() const { return storage().c.count(); }

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  // GFLOP/s of one product that took `ms` milliseconds.
  double gflopsAt(double ms) const { return flops() / (ms * 1e-3) * 1e-9; }
};

// Fills A and B (and C0 when beta != 0) with uniform values in [-1, 1) from a fixed-seed generator,
// so runs are repeatable and signs mix (which keeps the error ratio meaningful at large K).
Problem makeRandomProblem(int m, int n, int k, float alpha, float beta, std::uint64_t seed);

// The problem's shape with every leading dimension filled in (the least where it was 0): what the
// reports print.
GemmShape resolvedShape(const Problem& problem);

// Sets the shape and makes the stored matrices from the logical ones (gaps hold the canary).
// Throws UsageError when a leading dimension is below its least.
void applyShape(Problem& problem, const GemmShape& shape);

// C as a run starts it: stored C0 when beta != 0, else NaN in every element (so an element never
// written cannot pass), with the canary in the gaps. Empty when C has no gaps and beta == 0 (a
// fill with NaN does it).
std::vector<float> initialStoredC(const Problem& problem);

// Bytes of the largest of A, B and C for these sizes.
std::uint64_t largestMatrixBytes(int m, int n, int k);

}  // namespace clgemm
