// cpu-blocked: C in BS_R x BS_C blocks, i-k-j inside a block. The BS_C-wide slice of B that a
// block needs is reused by all BS_R rows of the block while it is still in cache, instead of all
// of B streaming through for every row as in cpu-naive. OpenMP over blocks; each block of C
// belongs to one thread, so results do not depend on the thread count.
#include <algorithm>

#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_rows.hpp"

namespace clgemm {

void cpuBlockedGemm(const CpuGemm& g, int bs_r, int bs_c) {
  // A block wider than the matrix is the matrix; clamping also keeps the block arithmetic below
  // from overflowing for a -D near INT_MAX.
  bs_r = std::min(bs_r, g.m);
  bs_c = std::min(bs_c, g.n);
  const long n = g.n, k = g.k;
  const int row_blocks = (g.m + bs_r - 1) / bs_r, col_blocks = (g.n + bs_c - 1) / bs_c;
#pragma omp parallel for num_threads(g.threads) collapse(2) schedule(static)
  for (int rb = 0; rb < row_blocks; ++rb) {
    for (int cb = 0; cb < col_blocks; ++cb) {
      const int i0 = rb * bs_r, i1 = std::min(g.m, i0 + bs_r);
      const long j0 = long(cb) * bs_c, width = std::min(n, j0 + bs_c) - j0;
      for (int i = i0; i < i1; ++i) {
        float* cseg = g.c + i * n + j0;
        scaleBeta(cseg, width, g.beta);
        addRowTimesB(cseg, g.a + i * k, g.alpha, g.b + j0, n, k, width);
      }
    }
  }
}

}  // namespace clgemm
