// The CPU GEMM paths (OpenMP), all with one calling convention so the runner can time and verify
// them like the OpenCL kernels: C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n,
// C m x n; with beta == 0, C is not read (it may hold NaN). By default each matrix is packed
// row-major (lda = k, ldb = n, ldc = n); cpu-packed also takes any layout through strides.
#pragma once

#include <cstddef>
#include <string>

namespace clgemm {

// Where a matrix's elements lie: (r, c) at r * row + c * col floats from its start, as BLIS
// describes every layout with its rs and cs. Row-major with leading dimension ld is {ld, 1};
// column-major, or a row-major matrix read as its transpose, is {1, ld}.
struct Strides {
  std::ptrdiff_t row = 0, col = 0;
};

struct CpuGemm {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  const float* a = nullptr;  // op(A)'s element (0, 0)
  const float* b = nullptr;  // op(B)'s
  float* c = nullptr;
  int threads = 1;  // OpenMP threads to use
  // Strides of op(A), op(B) and C; {0, 0} means packed row-major ({k, 1}, {n, 1}, {n, 1}). Only
  // cpuPackedGemm reads other strides: the other paths index packed row-major matrices, and
  // their variants are default_shape_only (registry/cpu_paths.cpp), so they never get others.
  Strides a_strides, b_strides, c_strides;

  Strides aStrides() const { return orPacked(a_strides, k); }
  Strides bStrides() const { return orPacked(b_strides, n); }
  Strides cStrides() const { return orPacked(c_strides, n); }

 private:
  static Strides orPacked(Strides s, int cols) {
    return s.row == 0 && s.col == 0 ? Strides{cols, 1} : s;
  }
};

// i-k-j loop order, OpenMP over rows.
void cpuNaiveGemm(const CpuGemm& g);

// bs_r x bs_c blocks of C, i-k-j inside each block.
void cpuBlockedGemm(const CpuGemm& g, int bs_r, int bs_c);

// As cpuBlockedGemm with K in steps of bs_k, each row segment of a block summed over a K-step in a
// local (register) accumulator before it is added to C.
void cpuBlockedAccGemm(const CpuGemm& g, int bs_r, int bs_c, int bs_k);

// BLIS-style: five loops around an MR x NR register micro-kernel, A and B packed into contiguous
// panels, MC x KC blocks of A and KC x NC blocks of B. Any strides of op(A) and op(B) (packing
// reads them); C needs a unit stride along its rows or its columns (every BLAS layout has one),
// else std::invalid_argument.
struct PackedBlocking {
  int mc = 0, kc = 0, nc = 0;
};
void cpuPackedGemm(const CpuGemm& g, const PackedBlocking& blocking);

// The micro-kernel cpuPackedGemm picks on this CPU, e.g. "avx512 14x32", "avx2 6x16",
// "portable 4x8" (for the report).
std::string cpuPackedMicroKernel();

// Default blocking for the micro-kernel picked on this CPU (used for the registry's defaults).
PackedBlocking cpuPackedDefaultBlocking();

}  // namespace clgemm
