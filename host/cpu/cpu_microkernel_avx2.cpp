// cpu-packed micro-kernel for AVX2 + FMA (Intel Haswell and later, AMD Zen 1-3): 6 x 16.
//
// Why 6 x 16: AVX2 has only 16 ymm registers of 8 floats. A tile row is two ymm (16 columns), so
// 6 rows take 12 accumulators, the two B vectors of the current k step 2 more and the broadcast A
// value one (AVX2 FMAs cannot broadcast from memory): 15 of 16. That gives 12 independent FMA
// chains, enough to cover the FMA latency on two pipes, for 2 vector loads and 6 broadcasts per k
// step. Measured with the panels in cache: 105 GFLOP/s on one Zen 5 core forced to AVX2, 94% of
// its 112 GFLOP/s AVX2 peak.
//
// Compiled with a target attribute rather than -mavx2, so that the rest of the library stays
// generic x86-64; cpu_packed.cpp only calls it after checking the CPU.
#include "cpu/cpu_packed_kernels.hpp"

#if defined(__x86_64__)

#include <immintrin.h>

#define CLGEMM_TARGET_AVX2 __attribute__((target("avx2,fma")))

namespace clgemm {
namespace packed {
namespace {

constexpr int kMr = 6;
constexpr int kVectors = 2;  // ymm per tile row
constexpr int kNr = 8 * kVectors;

// All-ones in lanes [0, cols) of one ymm, for vmaskmovps; cols clamped to 0..8.
CLGEMM_TARGET_AVX2 inline __m256i laneMask(int cols) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(cols), lane);
}

// C = alpha * acc (+ beta * C) for `rows` x `cols` of the tile. The same fused formula is used for
// full and edge tiles, so an element's value does not depend on where the tile boundaries fall.
CLGEMM_TARGET_AVX2 inline void writeBack(const TileArgs& t, const __m256 (&acc)[kMr][kVectors]) {
  const __m256 alpha = _mm256_set1_ps(t.alpha);
  const __m256 beta = _mm256_set1_ps(t.beta);
  const bool read_c = t.beta != 0.0f;
  const bool full_width = t.cols == kNr;
  // Unrolled over the constant kMr, with an exit at t.rows, so that acc[i][v] stays in registers
  // (a loop bounded by t.rows would index acc at run time and force it onto the stack).
#pragma GCC unroll 16
  for (int i = 0; i < kMr; ++i) {
    if (i == t.rows) break;
    float* c_row = t.c + i * t.ldc;
#pragma GCC unroll 2
    for (int v = 0; v < kVectors; ++v) {
      float* c_vec = c_row + 8 * v;
      if (full_width) {
        const __m256 c_old =
            read_c ? _mm256_mul_ps(beta, _mm256_loadu_ps(c_vec)) : _mm256_setzero_ps();
        _mm256_storeu_ps(c_vec, _mm256_fmadd_ps(alpha, acc[i][v], c_old));
      } else {
        // Masked loads and stores do not touch (or fault on) the lanes past the edge of C.
        const __m256i mask = laneMask(t.cols - 8 * v);
        const __m256 c_old =
            read_c ? _mm256_mul_ps(beta, _mm256_maskload_ps(c_vec, mask)) : _mm256_setzero_ps();
        _mm256_maskstore_ps(c_vec, mask, _mm256_fmadd_ps(alpha, acc[i][v], c_old));
      }
    }
  }
}

CLGEMM_TARGET_AVX2 void kernel6x16(const TileArgs& t) {
  __m256 acc[kMr][kVectors];
#pragma GCC unroll 6
  for (int i = 0; i < kMr; ++i) {
    acc[i][0] = _mm256_setzero_ps();
    acc[i][1] = _mm256_setzero_ps();
  }

  // The tile of C is read (or written) only after the k loop; start fetching it now so that the
  // write-back does not wait on memory.
  for (int i = 0; i < t.rows; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(t.c + i * t.ldc), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(t.c + i * t.ldc + kNr - 1), _MM_HINT_T0);
  }

  // Locals, not t's fields: the compiler cannot always prove that the stores of the loop leave t
  // unchanged, and would reload them every step.
  const int kc = t.kc;
  const float* a = t.a;
  const float* b = t.b;
#pragma GCC unroll 4
  for (int p = 0; p < kc; ++p) {
    const __m256 b0 = _mm256_load_ps(b);
    const __m256 b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
    for (int i = 0; i < kMr; ++i) {
      const __m256 a_i = _mm256_broadcast_ss(a + i);
      acc[i][0] = _mm256_fmadd_ps(a_i, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(a_i, b1, acc[i][1]);
    }
    a += kMr;
    b += kNr;
  }
  writeBack(t, acc);
}

// ---- Packing A ----

// Transposes 8 rows of 8 floats in registers: rows[i] lane j becomes rows[j] lane i. Three rounds
// of shuffles (32-bit, 64-bit, then 128-bit halves), 24 shuffles for 64 floats; scalar copying
// costs a load and a store per float.
CLGEMM_TARGET_AVX2 inline void transpose8x8(__m256 (&rows)[8]) {
  __m256 t[8];
#pragma GCC unroll 4
  for (int i = 0; i < 8; i += 2) {  // 2 x 2 blocks of floats
    t[i] = _mm256_unpacklo_ps(rows[i], rows[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(rows[i], rows[i + 1]);
  }
  __m256 u[8];
#pragma GCC unroll 2
  for (int i = 0; i < 8; i += 4) {  // 4 x 4 blocks, one per 128-bit half
#pragma GCC unroll 2
    for (int j = 0; j < 2; ++j) {
      u[i + 2 * j] = _mm256_shuffle_ps(t[i + j], t[i + j + 2], 0x44);
      u[i + 2 * j + 1] = _mm256_shuffle_ps(t[i + j], t[i + j + 2], 0xEE);
    }
  }
  // u[4 * g + c] holds, in half h, rows 4g..4g+3 of column 4h + c.
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    rows[c] = _mm256_permute2f128_ps(u[c], u[4 + c], 0x20);
    rows[4 + c] = _mm256_permute2f128_ps(u[c], u[4 + c], 0x31);
  }
}

// One full micro-panel (kMr rows) of A: 8 columns at a time, the kMr rows loaded as vectors (rows
// kMr..7 zero), transposed, and each column stored as one kMr-float step of the panel.
CLGEMM_TARGET_AVX2 void packFullPanel(const float* a, std::ptrdiff_t lda, int kc,
                                      bool prefetch_next, float* dst) {
  const __m256i step_mask = laneMask(kMr);
  for (int p0 = 0; p0 < kc; p0 += 8) {
    const int cols = kc - p0 < 8 ? kc - p0 : 8;
    const __m256i load_mask = laneMask(cols);
    __m256 block[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      if (i < kMr) {
        const float* src = a + i * lda + p0;
        block[i] = _mm256_maskload_ps(src, load_mask);
        // A is usually not in cache yet: fetch the same line of the next panel's row now.
        if (prefetch_next)
          _mm_prefetch(reinterpret_cast<const char*>(src + kMr * lda), _MM_HINT_T0);
      } else {
        block[i] = _mm256_setzero_ps();
      }
    }
    transpose8x8(block);
    // Unrolled with an exit rather than bounded by cols, so that block[j] stays in registers.
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      if (j == cols) break;
      _mm256_maskstore_ps(dst + (p0 + j) * kMr, step_mask, block[j]);
    }
  }
}

// The AVX2 packing of A: full panels transposed in registers, the last partial one (fewer than
// kMr rows) by the generic code, which zero-fills the missing rows.
CLGEMM_TARGET_AVX2 void packA6(const float* a, std::ptrdiff_t lda, int rows, int kc, float* dst) {
  int r = 0;
  for (; r + kMr <= rows; r += kMr, dst += std::ptrdiff_t(kc) * kMr)
    packFullPanel(a + r * lda, lda, kc, r + 2 * kMr <= rows, dst);
  if (r < rows) packAGeneric(a + r * lda, lda, rows - r, kc, kMr, dst);
}

// KC = 256: the B micro-panel (256 x 16 floats, 16 KiB) stays in a 32 KiB L1 while the A
// micro-panels stream past it from L2. MC = 144: an A block of 144 KiB, inside the 256 KiB L2 of
// older AVX2 cores. NC = 4096: a B block of 4 MiB in L3. On Zen 5 (forced to AVX2), MC from 72 to
// 288 and KC from 256 to 768 all measured 101-104 GFLOP/s single-threaded at 1024^3, about 92% of
// the AVX2 peak, so the choice follows the smaller caches of the machines that really run this.
const MicroKernel kAvx2{"avx2", kMr, kNr, kernel6x16, packA6, PackedBlocking{144, 256, 4096}};

}  // namespace

const MicroKernel* avx2MicroKernel() { return &kAvx2; }

}  // namespace packed
}  // namespace clgemm

#else  // not x86-64: AVX2 is compiled out

namespace clgemm {
namespace packed {
const MicroKernel* avx2MicroKernel() { return nullptr; }
}  // namespace packed
}  // namespace clgemm

#endif
