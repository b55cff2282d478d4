// cpu-packed: the BLIS loop structure around an MR x NR register micro-kernel.
//
//   for jc in steps of NC:                 columns of C and B
//     for pc in steps of KC:               the shared dimension
//       pack B[pc:pc+KC, jc:jc+NC]         into KC x NR micro-panels (all threads together)
//       for ic in steps of MC:             rows of C and A (each thread its own rows)
//         pack A[ic:ic+MC, pc:pc+KC]       into KC x MR micro-panels (each thread its own buffer)
//         for jr in steps of NR:           one B micro-panel (L1/L2) ...
//           for ir in steps of MR:         ... against every A micro-panel of the block (L2)
//             micro-kernel: MR x NR tile of C += A micro-panel * B micro-panel
//
// Packing makes the micro-kernel's loads contiguous and aligned, and zero-pads the edges, so the
// kernel always runs a full MR x NR tile and only its write-back is limited at the edges of C.
//
// Any layout, for free (as BLIS does): the packing reads op(A) and op(B) through their row and
// column strides (CpuGemm's Strides), so a transposed, column-major or padded operand costs no
// extra pass; rows of a panel that lie along memory are copied as runs, the others gathered. The
// micro-kernels write C along its rows (unit column stride, ldc between rows); a C stored by
// columns (column-major) is computed as C^T = op(B)^T op(A)^T, which is the same memory with unit
// column stride: the operands swap places and each is read with its strides swapped.
//
// Threads: one OpenMP team for the whole call. The ic loop is the parallel one: each thread takes
// a contiguous range of MR-row panels and packs its own A blocks, which stay in its core's private
// L2, while the B block, packed once by all threads together, is shared through L3. When there are
// few row panels per thread, the jr loop is split as well (see chooseThreadGrid). The k loop
// (pc) is never split: every element of C is summed in the same order whatever the thread count,
// so results are bit-identical for any `threads` (and no reduction between threads is needed).
//
// The micro-kernel is chosen at run time from the CPU (the library is built for generic x86-64):
// AVX-512 where the CPU has it, else AVX2 + FMA, else portable C++. The environment variable
//   CLGEMM_CPU_ISA=avx512 | avx2 | portable
// caps the choice (to compare kernels, or to work around a CPU problem); a level the CPU lacks
// falls back to the best one below it, and an unset, empty, "auto" or unknown value means the best.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_packed_kernels.hpp"

namespace clgemm {

namespace packed {

// A is usually not in cache yet. The copy walks all mr rows of a panel side by side, one cache line
// (16 floats) of each at a time, so the misses of the mr rows are in flight together and each row
// is a sequential stream for the hardware prefetcher; row by row, it would wait on one row at a
// time.
void packAGeneric(const float* a, std::ptrdiff_t lda, int rows, int kc, int mr, float* dst) {
  constexpr int kLineFloats = 16;
  for (int r = 0; r < rows; r += mr, dst += std::ptrdiff_t(kc) * mr) {
    const int valid = std::min(mr, rows - r);
    const float* panel = a + std::ptrdiff_t(r) * lda;
    for (int p0 = 0; p0 < kc; p0 += kLineFloats) {
      const int p1 = std::min(kc, p0 + kLineFloats);
      for (int i = 0; i < valid; ++i) {
        const float* src = panel + std::ptrdiff_t(i) * lda;
        // The same line of the row one panel further down, needed mr rows from now.
        if (r + mr + i < rows) __builtin_prefetch(src + std::ptrdiff_t(mr) * lda + p0);
        for (int p = p0; p < p1; ++p) dst[p * mr + i] = src[p];
      }
    }
    for (int i = valid; i < mr; ++i) {
      for (int p = 0; p < kc; ++p) dst[p * mr + i] = 0.0f;
    }
  }
}

}  // namespace packed

namespace {

using packed::MicroKernel;
using packed::TileArgs;

// ---- Choosing the micro-kernel ----------------------------------------------------------------

enum class IsaLevel { kPortable = 0, kAvx2 = 1, kAvx512 = 2 };

bool cpuHasAvx512() {
#if defined(__x86_64__)
  // __builtin_cpu_supports also checks that the OS saves the zmm registers (XGETBV).
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

bool cpuHasAvx2() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// The highest level CLGEMM_CPU_ISA allows. Read on every call (it is cheap next to a GEMM), so a
// program or test can change it between calls.
IsaLevel requestedIsaLevel() {
  const char* value = std::getenv("CLGEMM_CPU_ISA");
  if (value == nullptr) return IsaLevel::kAvx512;
  if (std::strcmp(value, "portable") == 0) return IsaLevel::kPortable;
  if (std::strcmp(value, "avx2") == 0) return IsaLevel::kAvx2;
  return IsaLevel::kAvx512;
}

const MicroKernel& selectMicroKernel() {
  const IsaLevel cap = requestedIsaLevel();
  if (cap >= IsaLevel::kAvx512 && packed::avx512MicroKernel() != nullptr && cpuHasAvx512())
    return *packed::avx512MicroKernel();
  if (cap >= IsaLevel::kAvx2 && packed::avx2MicroKernel() != nullptr && cpuHasAvx2())
    return *packed::avx2MicroKernel();
  return packed::portableMicroKernel();
}

// ---- Blocking ---------------------------------------------------------------------------------

int roundUp(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

int ceilDiv(int value, int divisor) { return (value + divisor - 1) / divisor; }

// The block sizes the loops actually use. A requested size <= 0 means the micro-kernel's default.
// MC is rounded up to a multiple of MR and NC to a multiple of NR, so that blocks hold whole
// micro-panels (mc=5 with MR=14 runs as 14); any KC >= 1 works as it is. All three are clamped to
// the (rounded-up) problem size, which only shrinks the buffers: with KC >= k there is one k step
// either way, so the result is the same.
struct LoopBlocking {
  int mc, kc, nc;
};

LoopBlocking effectiveBlocking(const MicroKernel& uk, const PackedBlocking& requested,
                               const CpuGemm& g) {
  const int mc = requested.mc > 0 ? requested.mc : uk.blocking.mc;
  const int kc = requested.kc > 0 ? requested.kc : uk.blocking.kc;
  const int nc = requested.nc > 0 ? requested.nc : uk.blocking.nc;
  // Clamped to the matrix before rounding up, so a block near INT_MAX cannot overflow.
  return {roundUp(std::min(mc, g.m), uk.mr), std::min(kc, g.k), roundUp(std::min(nc, g.n), uk.nr)};
}

// ---- Buffers ----------------------------------------------------------------------------------

// 64-byte aligned (a cache line, and one zmm), so the micro-kernel can use aligned vector loads on
// the packed B micro-panels.
struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using AlignedFloats = std::unique_ptr<float[], FreeDeleter>;

constexpr std::size_t kAlignFloats = 64 / sizeof(float);

std::size_t roundUpToAlignment(std::size_t floats) {
  return (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
}

AlignedFloats allocateAligned(std::size_t floats) {
  void* p = std::aligned_alloc(64, roundUpToAlignment(floats) * sizeof(float));
  if (p == nullptr) throw std::bad_alloc();
  return AlignedFloats(static_cast<float*>(p));
}

// The packing buffers of the calling thread, at least `floats` long. Kept from call to call and
// only grown: fresh memory costs a page fault per 4 KiB on first touch (expensive under a
// hypervisor), a few percent of a 2048^3 multiply if it were allocated on every call. The memory
// (a few MiB with the default blocking) is held until the thread exits; concurrent calls from
// different threads each have their own.
float* packingBuffer(std::size_t floats) {
  thread_local AlignedFloats buffer;
  thread_local std::size_t capacity = 0;
  if (floats > capacity) {
    buffer.reset();
    buffer = allocateAligned(floats);
    capacity = floats;
  }
  return buffer.get();
}

// ---- Packing ----------------------------------------------------------------------------------

// packAGeneric's micro-panels from op(A) with any strides. The inner loop runs down the mr rows
// of one step, which lie side by side in memory when A is stored transposed (row stride 1): each
// step is then one short run, and consecutive steps are ld apart.
void packAStrided(const float* a, Strides s, int rows, int kc, int mr, float* dst) {
  for (int r = 0; r < rows; r += mr, dst += std::ptrdiff_t(kc) * mr) {
    const int valid = std::min(mr, rows - r);
    const float* panel = a + std::ptrdiff_t(r) * s.row;
    for (int p = 0; p < kc; ++p) {
      const float* src = panel + std::ptrdiff_t(p) * s.col;
      float* out = dst + std::ptrdiff_t(p) * mr;
      for (int i = 0; i < valid; ++i) out[i] = src[std::ptrdiff_t(i) * s.row];
      for (int i = valid; i < mr; ++i) out[i] = 0.0f;
    }
  }
}

// rows x kc of op(A) from `a` (strides s) into micro-panels. Where A's rows are contiguous
// (column stride 1): the micro-kernel's own (vectorised) packing, or packAGeneric where it has
// none; elsewhere packAStrided.
void packABlock(const MicroKernel& uk, const float* a, Strides s, int rows, int kc, float* dst) {
  if (s.col != 1) {
    packAStrided(a, s, rows, kc, uk.mr, dst);
  } else if (uk.pack_a != nullptr) {
    uk.pack_a(a, s.row, rows, kc, dst);
  } else {
    packed::packAGeneric(a, s.row, rows, kc, uk.mr, dst);
  }
}

// ---- Work split between threads ---------------------------------------------------------------

struct Range {
  int begin, end;
};

// Part `index` of `parts` near-equal contiguous parts of [0, count).
Range splitEvenly(int count, int parts, int index) {
  return {int(std::int64_t(count) * index / parts), int(std::int64_t(count) * (index + 1) / parts)};
}

// The threads of a team as a row_groups x col_groups grid over the micro-tiles of a C block.
// Rows are split first: each thread then packs only its own rows of A, and all threads share one
// packed B. Splitting columns as well evens out the work when there are few row panels per thread,
// but threads of one row group each pack the same A rows. The grid chosen minimises the busiest
// thread's work per k step, counted in micro-tiles: its tiles, plus one per A micro-panel it
// packs (measured on Zen 5: packing an MR x KC micro-panel of A, mostly waiting on memory, costs
// about as much as one MR x NR x KC tile of FMAs).
struct ThreadGrid {
  int row_groups, col_groups;
};

ThreadGrid chooseThreadGrid(int row_panels, int col_panels, int threads) {
  ThreadGrid best{threads, 1};
  std::int64_t best_cost = -1;
  for (int col_groups = 1; col_groups <= threads; ++col_groups) {
    if (threads % col_groups != 0) continue;
    const int row_groups = threads / col_groups;
    const std::int64_t rows = ceilDiv(row_panels, row_groups);
    const std::int64_t cost = rows * ceilDiv(col_panels, col_groups) + rows;
    if (best_cost < 0 || cost < best_cost) {
      best = {row_groups, col_groups};
      best_cost = cost;
    }
  }
  return best;
}

// ---- The loops --------------------------------------------------------------------------------

struct Plan {
  const CpuGemm& g;
  Strides as, bs, cs;  // g's, resolved; cs.col is 1
  const MicroKernel& uk;
  LoopBlocking blocking;
  float* b_block;              // packed B block: KC x NC, shared by the team
  float* a_blocks;             // packed A blocks: MC x KC, one per thread
  std::size_t a_block_floats;  // stride between the threads' A blocks
};

// One (jc, pc) step: the KC x NC block of B packed at plan.b_block, C[:, jc:jc+nc] to update.
struct BlockStep {
  int jc, nc;  // columns of C
  int pc, kc;  // slice of the shared dimension
  float beta;  // the caller's beta on the first k step, then 1 (accumulate)
};

// Panels [panels.begin, panels.end) of the packed B block (micro-panel q: kc steps x nr values at
// dst + q * kc * nr), from the kc x nc block of B at b (row stride ldb); columns past nc
// zero-filled. Walks B row by row, so that the reads of each row segment are one sequential
// stream, rather than panel by panel, 128 bytes from each row of B.
void packBPanels(const float* b, std::ptrdiff_t ldb, int nc, Range panels, int kc, int nr,
                 float* dst) {
  for (int p = 0; p < kc; ++p) {
    const float* src = b + std::ptrdiff_t(p) * ldb;
    for (int q = panels.begin; q < panels.end; ++q) {
      const int col = q * nr, cols = std::min(nr, nc - col);
      float* out = dst + (std::ptrdiff_t(q) * kc + p) * nr;
      std::memcpy(out, src + col, std::size_t(cols) * sizeof(float));
      std::fill(out + cols, out + nr, 0.0f);
    }
  }
}

// packBPanels for op(B) with any strides. Within a micro-panel the loops run down each column of
// B, which is contiguous when B is stored transposed (row stride 1), writing it nr floats apart in
// the panel (which stays in L1).
void packBPanelsStrided(const float* b, Strides s, int nc, Range panels, int kc, int nr,
                        float* dst) {
  for (int q = panels.begin; q < panels.end; ++q) {
    const int col = q * nr, cols = std::min(nr, nc - col);
    float* panel = dst + std::ptrdiff_t(q) * kc * nr;
    for (int j = 0; j < cols; ++j) {
      const float* src = b + std::ptrdiff_t(col + j) * s.col;
      for (int p = 0; p < kc; ++p)
        panel[std::ptrdiff_t(p) * nr + j] = src[std::ptrdiff_t(p) * s.row];
    }
    if (cols < nr) {
      for (int p = 0; p < kc; ++p)
        std::fill(panel + std::ptrdiff_t(p) * nr + cols, panel + std::ptrdiff_t(p + 1) * nr, 0.0f);
    }
  }
}

// All threads pack the B block together, each a contiguous range of its micro-panels, then wait
// for each other: every thread's rows of C need all of B. B is shared rather than packed per
// thread: one copy in L3, packed once.
void packBBlock(const Plan& plan, const BlockStep& step, int thread, int team_size) {
  const int nr = plan.uk.nr;
  const Range panels = splitEvenly(ceilDiv(step.nc, nr), team_size, thread);
  const Strides s = plan.bs;
  const float* b = plan.g.b + std::ptrdiff_t(step.pc) * s.row + std::ptrdiff_t(step.jc) * s.col;
  if (s.col == 1)
    packBPanels(b, s.row, step.nc, panels, step.kc, nr, plan.b_block);
  else
    packBPanelsStrided(b, s, step.nc, panels, step.kc, nr, plan.b_block);
#pragma omp barrier
}

// This thread's part of C[:, jc:jc+nc] += A[:, pc:pc+kc] * packed B block: row panels
// [rows.begin, rows.end) (of MR rows) by column panels [cols.begin, cols.end) (of NR columns).
void multiplyPart(const Plan& plan, const BlockStep& step, Range rows, Range cols, float* a_block) {
  const CpuGemm& g = plan.g;
  const int mr = plan.uk.mr, nr = plan.uk.nr;
  const int mc_panels = plan.blocking.mc / mr;
  TileArgs tile;
  tile.kc = step.kc;
  tile.ldc = plan.cs.row;
  tile.alpha = g.alpha;
  tile.beta = step.beta;
  for (int ic_panel = rows.begin; ic_panel < rows.end; ic_panel += mc_panels) {
    const int ic = ic_panel * mr;
    const int ic_rows = std::min(std::min(ic_panel + mc_panels, rows.end) * mr, g.m) - ic;
    const float* a = g.a + std::ptrdiff_t(ic) * plan.as.row + std::ptrdiff_t(step.pc) * plan.as.col;
    packABlock(plan.uk, a, plan.as, ic_rows, step.kc, a_block);
    for (int jr_panel = cols.begin; jr_panel < cols.end; ++jr_panel) {
      const int jr = jr_panel * nr;
      tile.b = plan.b_block + std::ptrdiff_t(jr_panel) * step.kc * nr;
      tile.cols = std::min(nr, step.nc - jr);
      for (int ir = 0; ir < ic_rows; ir += mr) {
        tile.a = a_block + std::ptrdiff_t(ir) * step.kc;
        tile.c = g.c + std::ptrdiff_t(ic + ir) * plan.cs.row + step.jc + jr;
        tile.rows = std::min(mr, ic_rows - ir);
        plan.uk.run(tile);
      }
    }
  }
}

// The loop nest as run by each thread of the team.
void runTeamMember(const Plan& plan, int thread, int team_size) {
  const CpuGemm& g = plan.g;
  const LoopBlocking& blk = plan.blocking;
  float* a_block = plan.a_blocks + plan.a_block_floats * std::size_t(thread);
  const int row_panels = ceilDiv(g.m, plan.uk.mr);
  for (int jc = 0; jc < g.n; jc += blk.nc) {
    const int nc = std::min(blk.nc, g.n - jc);
    const int col_panels = ceilDiv(nc, plan.uk.nr);
    const ThreadGrid grid = chooseThreadGrid(row_panels, col_panels, team_size);
    const Range rows = splitEvenly(row_panels, grid.row_groups, thread / grid.col_groups);
    const Range cols = splitEvenly(col_panels, grid.col_groups, thread % grid.col_groups);
    for (int pc = 0; pc < g.k; pc += blk.kc) {
      const BlockStep step{jc, nc, pc, std::min(blk.kc, g.k - pc), pc == 0 ? g.beta : 1.0f};
      packBBlock(plan, step, thread, team_size);  // ends in a barrier: B is ready for everyone
      multiplyPart(plan, step, rows, cols, a_block);
      // Nobody may repack B for the next step while another thread still reads it.
#pragma omp barrier
    }
  }
}

// C = beta * C, for alpha == 0 (BLAS semantics: A and B are not read, so NaN or Inf there does not
// reach C) and k == 0. With beta == 0, C is overwritten without being read.
void scaleC(const CpuGemm& g, Strides cs, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int i = 0; i < g.m; ++i) {
    float* row = g.c + std::ptrdiff_t(i) * cs.row;
    for (int j = 0; j < g.n; ++j) {
      float& x = row[std::ptrdiff_t(j) * cs.col];
      x = g.beta == 0.0f ? 0.0f : g.beta * x;
    }
  }
}

// C^T = op(B)^T op(A)^T: the same problem with C's strides swapped (n x m), op(B)^T as the first
// operand and op(A)^T as the second, each read with its strides swapped. No memory moves.
CpuGemm transposedGemm(const CpuGemm& g) {
  const Strides a = g.aStrides(), b = g.bStrides(), c = g.cStrides();
  CpuGemm t = g;
  t.m = g.n;
  t.n = g.m;
  t.a = g.b;
  t.b = g.a;
  t.a_strides = {b.col, b.row};
  t.b_strides = {a.col, a.row};
  t.c_strides = {c.col, c.row};
  return t;
}

}  // namespace

void cpuPackedGemm(const CpuGemm& g, const PackedBlocking& blocking) {
  if (g.m <= 0 || g.n <= 0) return;
  const Strides cs = g.cStrides();
  if (cs.col != 1) {
    // The micro-kernels store runs of a row of C; C stored by columns is the transposed problem's
    // C stored by rows.
    if (cs.row == 1) return cpuPackedGemm(transposedGemm(g), blocking);
    throw std::invalid_argument(
        "cpuPackedGemm: C needs a unit stride along its rows or its columns (strides " +
        std::to_string(cs.row) + ", " + std::to_string(cs.col) + ")");
  }
  const int threads = std::max(1, g.threads);
  if (g.k <= 0 || g.alpha == 0.0f) {
    scaleC(g, cs, threads);
    return;
  }
  const MicroKernel& uk = selectMicroKernel();
  const LoopBlocking blk = effectiveBlocking(uk, blocking, g);

  // One buffer, taken before the loops, never inside them: the shared B block, then one A block
  // per thread, each starting on a 64-byte boundary so that threads do not share cache lines.
  const std::size_t b_block_floats = roundUpToAlignment(std::size_t(blk.kc) * blk.nc);
  const std::size_t a_block_floats = roundUpToAlignment(std::size_t(blk.mc) * blk.kc);
  float* buffer = packingBuffer(b_block_floats + a_block_floats * std::size_t(threads));
  const Plan plan{
      g, g.aStrides(), g.bStrides(), cs, uk, blk, buffer, buffer + b_block_floats, a_block_floats};

#pragma omp parallel num_threads(threads)
  runTeamMember(plan, omp_get_thread_num(), omp_get_num_threads());
}

std::string cpuPackedMicroKernel() {
  const MicroKernel& uk = selectMicroKernel();
  return std::string(uk.isa) + " " + std::to_string(uk.mr) + "x" + std::to_string(uk.nr);
}

PackedBlocking cpuPackedDefaultBlocking() { return selectMicroKernel().blocking; }

}  // namespace clgemm
