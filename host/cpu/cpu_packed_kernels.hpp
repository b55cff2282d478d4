// Internal to cpu-packed (cpu_packed.cpp and the cpu_microkernel_*.cpp files): the interface of an
// MR x NR register micro-kernel, and the kernels compiled for each instruction set.
//
// A micro-kernel computes one MR x NR tile of C from one packed micro-panel of A (kc steps of MR
// values, row i of the tile at offset i of each step) and one packed micro-panel of B (kc steps of
// NR values): acc = sum_p a[p][:] (outer product) b[p][:], then
//   C = alpha * acc + beta * C   for beta != 0,
//   C = alpha * acc              for beta == 0 (C is not read, so NaN in C does not survive).
// Packing pads the panels with zeros, so the kernel always runs the full MR x NR tile; only the
// write-back is limited to rows x cols, for the tiles on the bottom and right edges of C.
#pragma once

#include <cstddef>

#include "cpu/cpu_gemm.hpp"

namespace clgemm {
namespace packed {

struct TileArgs {
  int kc = 0;                // depth of the packed micro-panels
  const float* a = nullptr;  // packed A micro-panel, kc x MR
  const float* b = nullptr;  // packed B micro-panel, kc x NR; aligned to min(NR * 4, 64) bytes
  float* c = nullptr;        // top-left element of the tile in C
  std::ptrdiff_t ldc = 0;    // row stride of C, in floats
  int rows = 0, cols = 0;    // valid part of the tile: 1..MR rows, 1..NR columns
  float alpha = 1.0f, beta = 0.0f;
};

using MicroKernelFn = void (*)(const TileArgs& tile);

// Packs rows x kc of A (row stride lda) into ceil(rows / MR) micro-panels of kc steps x MR values,
// one after the other, rows past `rows` zero-filled.
using PackAFn = void (*)(const float* a, std::ptrdiff_t lda, int rows, int kc, float* dst);

struct MicroKernel {
  const char* isa;  // "avx512", "avx2", "portable"
  int mr, nr;       // tile shape
  MicroKernelFn run;
  PackAFn pack_a;           // nullptr: packAGeneric with this mr
  PackedBlocking blocking;  // default MC / KC / NC, tuned for this kernel
};

// The plain C++ packing of A for any MR (cpu_packed.cpp), also used by the vectorised packers for
// what they do not handle.
void packAGeneric(const float* a, std::ptrdiff_t lda, int rows, int kc, int mr, float* dst);

// The kernels for the x86 instruction-set levels; nullptr where they are compiled out (non-x86
// builds). The caller checks that the CPU supports them before running one.
const MicroKernel* avx512MicroKernel();
const MicroKernel* avx2MicroKernel();

// Plain C++, for any CPU.
const MicroKernel& portableMicroKernel();

}  // namespace packed
}  // namespace clgemm
