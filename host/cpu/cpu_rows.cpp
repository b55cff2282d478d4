#include "cpu/cpu_rows.hpp"

namespace clgemm {

void scaleBeta(float* c, long count, float beta) {
  if (beta == 0.0f) {
    for (long j = 0; j < count; ++j) c[j] = 0.0f;
  } else if (beta != 1.0f) {
    for (long j = 0; j < count; ++j) c[j] *= beta;
  }
}

CLGEMM_HOST_SIMD
void addRowTimesB(float* __restrict out, const float* __restrict a_row, float scale,
                  const float* __restrict b, long ldb, long k, long width) {
  for (long kk = 0; kk < k; ++kk) {
    const float a = scale * a_row[kk];
    const float* __restrict brow = b + kk * ldb;
    for (long j = 0; j < width; ++j) out[j] += a * brow[j];
  }
}

}  // namespace clgemm
