// cpu-packed micro-kernel in plain C++, for CPUs without AVX2 (baseline x86-64 is SSE2) and for
// non-x86 builds: 6 x 8.
//
// Why 6 x 8: written for the smallest common vector unit, 16 registers of 4 floats (SSE2; NEON has
// 32). A tile row is two 4-float vectors, so 6 rows take 12 accumulators, plus 2 for B, one for
// the broadcast A value and one for the product (SSE2 has no FMA): all 16, without spills in GCC
// 12's code. Measured on Zen 5 with SSE2 code: 6 x 8 runs at 38 GFLOP/s, 5 x 8 at 38, 4 x 8 at 30,
// 8 x 4 at 32, and shapes 12 or 16 wide at 15-17 (the compiler then keeps the accumulators in
// memory). The loops have constant trip counts and `omp simd` on the column loop, so GCC and Clang
// vectorise them at -O2 and keep the accumulators in registers.
#include "cpu/cpu_packed_kernels.hpp"

namespace clgemm {
namespace packed {
namespace {

constexpr int kMr = 6;
constexpr int kNr = 8;

// C = alpha * acc (+ beta * C) for `rows` x `cols` of the tile.
void writeBack(const TileArgs& t, const float (&acc)[kMr][kNr]) {
  for (int i = 0; i < t.rows; ++i) {
    float* c_row = t.c + i * t.ldc;
    if (t.beta == 0.0f) {
      for (int j = 0; j < t.cols; ++j) c_row[j] = t.alpha * acc[i][j];
    } else {
      for (int j = 0; j < t.cols; ++j) c_row[j] = t.alpha * acc[i][j] + t.beta * c_row[j];
    }
  }
}

void kernel6x8(const TileArgs& t) {
  float acc[kMr][kNr] = {};
  const float* a = t.a;
  const float* b = t.b;
  for (int p = 0; p < t.kc; ++p) {
#pragma GCC unroll 6
    for (int i = 0; i < kMr; ++i) {
      const float a_i = a[i];
#pragma omp simd
      for (int j = 0; j < kNr; ++j) acc[i][j] += a_i * b[j];
    }
    a += kMr;
    b += kNr;
  }
  writeBack(t, acc);
}

// KC = 512: a longer k loop per tile spreads the write-back over more FMAs (37 GFLOP/s on Zen 5
// against 35 with KC = 256); the B micro-panel (512 x 8 floats, 16 KiB) still stays in L1. MC = 96
// keeps the A block at 192 KiB, inside a 256 KiB L2 (MC from 96 to 384 measured the same on Zen 5).
// NC = 4096: a B block of 8 MiB in L3.
const MicroKernel kPortable{"portable", kMr,     kNr,
                            kernel6x8,  nullptr, PackedBlocking{96, 512, 4096}};

}  // namespace

const MicroKernel& portableMicroKernel() { return kPortable; }

}  // namespace packed
}  // namespace clgemm
