// Building blocks shared by the simple CPU paths (cpu-naive, cpu-blocked, cpu-blocked-acc).
#pragma once

namespace clgemm {

// GCC's function multiversioning: one clone per x86 level (AVX-512, AVX2+FMA, baseline), resolved
// once at load time, since the binary is built for generic x86-64 and runs on whatever host it is
// copied to.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CLGEMM_HOST_SIMD \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CLGEMM_HOST_SIMD
#endif

// C *= beta before a product is added, with BLAS semantics for beta == 0: C is overwritten, never
// read, so NaN in C does not survive.
void scaleBeta(float* c, long count, float beta);

// out[j] += sum_k (scale * a_row[k]) * b[k * ldb + j] for j < width: one row segment of C over the
// whole K. Compiled with CLGEMM_HOST_SIMD.
void addRowTimesB(float* out, const float* a_row, float scale, const float* b, long ldb, long k,
                  long width);

}  // namespace clgemm
