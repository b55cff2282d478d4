// The CPU GEMM paths (OpenMP), all with one calling convention so the runner can time and verify
// them like the OpenCL kernels. Row-major: A is m x k (lda = k), B is k x n (ldb = n), C is m x n
// (ldc = n). C = alpha * A * B + beta * C; with beta == 0, C is not read (it may hold NaN).
#pragma once

#include <string>

namespace clgemm {

struct CpuGemm {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  const float* a = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
  int threads = 1;  // OpenMP threads to use
};

// i-k-j loop order, OpenMP over rows.
void cpuNaiveGemm(const CpuGemm& g);

// bs_r x bs_c blocks of C, i-k-j inside each block.
void cpuBlockedGemm(const CpuGemm& g, int bs_r, int bs_c);

// As cpuBlockedGemm with K in steps of bs_k, each row segment of a block summed over a K-step in a
// local (register) accumulator before it is added to C.
void cpuBlockedAccGemm(const CpuGemm& g, int bs_r, int bs_c, int bs_k);

// BLIS-style: five loops around an MR x NR register micro-kernel, A and B packed into contiguous
// panels, MC x KC blocks of A and KC x NC blocks of B.
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
