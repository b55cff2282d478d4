#include "check/reference.hpp"

#include <algorithm>
#include <cmath>

namespace clgemm {

namespace {

template <bool kCompensated>
Reference computeWith(const Problem& p) {
  const std::size_t m = std::size_t(p.m), n = std::size_t(p.n), k = std::size_t(p.k);
  Reference ref;
  ref.c.assign(m * n, 0.0);
  ref.magnitude.assign(m * n, 0.0);
  // Rows in blocks of four so each row of B read from memory serves four rows of C.
  constexpr std::size_t kRowBlock = 4;
  const long blocks = long((m + kRowBlock - 1) / kRowBlock);
#pragma omp parallel for schedule(dynamic, 1)
  for (long block = 0; block < blocks; ++block) {
    const std::size_t i0 = std::size_t(block) * kRowBlock;
    const std::size_t i1 = std::min(m, i0 + kRowBlock);
    // Dot2's second half of each sum (unused without compensation).
    std::vector<double> lo(kCompensated ? (i1 - i0) * n : 0, 0.0);
    for (std::size_t kk = 0; kk < k; ++kk) {
      const double* brow = &p.b[kk * n];
      for (std::size_t i = i0; i < i1; ++i) {
        const double a = p.a[i * k + kk];
        const double abs_a = std::fabs(a);
        double* crow = &ref.c[i * n];
        double* mrow = &ref.magnitude[i * n];
        for (std::size_t j = 0; j < n; ++j) {
          const double b = brow[j];
          if constexpr (kCompensated)
            addProduct(crow[j], lo[(i - i0) * n + j], a, b);
          else
            crow[j] += a * b;
          mrow[j] += abs_a * std::fabs(b);
        }
      }
    }
    for (std::size_t i = i0; i < i1; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        double& c = ref.c[i * n + j];
        double& mag = ref.magnitude[i * n + j];
        const double c0 = p.beta != 0.0 ? p.c0[i * n + j] : 0.0;
        const double low = kCompensated ? lo[(i - i0) * n + j] : 0.0;
        c = std::fma(p.alpha, c, std::fma(p.alpha, low, p.beta * c0));
        mag = std::fabs(p.alpha) * mag + std::fabs(p.beta) * std::fabs(c0);
      }
    }
  }
  return ref;
}

}  // namespace

Reference computeReference(const Problem& p) {
  return p.precision == Precision::kFp64 ? computeWith<true>(p) : computeWith<false>(p);
}

}  // namespace clgemm
