// cpu-naive: the textbook loops in i-k-j order, so the innermost loop walks a row of B and a row
// of C contiguously (vectorised), with OpenMP over rows of C. No blocking: all of B is streamed
// through the caches once per row of C, which is what the blocked paths improve on.
#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_rows.hpp"

namespace clgemm {

void cpuNaiveGemm(const CpuGemm& g) {
  const long n = g.n, k = g.k;
#pragma omp parallel for num_threads(g.threads) schedule(static)
  for (int i = 0; i < g.m; ++i) {
    float* crow = g.c + i * n;
    scaleBeta(crow, n, g.beta);
    addRowTimesB(crow, g.a + i * k, g.alpha, g.b, n, k, n);
  }
}

}  // namespace clgemm
