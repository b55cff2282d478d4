// cpu-blocked-acc: the blocked loops, with each row segment of a block summed in a small local
// buffer (one per thread, in L1) and added to C once at the end: C is read and written once per
// block instead of being updated K times, and alpha and beta are applied once per element, as the
// OpenCL kernels do.
#include <algorithm>
#include <vector>

#include "cpu_gemm.hpp"
#include "cpu_rows.hpp"

namespace clgemm {

void cpuBlockedAccGemm(const CpuGemm& g, int bs_r, int bs_c) {
  const long n = g.n, k = g.k;
  const int row_blocks = (g.m + bs_r - 1) / bs_r, col_blocks = (g.n + bs_c - 1) / bs_c;
#pragma omp parallel num_threads(g.threads)
  {
    std::vector<float> acc(static_cast<std::size_t>(bs_c));
#pragma omp for collapse(2) schedule(static)
    for (int rb = 0; rb < row_blocks; ++rb) {
      for (int cb = 0; cb < col_blocks; ++cb) {
        const int i0 = rb * bs_r, i1 = std::min(g.m, i0 + bs_r);
        const long j0 = long(cb) * bs_c, width = std::min(n, j0 + bs_c) - j0;
        float* sum = acc.data();
        for (int i = i0; i < i1; ++i) {
          std::fill(sum, sum + width, 0.0f);
          addRowTimesB(sum, g.a + i * k, 1.0f, g.b + j0, n, k, width);
          float* cseg = g.c + i * n + j0;
          if (g.beta == 0.0f) {
            for (long j = 0; j < width; ++j) cseg[j] = g.alpha * sum[j];
          } else {
            for (long j = 0; j < width; ++j) cseg[j] = g.alpha * sum[j] + g.beta * cseg[j];
          }
        }
      }
    }
  }
}

}  // namespace clgemm
