// cpu-packed micro-kernel for AVX-512 (Intel Skylake-SP and later, AMD Zen 4 and later): 14 x 32.
//
// Why 14 x 32: AVX-512 has 32 zmm registers of 16 floats. A tile row is two zmm (32 columns), so
// 14 rows take 28 accumulators, the two B vectors of the current k step 2 more, and the broadcast A
// value one: 31 of 32. As many accumulators as fit, because they are what each load of packed data
// is spread over: a k step reads 184 bytes of A and B for 28 FMAs (6.6 bytes per FMA; 6 x 64 would
// read 280 bytes for 24 FMAs, 11.7 per FMA). 28 independent FMA chains also cover the FMA latency
// on two pipes (4 cycles x 2 pipes = 8 needed). Measured with the panels in cache: 212 GFLOP/s on
// one Zen 5 core, 95% of its 224 GFLOP/s FMA peak.
//
// Compiled with a target attribute rather than -mavx512f, so that the rest of the library stays
// generic x86-64; cpu_packed.cpp only calls it after checking the CPU.
#include "cpu/cpu_packed_kernels.hpp"

#if defined(__x86_64__)

#include <immintrin.h>

#define CLGEMM_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,fma")))

namespace clgemm {
namespace packed {
namespace {

constexpr int kMr = 14;
constexpr int kVectors = 2;  // zmm per tile row
constexpr int kNr = 16 * kVectors;

// Lanes [0, cols) of one zmm, cols clamped to 0..16.
CLGEMM_TARGET_AVX512 inline __mmask16 laneMask(int cols) {
  if (cols >= 16) return __mmask16(0xFFFF);
  if (cols <= 0) return __mmask16(0);
  return __mmask16((1u << cols) - 1u);
}

// C = alpha * acc (+ beta * C) for `rows` x `cols` of the tile. The same fused formula is used for
// full and edge tiles, so an element's value does not depend on where the tile boundaries fall.
CLGEMM_TARGET_AVX512 inline void writeBack(const TileArgs& t, const __m512 (&acc)[kMr][kVectors]) {
  const __m512 alpha = _mm512_set1_ps(t.alpha);
  const __m512 beta = _mm512_set1_ps(t.beta);
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
      float* c_vec = c_row + 16 * v;
      if (full_width) {
        const __m512 c_old =
            read_c ? _mm512_mul_ps(beta, _mm512_loadu_ps(c_vec)) : _mm512_setzero_ps();
        _mm512_storeu_ps(c_vec, _mm512_fmadd_ps(alpha, acc[i][v], c_old));
      } else {
        // Masked loads and stores do not touch (or fault on) the lanes past the edge of C.
        const __mmask16 mask = laneMask(t.cols - 16 * v);
        const __m512 c_old =
            read_c ? _mm512_mul_ps(beta, _mm512_maskz_loadu_ps(mask, c_vec)) : _mm512_setzero_ps();
        _mm512_mask_storeu_ps(c_vec, mask, _mm512_fmadd_ps(alpha, acc[i][v], c_old));
      }
    }
  }
}

CLGEMM_TARGET_AVX512 void kernel14x32(const TileArgs& t) {
  __m512 acc[kMr][kVectors];
#pragma GCC unroll 14
  for (int i = 0; i < kMr; ++i) {
    acc[i][0] = _mm512_setzero_ps();
    acc[i][1] = _mm512_setzero_ps();
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
#pragma GCC unroll 2
  for (int p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_load_ps(b);
    const __m512 b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 14
    for (int i = 0; i < kMr; ++i) {
      const __m512 a_i = _mm512_set1_ps(a[i]);
      acc[i][0] = _mm512_fmadd_ps(a_i, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(a_i, b1, acc[i][1]);
    }
    a += kMr;
    b += kNr;
  }
  writeBack(t, acc);
}

// ---- Packing A ----

// Transposes 16 rows of 16 floats in registers: rows[i] lane j becomes rows[j] lane i. Three
// rounds of shuffles, each pairing registers at a larger stride (32-bit, 64-bit, then 128-bit
// lanes), 64 shuffles for 256 floats; scalar copying costs a load and a store per float.
CLGEMM_TARGET_AVX512 inline void transpose16x16(__m512 (&rows)[16]) {
  // The maskz forms with an all-ones mask are the plain instructions; GCC 12's plain intrinsics
  // start from _mm512_undefined_ps(), which trips -Wmaybe-uninitialized here.
  constexpr __mmask16 kAll = 0xFFFF;
  constexpr __mmask8 kAll8 = 0xFF;
  __m512 t[16];
#pragma GCC unroll 8
  for (int i = 0; i < 16; i += 2) {  // 2 x 2 blocks of floats
    t[i] = _mm512_maskz_unpacklo_ps(kAll, rows[i], rows[i + 1]);
    t[i + 1] = _mm512_maskz_unpackhi_ps(kAll, rows[i], rows[i + 1]);
  }
  __m512 u[16];
#pragma GCC unroll 4
  for (int i = 0; i < 16; i += 4) {  // 4 x 4 blocks, one per 128-bit lane
#pragma GCC unroll 2
    for (int j = 0; j < 2; ++j) {
      const __m512d lo = _mm512_castps_pd(t[i + j]), hi = _mm512_castps_pd(t[i + j + 2]);
      u[i + 2 * j] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(kAll8, lo, hi));
      u[i + 2 * j + 1] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(kAll8, lo, hi));
    }
  }
  // u[4 * g + c] holds, in 128-bit lane l, rows 4g..4g+3 of column 4l + c. Gather lane l of
  // u[c], u[4 + c], u[8 + c], u[12 + c] into column 4l + c.
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    const __m512 lanes01_rows0to7 = _mm512_maskz_shuffle_f32x4(kAll, u[c], u[4 + c], 0x44);
    const __m512 lanes23_rows0to7 = _mm512_maskz_shuffle_f32x4(kAll, u[c], u[4 + c], 0xEE);
    const __m512 lanes01_rows8to15 = _mm512_maskz_shuffle_f32x4(kAll, u[8 + c], u[12 + c], 0x44);
    const __m512 lanes23_rows8to15 = _mm512_maskz_shuffle_f32x4(kAll, u[8 + c], u[12 + c], 0xEE);
    rows[c] = _mm512_maskz_shuffle_f32x4(kAll, lanes01_rows0to7, lanes01_rows8to15, 0x88);
    rows[4 + c] = _mm512_maskz_shuffle_f32x4(kAll, lanes01_rows0to7, lanes01_rows8to15, 0xDD);
    rows[8 + c] = _mm512_maskz_shuffle_f32x4(kAll, lanes23_rows0to7, lanes23_rows8to15, 0x88);
    rows[12 + c] = _mm512_maskz_shuffle_f32x4(kAll, lanes23_rows0to7, lanes23_rows8to15, 0xDD);
  }
}

// One full micro-panel (kMr rows) of A: 16 columns at a time, the kMr rows loaded as vectors
// (rows kMr..15 zero), transposed, and each column stored as one kMr-float step of the panel.
CLGEMM_TARGET_AVX512 void packFullPanel(const float* a, std::ptrdiff_t lda, int kc,
                                        bool prefetch_next, float* dst) {
  constexpr __mmask16 kStepMask = __mmask16((1u << kMr) - 1u);
  for (int p0 = 0; p0 < kc; p0 += 16) {
    const int cols = kc - p0 < 16 ? kc - p0 : 16;
    const __mmask16 load_mask = laneMask(cols);
    __m512 block[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
      if (i < kMr) {
        const float* src = a + i * lda + p0;
        block[i] = _mm512_maskz_loadu_ps(load_mask, src);
        // A is usually not in cache yet: fetch the same line of the next panel's row now.
        if (prefetch_next)
          _mm_prefetch(reinterpret_cast<const char*>(src + kMr * lda), _MM_HINT_T0);
      } else {
        block[i] = _mm512_setzero_ps();
      }
    }
    transpose16x16(block);
    // Unrolled with an exit rather than bounded by cols, so that block[j] stays in registers.
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) {
      if (j == cols) break;
      _mm512_mask_storeu_ps(dst + (p0 + j) * kMr, kStepMask, block[j]);
    }
  }
}

// The AVX-512 packing of A: full panels transposed in registers, the last partial one (fewer than
// kMr rows) by the generic code, which zero-fills the missing rows.
CLGEMM_TARGET_AVX512 void packA14(const float* a, std::ptrdiff_t lda, int rows, int kc,
                                  float* dst) {
  int r = 0;
  for (; r + kMr <= rows; r += kMr, dst += std::ptrdiff_t(kc) * kMr)
    packFullPanel(a + r * lda, lda, kc, r + 2 * kMr <= rows, dst);
  if (r < rows) packAGeneric(a + r * lda, lda, rows - r, kc, kMr, dst);
}

// Measured on Zen 5 (48 KiB L1, 1 MiB L2), single-threaded, 2048^3: KC = 256 gives 185 GFLOP/s
// for any MC from 112 to 336, KC = 512 gives 195-199, KC = 768 and 1024 no more. A long k loop
// per tile spreads the write-back of C (and its reload on the next k step) over more FMAs; the B
// micro-panel (512 x 32 floats, 64 KiB) then no longer fits in L1 and streams from L2 along with
// A, about 13 bytes per cycle, far below what L2 delivers. MC = 224 = 16 x 14: an A block of
// 448 KiB, half of a 1 MiB L2 (Intel Sapphire Rapids has 2 MiB). NC = 4096: a B block of 8 MiB,
// shared by all threads in L3.
const MicroKernel kAvx512{"avx512", kMr, kNr, kernel14x32, packA14, PackedBlocking{224, 512, 4096}};

}  // namespace

const MicroKernel* avx512MicroKernel() { return &kAvx512; }

}  // namespace packed
}  // namespace clgemm

#else  // not x86-64: AVX-512 is compiled out

namespace clgemm {
namespace packed {
const MicroKernel* avx512MicroKernel() { return nullptr; }
}  // namespace packed
}  // namespace clgemm

#endif
