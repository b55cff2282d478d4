// cpu-blocked-acc: the blocked loops (BS_R x BS_C blocks of C, K in steps of BS_K), with each
// 64-wide row segment summed over a K-step in a local accumulator held in vector registers before
// it is added to C. Two things the plain blocked loops lack, each measured (docs/performance.md):
//  - the accumulator is explicit GCC vectors, 8 independent chains (even and odd k), so the FMAs
//    do not wait on each other's latency;
//  - the block's BS_K x BS_C slice of B is first copied into a per-thread buffer as 64-wide
//    segments. Read in place, rows of B 4 KiB apart (N = 1024, 2048, ...) all fall in the same few
//    L1 sets and evict each other: 27 GFLOP/s at N = 1024 against 46 at N = 1000.
#include <algorithm>
#include <vector>

#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_rows.hpp"

namespace clgemm {
namespace {

constexpr long kSegment = 64;  // floats per accumulator: 4 AVX-512 or 8 AVX2 registers

// 16 floats as one GCC vector (lowered to zmm, 2 ymm or 4 xmm per clone); aligned(4) allows any
// float address.
typedef float Vec16 __attribute__((vector_size(64), aligned(4)));

// sum[j] = sum_{kk < k} a_row[kk] * seg[kk * kSegment + j] for j < kSegment, where seg is one
// packed 64-wide segment of B.
CLGEMM_HOST_SIMD
void segmentTimesB(float* __restrict sum, const float* __restrict a_row,
                   const float* __restrict seg, long k) {
  Vec16 e0 = {}, e1 = {}, e2 = {}, e3 = {}, o0 = {}, o1 = {}, o2 = {}, o3 = {};
  long kk = 0;
  for (; kk + 1 < k; kk += 2) {
    const Vec16* even = reinterpret_cast<const Vec16*>(seg + kk * kSegment);
    const Vec16* odd = even + kSegment / 16;
    const float a = a_row[kk], b = a_row[kk + 1];
    e0 += a * even[0];
    e1 += a * even[1];
    e2 += a * even[2];
    e3 += a * even[3];
    o0 += b * odd[0];
    o1 += b * odd[1];
    o2 += b * odd[2];
    o3 += b * odd[3];
  }
  if (kk < k) {
    const Vec16* last = reinterpret_cast<const Vec16*>(seg + kk * kSegment);
    const float a = a_row[kk];
    e0 += a * last[0];
    e1 += a * last[1];
    e2 += a * last[2];
    e3 += a * last[3];
  }
  Vec16* out = reinterpret_cast<Vec16*>(sum);
  out[0] = e0 + o0;
  out[1] = e1 + o1;
  out[2] = e2 + o2;
  out[3] = e3 + o3;
}

// Copies B[k0 : k0 + kc, j0 : j1] into `packed` as 64-wide segments, [segment][k][64], the last
// segment padded with zeros.
void packSlice(std::vector<float>& packed, const float* b, long n, long k0, long kc, long j0,
               long j1) {
  const long segments = (j1 - j0 + kSegment - 1) / kSegment;
  packed.resize(std::size_t(segments * kc * kSegment));
  for (long s = 0; s < segments; ++s) {
    const long c0 = j0 + s * kSegment, width = std::min(kSegment, j1 - c0);
    float* dst = packed.data() + s * kc * kSegment;
    for (long kk = 0; kk < kc; ++kk) {
      const float* src = b + (k0 + kk) * n + c0;
      std::copy(src, src + width, dst + kk * kSegment);
      std::fill(dst + kk * kSegment + width, dst + (kk + 1) * kSegment, 0.0f);
    }
  }
}

}  // namespace

void cpuBlockedAccGemm(const CpuGemm& g, int bs_r, int bs_c, int bs_k) {
  // As in cpuBlockedGemm: a block beyond the matrix is the matrix, and no overflow near INT_MAX.
  bs_r = std::min(bs_r, g.m);
  bs_c = std::min(bs_c, g.n);
  bs_k = std::min(bs_k, g.k);
  const long n = g.n, k = g.k;
  const int row_blocks = (g.m + bs_r - 1) / bs_r, col_blocks = (g.n + bs_c - 1) / bs_c;
#pragma omp parallel num_threads(g.threads)
  {
    std::vector<float> packed;  // per thread, reused for every block
    alignas(64) float sum[kSegment];
#pragma omp for collapse(2) schedule(static)
    for (int rb = 0; rb < row_blocks; ++rb) {
      for (int cb = 0; cb < col_blocks; ++cb) {
        const int i0 = rb * bs_r, i1 = std::min(g.m, i0 + bs_r);
        const long j0 = long(cb) * bs_c, j1 = std::min(n, j0 + bs_c);
        for (int i = i0; i < i1; ++i) scaleBeta(g.c + i * n + j0, j1 - j0, g.beta);
        for (long k0 = 0; k0 < k; k0 += bs_k) {
          const long kc = std::min(k, k0 + bs_k) - k0;
          packSlice(packed, g.b, n, k0, kc, j0, j1);
          for (int i = i0; i < i1; ++i) {
            const float* a_row = g.a + i * k + k0;
            float* crow = g.c + i * n;
            for (long c0 = j0, s = 0; c0 < j1; c0 += kSegment, ++s) {
              segmentTimesB(sum, a_row, packed.data() + s * kc * kSegment, kc);
              const long width = std::min(kSegment, j1 - c0);
              for (long j = 0; j < width; ++j) crow[c0 + j] += g.alpha * sum[j];
            }
          }
        }
      }
    }
  }
}

}  // namespace clgemm
