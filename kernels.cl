// clgemm kernels: C = alpha * A * B + beta * C, row-major, in float or (FP64 = 1) double: REAL.
//   A is M x K (lda = K), B is K x N (ldb = N), C is M x N (ldc = N).
// Every kernel takes (M, N, K, alpha, beta, A, B, C), works for any M, N, K >= 1, and never reads C
// when beta == 0 (BLAS semantics: C may hold NaN then).
//
// Shapes (--layout, --trans-a/b, --lda/ldb/ldc): every kernel computes a row-major problem. The
// host maps the caller's to one (host/problem/gemm_shape.hpp, rowMajorGemm): a row-major problem
// stays as it is; a column-major C (M x N, ldc) is the row-major N x M matrix C^T = op(B)^T op(A)^T
// in the same memory, so the kernel's M, N are the caller's N, M, its A (op(B)^T) is the caller's
// B buffer and its B (op(A)^T) the caller's A. A column-major matrix is its transpose stored
// row-major, so each operand keeps its op: column-major NN is the kernel's NN with the operands
// swapped, column-major TN its NT, NT its TN, TT its TT. In that view:
//  - best takes the shape itself: TRANS_A (A stored K x M, A(m, k) at k * lda + m) and TRANS_B
//    (B stored N x K, B(k, n) at n * ldb + k), set by the host, and lda, ldb, ldc as arguments
//    after C; C is never transposed, its lines are ldc apart and the gaps between them untouched.
//    From PAD_FROM up the padding copies take the shape and best runs packed NN.
//  - every other kernel (the ladder, the tensor cores) gets packed NN matrices: the host runs
//    copy_matrix, timed with the GEMM, for each operand that is not stored packed row-major (and C
//    in where beta != 0, C out into its stored lines), as it does for padding; transposed-b's
//    transpose_b then reads the packed B; the warpgroup kernels' pack_operand reads A and B as
//    stored itself (leading dimension and transposition as arguments), in its single pass.
//
// Each tunable is a macro with a default below; the host passes -D NAME=VALUE for every parameter
// of the variant it runs. A host build also defines CLGEMM_ONE_KERNEL and KERNEL_<entry>, so only
// that kernel and its defaults are compiled; without them (oclgrind, an offline compiler) the whole
// file compiles, each section #undef-ing its macros so they cannot leak into the next one.
// Work-item dimension 0 runs along N (columns of C), dimension 1 along M (rows).

// Contents: four parts, each under a line of '=', each section under a line of '-' starting with
// its name (search for "// best:").
//   1. Shared helpers, before their first use
//        REAL, REAL4, ...                       the element type: float, or double with FP64
//        load_or_zero, swizzled_tile, ...       edge loads, swizzled group order, the epilogue
//        TILE2X2_MADS, store_c_2x2              the 2x2 block of tiled-2x2 and its two successors
//        copy_matrix (helper kernel)            shapes and padding copies of every GEMM kernel
//        copy_matrix_pair (helper kernel)       two of them in one launch (A's and B's)
//        tc_tf32                                TF32 rounding (tensor cores, pack_operand)
//   2. The ladder, portable OpenCL C, in the registry's order (clgemm --explain --kernel cl)
//        naive-global     gemm_naive_global     the sum accumulated in C, in global memory
//        naive            gemm_naive            one work-item per element of C
//        tiled            gemm_tiled            tiles of A and B in local memory
//        tiled-wpt        gemm_tiled_wpt        more work per work-item (WPT rows of a column)
//        vector           gemm_vector           wide data types (REALWIDTH)
//        tiled-2x2        gemm_tiled_2x2        a 2x2 block of C per work-item
//        prefetch-reg     gemm_prefetch_reg     the next tiles prefetched into registers
//        prefetch-local   gemm_prefetch_local   double-buffered local memory
//        transposed-b     gemm_transposed_b     B transposed first (helper kernel transpose_b)
//        regtile-nolocal  gemm_regtile_nolocal  register blocking without local memory
//        regtile2d        gemm_regtile2d        2D register tiling
//        best             gemm_best             float4 loads, A transposed, double buffers, swizzle
//   3. Device peak probes for `clgemm peak` (portable; not in the registry)
//        peak_fma                               FP32 (or FP64) multiply-add throughput
//        peak_read                              global memory read bandwidth
//   4. NVIDIA only, inline PTX, compiled only when named (never in a whole-file build)
//        simt-async                             gemm_simt_async: best's FP32 FMAs on cp.async
//        tc-tf32, tc-3xtf32                     gemm_tc_tf32 and gemm_tc_3xtf32: mma.sync, TF32
//        pack_operand, line_scale (helpers)     pack A and B for those below, and the lines'
//                                               powers of two of tc-3xtf32-f16; plain OpenCL C
//        tc-tf32-wg, tc-3xtf32-wg               gemm_tc_tf32_wg and gemm_tc_3xtf32_wg: Hopper's
//                                               warpgroup MMA (sm_90a)
//        tc-tf32-tma, -rs, -ws, -fused          A by tensor copies; A rounded in registers; a
//                                               producer warp; B packed inside the GEMM
//        tc-3xtf32-ws, tc-3xtf32-f16            3xTF32 in that pipeline; its small products in
//                                               one FP16 wgmma

// =============================================================================================
// 1. Shared helpers, before their first use

// The element type of the ladder, best and the copies (issue #26): one source for FP32 and FP64.
// The host adds -D FP64=1 to every build of an FP64 problem (it refuses FP64 on devices without
// cl_khr_fp64 before building). The tensor-core kernels, pack_operand and the peak probes stay
// FP32 (peak_fma has its own PEAK_DOUBLE). With FP64 = 0 every type and literal below expands to
// exactly the tokens the kernels had before, so FP32 code is unchanged.
#ifndef FP64
#define FP64 0
#endif
#if FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#define REAL2 double2
#define REAL4 double4
#define REAL8 double8
#define REAL16 double16
#define REAL_ZERO 0.0
#else
#define REAL float
#define REAL2 float2
#define REAL4 float4
#define REAL8 float8
#define REAL16 float16
#define REAL_ZERO 0.0f
#endif

// Element (row, col) of a rows x cols row-major matrix, or 0 outside it: how every kernel fills
// the parts of its tiles that lie past the edge of A or B (zeros add nothing to the sum).
inline REAL load_or_zero(__global const REAL* p, const int rows, const int cols, const int row,
                         const int col) {
  return (row < rows && col < cols) ? p[row * cols + col] : REAL_ZERO;
}

// The (block row, block column) of C that tile `pid` of a grid_m x grid_n grid of blocks is, in an
// order swizzled for L2 reuse: consecutive tiles walk down a band of group_m block rows before
// moving right, so blocks that run together share tiles of A and B (best, simt-async and the
// tensor-core kernels).
inline int2 swizzled_tile(const int pid, const int grid_m, const int grid_n, const int group_m) {
  const int band = group_m * grid_n;
  const int first_m = (pid / band) * group_m;
  const int band_rows = min(grid_m - first_m, group_m);
  return (int2)(first_m + (pid % band) % band_rows, (pid % band) / band_rows);
}
// This work-group's block in the swizzled order, over the launch's grid of work-groups.
inline int2 swizzled_block(const int group_m) {
  return swizzled_tile(get_group_id(1) * get_num_groups(0) + get_group_id(0), get_num_groups(1),
                       get_num_groups(0), group_m);
}

// Shared epilogue: alpha * acc (+ beta * C when beta != 0).
inline void store_c(__global REAL* C, const int index, const REAL acc, const REAL alpha,
                    const REAL beta) {
  C[index] = (beta == REAL_ZERO) ? alpha * acc : alpha * acc + beta * C[index];
}

// ---------------------------------------------------------------------------------------------
// Shared by tiled-2x2 and the two prefetching kernels built on it, which differ only in how the
// tiles reach local memory.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tiled_2x2) || \
    defined(KERNEL_gemm_prefetch_reg) || defined(KERNEL_gemm_prefetch_local)
// One tile's multiply-adds for a work-item's 2x2 block: rows lrow and lrow + TS_/2 of the A tile,
// columns lcol and lcol + TS_/2 of the B tile (As and Bs may be buffers of a double-buffered
// array). Uses the kernel's lrow, lcol and acc00..acc11.
#define TILE2X2_MADS(As, Bs, TS_)                                   \
  for (int k = 0; k < (TS_); ++k) {                                 \
    const REAL a0 = As[lrow][k], a1 = As[lrow + (TS_) / 2][k];      \
    const REAL b0 = Bs[k][lcol], b1 = Bs[k][lcol + (TS_) / 2];      \
    acc00 += a0 * b0;                                               \
    acc01 += a0 * b1;                                               \
    acc10 += a1 * b0;                                               \
    acc11 += a1 * b1;                                               \
  }

// Stores the block: elements (r0 + i*h, c0 + j*h) for i, j in {0, 1}, those inside C only.
inline void store_c_2x2(__global REAL* C, const int M, const int N, const int r0, const int c0,
                        const int h, const REAL acc00, const REAL acc01, const REAL acc10,
                        const REAL acc11, const REAL alpha, const REAL beta) {
  const int r1 = r0 + h, c1 = c0 + h;
  if (r0 < M && c0 < N) store_c(C, r0 * N + c0, acc00, alpha, beta);
  if (r0 < M && c1 < N) store_c(C, r0 * N + c1, acc01, alpha, beta);
  if (r1 < M && c0 < N) store_c(C, r1 * N + c0, acc10, alpha, beta);
  if (r1 < M && c1 < N) store_c(C, r1 * N + c1, acc11, alpha, beta);
}
#endif

// ---------------------------------------------------------------------------------------------
// copy_matrix: dst (rows x cols, row-major, lines ld floats apart) = the src_rows x src_cols matrix
// src holds (element (r, c) at src_transposed ? c * src_ld + r : r * src_ld + c), cut to dst's
// size or extended with zeros to the right and below; dst's gaps (ld > cols) are never written.
// Each matrix starts its offset (in elements) into its buffer: the library's callers pass offsets.
// The host's copies around every kernel that does not take shapes itself: stored A and B into
// packed row-major (and zero-padded where PAD_FROM asks), C in where beta != 0, and C back out
// into its stored lines (ldc). Compiled into every GEMM variant's program. Global
// (ceil(cols/32)*32, ceil(rows/CM_BLOCK)*8), local (32, 8): a work-group copies a 32 x CM_BLOCK
// block, each work-item CM_LINES elements 8 lines apart, all loaded before the first is stored, so
// that they are in flight together (one element per work-item left the copies at 8191^3 at 62% of
// the H100's bandwidth; at 8193^3 on the H200 four moved 3.1 TB/s, eight 3.5 and sixteen 3.4:
// docs/performance.md, 2026-11-29). For a transposed source the host swaps the two dimensions
// (ceil(rows/32)*32, ceil(cols/CM_BLOCK)*8), so that consecutive work-items always walk along the
// source's stored lines and its reads coalesce; the block then goes through local memory 32 x 32
// at a time, so that the writes run along dst's lines as well (written straight from the reads, 32
// work-items wrote 32 lines, and an 8192^2 transposing copy took 1.3 ms on the H100 instead of
// about 0.2).
#if !defined(KERNEL_peak_fma) && !defined(KERNEL_peak_read) && !defined(KERNEL_pack_operand)
#define CM_LINES 8               // elements per work-item (the host's pad_shape says the same)
#define CM_BLOCK (8 * CM_LINES)  // a work-group's lines across the source's lines
// One work-group's block of the copy: group (bx, by) of the grid above, `block` the local 32 x 33
// of a transposed source. Every argument but the group's is the same for the whole work-group, so
// its barriers are reached by all of its work-items.
inline void copy_matrix_block(const int src_rows, const int src_cols, const int src_ld,
                              const int src_transposed, __global const REAL* restrict src,
                              const int src_offset, const int rows, const int cols, const int ld,
                              __global REAL* restrict dst, const int dst_offset, const int bx,
                              const int by, __local REAL (*block)[33]) {
  src += src_offset;
  dst += dst_offset;
  // Along the source's lines, and the first of the work-item's lines across them: its elements
  // are src[(across + 8 * i) * src_ld + along] either way, dst's (row, col) (across + 8 * i,
  // along), or transposed (along, across + 8 * i).
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int along = bx * 32 + lx, across = by * CM_BLOCK + ly;
  REAL v[CM_LINES];
  _Pragma("unroll") for (int i = 0; i < CM_LINES; ++i) {
    const int line = across + 8 * i;
    const bool inside = src_transposed
                            ? along < src_rows && line < src_cols && along < rows && line < cols
                            : line < src_rows && along < src_cols && line < rows && along < cols;
    v[i] = inside ? src[line * src_ld + along] : REAL_ZERO;
  }
  // A transposed source: 32 x 32 pieces of the block, dst rows r0 ... r0 + 31 (along the source's
  // lines) x columns c0 ... c0 + 31 (its next 32 lines), held as read (block[c][r], a column of
  // dst per source line) and written row by row; 33 floats per line keep both conflict-free. The
  // barriers stay out of branches (the loop's count is the same for the whole work-group): inside
  // one (legal, a kernel argument decides it) pocl's CPU device returned wrong copies.
  const int pieces = src_transposed ? CM_LINES / 4 : 0;
  for (int p = 0; p < pieces; ++p) {
    _Pragma("unroll") for (int i = 0; i < 4; ++i) block[ly + 8 * i][lx] = v[4 * p + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int r0 = bx * 32, c0 = by * CM_BLOCK + 32 * p;
    _Pragma("unroll") for (int i = 0; i < 4; ++i) {
      const int r = r0 + ly + 8 * i, c = c0 + lx;
      if (r < rows && c < cols) dst[r * ld + c] = block[lx][ly + 8 * i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // read before the next piece overwrites it
  }
  if (src_transposed) return;
  _Pragma("unroll") for (int i = 0; i < CM_LINES; ++i) {
    const int r = across + 8 * i, c = along;
    // The later lines lie further out still.
    if (r >= rows || c >= cols) return;
    dst[r * ld + c] = v[i];
  }
}
__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void copy_matrix(
    const int src_rows, const int src_cols, const int src_ld, const int src_transposed,
    __global const REAL* restrict src, const int src_offset, const int rows, const int cols,
    const int ld, __global REAL* restrict dst, const int dst_offset) {
  __local REAL block[32][33];  // a transposed source's 32 x 32 (OpenCL C: at the kernel's scope)
  copy_matrix_block(src_rows, src_cols, src_ld, src_transposed, src, src_offset, rows, cols, ld,
                    dst, dst_offset, get_group_id(0), get_group_id(1), block);
}

// copy_matrix_pair: two of copy_matrix's copies in one launch (the host's copies of A and B where
// it makes both), copy 0's blocks first, then copy 1's. Each copy's grid of blocks as copy_matrix
// lays it out, (gx, gy), is read row by row from dimension 0: global ((groups 0 + groups 1) * 32,
// 8), local (32, 8). On the H100 every launch of a copy costs about 5 us besides its bytes (a
// transposing copy of 1280^2, 1536^2 and 1792^2 floats took 8.5, 10.8 and 11.9 us), as much as
// copying 9 MB more, and padded problems of 1K to 2K copy both operands (docs/performance.md,
// 2026-12-07). The copy is picked by the work-group's index, the same for all of its work-items,
// and its arguments by selects, so that the barriers of a transposed source stay out of branches.
__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void copy_matrix_pair(
    const int src_rows0, const int src_cols0, const int src_ld0, const int src_transposed0,
    __global const REAL* restrict src0, const int src_offset0, const int rows0, const int cols0,
    const int ld0, __global REAL* restrict dst0, const int dst_offset0, const int src_rows1,
    const int src_cols1, const int src_ld1, const int src_transposed1,
    __global const REAL* restrict src1, const int src_offset1, const int rows1, const int cols1,
    const int ld1, __global REAL* restrict dst1, const int dst_offset1) {
  __local REAL block[32][33];
  // Each copy's blocks along and across its source's lines, as copy_matrix's grid has them.
  const int gx0 = ((src_transposed0 ? rows0 : cols0) + 31) / 32;
  const int gy0 = ((src_transposed0 ? cols0 : rows0) + CM_BLOCK - 1) / CM_BLOCK;
  const int gx1 = ((src_transposed1 ? rows1 : cols1) + 31) / 32;
  const int g = get_group_id(0);
  const bool second = g >= gx0 * gy0;
  const int h = second ? g - gx0 * gy0 : g, gx = second ? gx1 : gx0;
  copy_matrix_block(second ? src_rows1 : src_rows0, second ? src_cols1 : src_cols0,
                    second ? src_ld1 : src_ld0, second ? src_transposed1 : src_transposed0,
                    second ? src1 : src0, second ? src_offset1 : src_offset0,
                    second ? rows1 : rows0, second ? cols1 : cols0, second ? ld1 : ld0,
                    second ? dst1 : dst0, second ? dst_offset1 : dst_offset0, h % gx, h / gx,
                    block);
}
#undef CM_LINES
#undef CM_BLOCK
#endif

// ---------------------------------------------------------------------------------------------
// TF32 rounding, shared by the tensor-core kernels and tc-tf32-wg's packing helper (plain
// OpenCL C, so it may build anywhere; the sections with PTX stay out of whole-file builds).
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_pack_operand) || defined(KERNEL_gemm_tc_tf32) || \
    defined(KERNEL_gemm_tc_3xtf32) || defined(KERNEL_gemm_tc_tf32_wg) ||                           \
    defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_tf32_tma) ||                       \
    defined(KERNEL_gemm_tc_tf32_rs) || defined(KERNEL_gemm_tc_tf32_ws) ||                          \
    defined(KERNEL_gemm_tc_tf32_fused) || defined(KERNEL_gemm_tc_3xtf32_ws) ||                     \
    defined(KERNEL_gemm_tc_3xtf32_f16) || defined(KERNEL_line_scale)
// x rounded to the nearest TF32 value (ties away from zero), in an FP32 register: what
// cvt.rna.tf32.f32 computes, but in two integer operations at full rate; the conversion
// instruction runs at a quarter of it and held tc-3xtf32 to 58 TFLOP/s (docs/performance.md).
// Adding half of TF32's last place to the magnitude bits carries into the exponent where it must.
inline uint tc_tf32(const float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }
// The same for four values, as floats.
inline float4 tc_tf32_4(const float4 v) {
  return as_float4((uint4)(tc_tf32(v.x), tc_tf32(v.y), tc_tf32(v.z), tc_tf32(v.w)));
}
#endif

// =============================================================================================
// 2. The ladder, portable OpenCL C, in the registry's order

// ---------------------------------------------------------------------------------------------
// naive-global: the classic first mistake. One work-item per element of C, as in naive, but the
// sum is accumulated straight into C in global memory: every step of the dot product loads and
// stores C as well as A and B. A and B are not restrict here, as in the code this mistake is
// found in, so the compiler may not keep C in a register (a store to C could change A or B).
// Global (ceil(N/WGX)*WGX, ceil(M/WGY)*WGY), local (WGX, WGY).
// Any size: work-items past the edge of C return before touching memory.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_naive_global)
#ifndef WGX
#define WGX 16  // work-group width (columns of C)
#endif
#ifndef WGY
#define WGY 16  // work-group height (rows of C)
#endif

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void gemm_naive_global(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* A, __global const REAL* B, __global REAL* C) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (row >= M || col >= N) return;
  const int c = row * N + col;
  C[c] = (beta == REAL_ZERO) ? REAL_ZERO : beta * C[c];
  for (int k = 0; k < K; ++k) C[c] += alpha * A[row * K + k] * B[k * N + col];
}
#undef WGX
#undef WGY
#endif

// ---------------------------------------------------------------------------------------------
// naive: one work-item per element of C, the dot product summed in a private register.
// Global (ceil(N/WGX)*WGX, ceil(M/WGY)*WGY), local (WGX, WGY).
// Any size: work-items past the edge of C return before touching memory (no barriers here).
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_naive)
#ifndef WGX
#define WGX 16  // work-group width (columns of C)
#endif
#ifndef WGY
#define WGY 16  // work-group height (rows of C)
#endif

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void gemm_naive(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (row >= M || col >= N) return;
  REAL acc = REAL_ZERO;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  store_c(C, row * N + col, acc, alpha, beta);
}
#undef WGX
#undef WGY
#endif

// ---------------------------------------------------------------------------------------------
// tiled: adds local memory. A work-group of TS x TS work-items stages a TS x TS tile of A and one
// of B per K-step, so each element loaded from global memory is reused TS times.
// Global (ceil(N/TS)*TS, ceil(M/TS)*TS), local (TS, TS).
// Any size: loads outside A or B put zeros into the tile (they add nothing to the sum), and only
// work-items inside C store. Every work-item reaches every barrier.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tiled)
#ifndef TS
#define TS 16  // tile edge: the work-group is TS x TS, the K-step TS
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1))) void gemm_tiled(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int col = get_group_id(0) * TS + lcol;
  const int row = get_group_id(1) * TS + lrow;

  __local REAL Asub[TS][TS];
  __local REAL Bsub[TS][TS];

  REAL acc = REAL_ZERO;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + lcol;  // column of A this work-item loads
    const int kb = k0 + lrow;  // row of B this work-item loads
    Asub[lrow][lcol] = load_or_zero(A, M, K, row, ka);
    Bsub[lrow][lcol] = load_or_zero(B, K, N, kb, col);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += Asub[lrow][k] * Bsub[k][lcol];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) store_c(C, row * N + col, acc, alpha, beta);
}
#undef TS
#endif

// ---------------------------------------------------------------------------------------------
// tiled-wpt: adds more work per work-item to tiled. The work-group is TS x (TS/WPT) and each
// work-item computes WPT rows of one column of C, strided by TS/WPT: each B value read from local
// memory is reused WPT times from a register, and there are WPT times fewer work-items to
// schedule. Global traffic is tiled's (TS x TS tiles).
// Global (ceil(N/TS)*TS, ceil(M/TS)*TS/WPT), local (TS, TS/WPT).
// Any size: as tiled (zero-filled tiles, bounds-checked stores, every work-item at every barrier).
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tiled_wpt)
#ifndef TS
#define TS 32  // tile edge: the tiles are TS x TS and the K-step is TS
#endif
#ifndef WPT
#define WPT 4  // rows of C per work-item (divides TS)
#endif
#define RTS (TS / WPT)  // work-group height

__kernel __attribute__((reqd_work_group_size(TS, RTS, 1))) void gemm_tiled_wpt(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int col = get_group_id(0) * TS + lcol;
  const int row0 = get_group_id(1) * TS + lrow;

  __local REAL Asub[TS][TS];
  __local REAL Bsub[TS][TS];

  REAL acc[WPT];
  for (int w = 0; w < WPT; ++w) acc[w] = REAL_ZERO;

  for (int k0 = 0; k0 < K; k0 += TS) {
    for (int w = 0; w < WPT; ++w) {
      const int r = lrow + w * RTS;
      const int ka = k0 + lcol, kb = k0 + r;
      Asub[r][lcol] = load_or_zero(A, M, K, row0 + w * RTS, ka);
      Bsub[r][lcol] = load_or_zero(B, K, N, kb, col);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      const REAL b = Bsub[k][lcol];
      for (int w = 0; w < WPT; ++w) acc[w] += Asub[lrow + w * RTS][k] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < WPT; ++w) {
    const int row = row0 + w * RTS;
    if (row < M && col < N) store_c(C, row * N + col, acc[w], alpha, beta);
  }
}
#undef RTS
#undef TS
#undef WPT
#endif

// ---------------------------------------------------------------------------------------------
// vector: adds wide data types to tiled-wpt. Each work-item computes WIDTH neighbouring columns of
// C as one floatWIDTH, loads WIDTH floats of A and of B per global access, and reads B from local
// memory WIDTH floats at a time. The work-group is (TS/WIDTH) x TS.
// Global (ceil(N/TS)*TS/WIDTH, ceil(M/TS)*TS), local (TS/WIDTH, TS).
// Any size: loads that cross the edge of A or B fall back to single floats with zeros outside;
// aligned vector loads (VEC_A: K % WIDTH == 0, VEC_B: N % WIDTH == 0, set by the host) are used
// only where every row starts on a WIDTH-float boundary; stores are bounds-checked per column.
// The A tile's rows are padded by one float: a warp spans several rows of this work-group, and
// rows TS floats apart would put their reads of Asub[row][k] in one bank (4-way conflicts at the
// defaults, which cost 1.6x on an H100).
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_vector)
#ifndef TS
#define TS 32  // tile edge: the tiles are TS x TS and the K-step is TS
#endif
#ifndef WIDTH
#define WIDTH 4  // floats per vector: 2, 4, 8 or 16 (divides TS)
#endif
#ifndef VEC_A
#define VEC_A 0  // rows of A start WIDTH-aligned (set by the host)
#endif
#ifndef VEC_B
#define VEC_B 0  // rows of B and C start WIDTH-aligned (set by the host)
#endif
#define VCAT2(a, b) a##b
#define VCAT(a, b) VCAT2(a, b)
#define REALW VCAT(REAL, WIDTH)
#define vloadW VCAT(vload, WIDTH)
#define vstoreW VCAT(vstore, WIDTH)
#define VTS (TS / WIDTH)  // vectors per tile row: the work-group width

// WIDTH consecutive floats of row `row` of a rows x cols matrix from column `col`, zeros outside.
inline REALW vector_load(__global const REAL* p, const int rows, const int cols, const int row,
                         const int col, const int aligned) {
  if (row < rows && col + WIDTH <= cols) {
    if (aligned) return *(__global const REALW*)(p + row * cols + col);
    return vloadW(0, p + row * cols + col);
  }
  REAL part[WIDTH];
  for (int w = 0; w < WIDTH; ++w)
    part[w] = load_or_zero(p, rows, cols, row, col + w);
  return vloadW(0, part);
}

__kernel __attribute__((reqd_work_group_size(VTS, TS, 1))) void gemm_vector(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lvec = get_local_id(0);  // which WIDTH-wide column group of the tile
  const int lrow = get_local_id(1);
  const int row = get_group_id(1) * TS + lrow;
  const int col0 = get_group_id(0) * TS + lvec * WIDTH;

  __local REAL Asub[TS][TS + 1];  // padded: see the section comment
  __local REALW Bsub[TS][VTS];

  REALW acc = (REALW)(REAL_ZERO);
  for (int k0 = 0; k0 < K; k0 += TS) {
    vstoreW(vector_load(A, M, K, row, k0 + lvec * WIDTH, VEC_A), 0, &Asub[lrow][lvec * WIDTH]);
    Bsub[lrow][lvec] = vector_load(B, K, N, k0 + lrow, col0, VEC_B);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += Asub[lrow][k] * Bsub[k][lvec];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row >= M) return;
  REAL out[WIDTH];
  vstoreW(acc, 0, out);
  for (int w = 0; w < WIDTH; ++w)
    if (col0 + w < N) store_c(C, row * N + col0 + w, out[w], alpha, beta);
}
#undef VTS
#undef vstoreW
#undef vloadW
#undef REALW
#undef VCAT
#undef VCAT2
#undef TS
#undef WIDTH
#undef VEC_A
#undef VEC_B
#endif

// ---------------------------------------------------------------------------------------------
// tiled-2x2: spreads tiled-wpt's extra work over both dimensions. The work-group is
// (TS/2) x (TS/2) and each work-item computes a 2x2 block of C (rows and columns strided by TS/2
// so a warp still reads neighbouring columns): per step of k two A values and two B values from
// local memory feed four multiply-adds, where tiled needs two reads per multiply-add.
// The A tile's rows are padded by one float: a warp spans two rows of the work-group, whose reads
// of Asub[row][k] would otherwise fall in one bank (TS floats apart); 1.4x on an H100.
// Global (ceil(N/TS)*TS/2, ceil(M/TS)*TS/2), local (TS/2, TS/2).
// Any size: as tiled.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tiled_2x2)
#ifndef TS
#define TS 32  // tile edge (even): the tiles are TS x TS and the K-step is TS
#endif
#define HTS (TS / 2)  // work-group edge

__kernel __attribute__((reqd_work_group_size(HTS, HTS, 1))) void gemm_tiled_2x2(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int row0 = get_group_id(1) * TS;
  const int col0 = get_group_id(0) * TS;

  __local REAL Asub[TS][TS + 1];  // padded: see the section comment
  __local REAL Bsub[TS][TS];

  REAL acc00 = REAL_ZERO, acc01 = REAL_ZERO, acc10 = REAL_ZERO, acc11 = REAL_ZERO;
  for (int k0 = 0; k0 < K; k0 += TS) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        const int r = lrow + i * HTS, c = lcol + j * HTS;
        Asub[r][c] = load_or_zero(A, M, K, row0 + r, k0 + c);
        Bsub[r][c] = load_or_zero(B, K, N, k0 + r, col0 + c);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    TILE2X2_MADS(Asub, Bsub, TS)
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  store_c_2x2(C, M, N, row0 + lrow, col0 + lcol, HTS, acc00, acc01, acc10, acc11, alpha, beta);
}
#undef HTS
#undef TS
#endif

// ---------------------------------------------------------------------------------------------
// prefetch-reg: adds register prefetching to tiled-2x2. Each work-item's four elements of the next
// A tile and four of the next B tile are loaded into registers before the current tile's
// multiply-adds, and stored to local memory after them, so the global loads' latency is hidden
// behind arithmetic instead of a barrier. Still two barriers per tile.
// Global (ceil(N/TS)*TS/2, ceil(M/TS)*TS/2), local (TS/2, TS/2).
// Any size: as tiled.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_prefetch_reg)
#ifndef TS
#define TS 32  // tile edge (even): the tiles are TS x TS and the K-step is TS
#endif
#define HTS (TS / 2)  // work-group edge

__kernel __attribute__((reqd_work_group_size(HTS, HTS, 1))) void gemm_prefetch_reg(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int row0 = get_group_id(1) * TS;
  const int col0 = get_group_id(0) * TS;

  __local REAL Asub[TS][TS + 1];  // padded: see tiled-2x2
  __local REAL Bsub[TS][TS];

  REAL a_next[2][2], b_next[2][2];
#define PREFETCH(k0)                                                                           \
  for (int i = 0; i < 2; ++i) {                                                                \
    for (int j = 0; j < 2; ++j) {                                                              \
      const int r = lrow + i * HTS, c = lcol + j * HTS;                                        \
      a_next[i][j] = load_or_zero(A, M, K, row0 + r, (k0) + c);                                \
      b_next[i][j] = load_or_zero(B, K, N, (k0) + r, col0 + c);                                \
    }                                                                                          \
  }

  REAL acc00 = REAL_ZERO, acc01 = REAL_ZERO, acc10 = REAL_ZERO, acc11 = REAL_ZERO;
  PREFETCH(0)
  for (int k0 = 0; k0 < K; k0 += TS) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        Asub[lrow + i * HTS][lcol + j * HTS] = a_next[i][j];
        Bsub[lrow + i * HTS][lcol + j * HTS] = b_next[i][j];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k0 + TS < K) {
      PREFETCH(k0 + TS)
    }
    TILE2X2_MADS(Asub, Bsub, TS)
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#undef PREFETCH
  store_c_2x2(C, M, N, row0 + lrow, col0 + lcol, HTS, acc00, acc01, acc10, acc11, alpha, beta);
}
#undef HTS
#undef TS
#endif

// ---------------------------------------------------------------------------------------------
// prefetch-local: double-buffers tiled-2x2's local memory instead. Two A tiles and two B tiles are
// in flight: while the work-group multiplies out one buffer it loads the next tile into the other,
// and a single barrier per tile separates the two (the loop's one barrier both publishes the new
// tile and ends every read of the old one before it is overwritten).
// Global (ceil(N/TS)*TS/2, ceil(M/TS)*TS/2), local (TS/2, TS/2).
// Any size: as tiled.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_prefetch_local)
#ifndef TS
#define TS 32  // tile edge (even): the tiles are TS x TS and the K-step is TS
#endif
#define HTS (TS / 2)  // work-group edge

__kernel __attribute__((reqd_work_group_size(HTS, HTS, 1))) void gemm_prefetch_local(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int row0 = get_group_id(1) * TS;
  const int col0 = get_group_id(0) * TS;

  __local REAL Asub[2][TS][TS + 1];  // padded: see tiled-2x2
  __local REAL Bsub[2][TS][TS];

#define LOAD_TILE(buf, k0)                                                                      \
  for (int i = 0; i < 2; ++i) {                                                                 \
    for (int j = 0; j < 2; ++j) {                                                               \
      const int r = lrow + i * HTS, c = lcol + j * HTS;                                         \
      Asub[buf][r][c] = load_or_zero(A, M, K, row0 + r, (k0) + c);                              \
      Bsub[buf][r][c] = load_or_zero(B, K, N, (k0) + r, col0 + c);                              \
    }                                                                                           \
  }

  REAL acc00 = REAL_ZERO, acc01 = REAL_ZERO, acc10 = REAL_ZERO, acc11 = REAL_ZERO;
  LOAD_TILE(0, 0)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k0 = 0, cur = 0; k0 < K; k0 += TS, cur ^= 1) {
    if (k0 + TS < K) {
      LOAD_TILE(cur ^ 1, k0 + TS)
    }
    TILE2X2_MADS(Asub[cur], Bsub[cur], TS)
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#undef LOAD_TILE
  store_c_2x2(C, M, N, row0 + lrow, col0 + lcol, HTS, acc00, acc01, acc10, acc11, alpha, beta);
}
#undef HTS
#undef TS
#endif

#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tiled_2x2) || \
    defined(KERNEL_gemm_prefetch_reg) || defined(KERNEL_gemm_prefetch_local)
#undef TILE2X2_MADS
#endif

// ---------------------------------------------------------------------------------------------
// transposed-b: B is first transposed by a helper kernel (transpose_b, run and timed with the GEMM
// in every repetition) so that A and B^T are both read along K. Over tiled-wpt this adds
// rectangular tiles: a work-group computes a TSM x TSN block of C with a K-step of TSK, each
// work-item WPTM rows of one column. Both tiles are stored k-major in local memory (Asub[k][m],
// Bsub[k][n]); the transposing stores stride by a row, which PAD floats per row spread over the
// banks.
// transpose_b: global (ceil(N/TT)*TT, ceil(K/TT)*TT), local (TT, TT).
// gemm_transposed_b: global (ceil(N/TSN)*TSN, ceil(M/TSM)*TSM/WPTM), local (TSN, TSM/WPTM).
// Any size: zero-filled tiles, bounds-checked stores, every work-item at every barrier.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_transposed_b)
#ifndef TSM
#define TSM 64  // rows of C per work-group
#endif
#ifndef TSN
#define TSN 32  // columns of C per work-group: the work-group width
#endif
#ifndef TSK
#define TSK 32  // K-step: depth of the local tiles
#endif
#ifndef WPTM
#define WPTM 8  // rows of C per work-item (divides TSM)
#endif
#ifndef PAD
#define PAD 1  // floats of padding per local row, against bank conflicts
#endif
#ifndef TT
#define TT 16  // transpose_b's tile edge
#endif
#define RTSM (TSM / WPTM)  // work-group height

// Bt (N x K) = B (K x N) transposed, through a padded local tile so reads and writes coalesce.
__kernel __attribute__((reqd_work_group_size(TT, TT, 1))) void transpose_b(
    const int K, const int N, __global const REAL* restrict B, __global REAL* restrict Bt) {
  __local REAL tile[TT][TT + 1];
  const int n = get_group_id(0) * TT + get_local_id(0);
  const int k = get_group_id(1) * TT + get_local_id(1);
  if (k < K && n < N) tile[get_local_id(1)][get_local_id(0)] = B[k * N + n];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int nt = get_group_id(0) * TT + get_local_id(1);
  const int kt = get_group_id(1) * TT + get_local_id(0);
  if (nt < N && kt < K) Bt[nt * K + kt] = tile[get_local_id(0)][get_local_id(1)];
}

__kernel __attribute__((reqd_work_group_size(TSN, RTSM, 1))) void gemm_transposed_b(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict Bt, __global REAL* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int tid = lrow * TSN + lcol;
  const int offm = get_group_id(1) * TSM;
  const int offn = get_group_id(0) * TSN;
  const int col = offn + lcol;

  __local REAL Asub[TSK][TSM + PAD];
  __local REAL Bsub[TSK][TSN + PAD];

  REAL acc[WPTM];
  for (int w = 0; w < WPTM; ++w) acc[w] = REAL_ZERO;

  for (int k0 = 0; k0 < K; k0 += TSK) {
    // Consecutive work-items read consecutive k of one row of A or Bt (coalesced).
    for (int i = tid; i < TSM * TSK; i += TSN * RTSM) {
      const int m = i / TSK, k = i % TSK;
      Asub[k][m] = load_or_zero(A, M, K, offm + m, k0 + k);
    }
    for (int i = tid; i < TSN * TSK; i += TSN * RTSM) {
      const int n = i / TSK, k = i % TSK;
      Bsub[k][n] = load_or_zero(Bt, N, K, offn + n, k0 + k);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TSK; ++k) {
      const REAL b = Bsub[k][lcol];
      for (int w = 0; w < WPTM; ++w) acc[w] += Asub[k][lrow + w * RTSM] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < WPTM; ++w) {
    const int row = offm + lrow + w * RTSM;
    if (row < M && col < N) store_c(C, row * N + col, acc[w], alpha, beta);
  }
}
#undef RTSM
#undef TSM
#undef TSN
#undef TSK
#undef WPTM
#undef PAD
#undef TT
#endif

// ---------------------------------------------------------------------------------------------
// regtile-nolocal: register blocking without local memory, a branch off naive. Each work-item
// computes TY rows x TX columns of C (strided by the work-group shape, so a warp's B loads are
// neighbouring columns and its A loads one broadcast address) and steps through K LEN at a time:
// TY x LEN values of A and LEN x TX of B are loaded into registers, then TY x TX x LEN
// multiply-adds run from registers. Each A value loaded is used TX times, each B value TY times;
// the rest of the reuse is left to the caches.
// Global (ceil(N/(WGX*TX))*WGX, ceil(M/(WGY*TY))*WGY), local (WGX, WGY).
// Any size: loads outside A or B give zeros, stores are bounds-checked.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_regtile_nolocal)
#ifndef TX
#define TX 4  // columns of C per work-item
#endif
#ifndef TY
#define TY 4  // rows of C per work-item
#endif
#ifndef LEN
#define LEN 4  // K-unroll: values of k held in registers per step
#endif
#ifndef WGX
#define WGX 16  // work-group width
#endif
#ifndef WGY
#define WGY 16  // work-group height
#endif

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void gemm_regtile_nolocal(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int row0 = get_group_id(1) * WGY * TY + get_local_id(1);
  const int col0 = get_group_id(0) * WGX * TX + get_local_id(0);

  REAL acc[TY][TX];
  for (int i = 0; i < TY; ++i)
    for (int j = 0; j < TX; ++j) acc[i][j] = REAL_ZERO;
  REAL a[TY][LEN], b[LEN][TX];

  for (int k0 = 0; k0 < K; k0 += LEN) {
    for (int i = 0; i < TY; ++i) {
      const int row = row0 + i * WGY;
      for (int l = 0; l < LEN; ++l)
        a[i][l] = load_or_zero(A, M, K, row, k0 + l);
    }
    for (int l = 0; l < LEN; ++l) {
      for (int j = 0; j < TX; ++j) {
        const int col = col0 + j * WGX;
        b[l][j] = load_or_zero(B, K, N, k0 + l, col);
      }
    }
    for (int l = 0; l < LEN; ++l)
      for (int i = 0; i < TY; ++i)
        for (int j = 0; j < TX; ++j) acc[i][j] += a[i][l] * b[l][j];
  }
  for (int i = 0; i < TY; ++i) {
    const int row = row0 + i * WGY;
    for (int j = 0; j < TX; ++j) {
      const int col = col0 + j * WGX;
      if (row < M && col < N) store_c(C, row * N + col, acc[i][j], alpha, beta);
    }
  }
}
#undef TX
#undef TY
#undef LEN
#undef WGX
#undef WGY
#endif

// ---------------------------------------------------------------------------------------------
// regtile2d: adds 2D register tiling. A work-group computes a TSM x TSN block of C; each of its
// (TSN/WPTN) x (TSM/WPTM) work-items computes WPTM x WPTN elements held in registers, strided by
// the work-group shape so neighbouring work-items touch neighbouring columns (coalesced stores,
// conflict-free local reads). Per K-step of TSK, the group stages A transposed (Asub[k][m]) and B
// (Bsub[k][n]) in local memory; each local row is padded by PAD floats so the transposing stores
// of A, which stride by a row, spread over the banks. In the inner loop each A value is reused
// WPTN times and each B value WPTM times from registers.
// Global (ceil(N/TSN)*TSN/WPTN, ceil(M/TSM)*TSM/WPTM), local (TSN/WPTN, TSM/WPTM).
// Any size: tile loads outside A or B store zeros into local memory, stores are bounds-checked;
// all work-items reach every barrier.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_regtile2d)
#ifndef TSM
#define TSM 64  // rows of C per work-group
#endif
#ifndef TSN
#define TSN 64  // columns of C per work-group
#endif
#ifndef TSK
#define TSK 16  // K-step: depth of the local tiles
#endif
#ifndef WPTM
#define WPTM 4  // rows of C per work-item
#endif
#ifndef WPTN
#define WPTN 4  // columns of C per work-item
#endif
#ifndef PAD
#define PAD 1  // floats of padding per local row, against bank conflicts
#endif
#define RTSM (TSM / WPTM)  // work-group height
#define RTSN (TSN / WPTN)  // work-group width

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void gemm_regtile2d(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C) {
  const int tidn = get_local_id(0);
  const int tidm = get_local_id(1);
  const int tid = tidm * RTSN + tidn;
  const int offm = get_group_id(1) * TSM;
  const int offn = get_group_id(0) * TSN;

  __local REAL Asub[TSK][TSM + PAD];
  __local REAL Bsub[TSK][TSN + PAD];

  REAL acc[WPTM][WPTN];
  for (int wm = 0; wm < WPTM; ++wm)
    for (int wn = 0; wn < WPTN; ++wn) acc[wm][wn] = REAL_ZERO;
  REAL breg[WPTN];

  for (int k0 = 0; k0 < K; k0 += TSK) {
    // Consecutive work-items read consecutive k of one row of A (coalesced) and store them down a
    // column of Asub.
    for (int i = tid; i < TSM * TSK; i += RTSM * RTSN) {
      const int m = i / TSK, k = i % TSK;
      const int gm = offm + m, gk = k0 + k;
      Asub[k][m] = load_or_zero(A, M, K, gm, gk);
    }
    for (int i = tid; i < TSK * TSN; i += RTSM * RTSN) {
      const int k = i / TSN, n = i % TSN;
      const int gk = k0 + k, gn = offn + n;
      Bsub[k][n] = load_or_zero(B, K, N, gk, gn);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TSK; ++k) {
      for (int wn = 0; wn < WPTN; ++wn) breg[wn] = Bsub[k][tidn + wn * RTSN];
      for (int wm = 0; wm < WPTM; ++wm) {
        const REAL a = Asub[k][tidm + wm * RTSM];
        for (int wn = 0; wn < WPTN; ++wn) acc[wm][wn] += a * breg[wn];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int wm = 0; wm < WPTM; ++wm) {
    const int row = offm + tidm + wm * RTSM;
    for (int wn = 0; wn < WPTN; ++wn) {
      const int col = offn + tidn + wn * RTSN;
      if (row < M && col < N) store_c(C, row * N + col, acc[wm][wn], alpha, beta);
    }
  }
}
#undef RTSM
#undef RTSN
#undef TSM
#undef TSN
#undef TSK
#undef WPTM
#undef WPTN
#undef PAD
#endif

// ---------------------------------------------------------------------------------------------
// best: the fastest kernel clgemm has, for large sizes on GPUs. Over regtile2d it adds:
//  - float4 loads from global memory (as one aligned load where lines allow: VEC_A, VEC_B and
//    VEC_C for C's stores, each set by the host when the leading dimension and the start offsets
//    are multiples of 4) and aligned float4 reads from local memory (one 128-bit load each);
//  - every shape in the kernel (see the file's header): each float4 of global memory runs along a
//    stored line, whichever way the operand is stored, and only the store into local memory
//    differs. A (NN): along K of row m, stored as four scalars into As[k..k+3][m]; A (TRANS_A,
//    stored K x M): along M of stored row k, one float4 into As[k][m..m+3]; B (NN): along N of row
//    k, one float4 into Bs[k][n..n+3]; B (TRANS_B, stored N x K): along K of stored row n, four
//    scalars into Bs[k..k+3][n]. The inner loop, which reads only local memory, is the same for
//    all four; TN, NT and TT load exactly as many float4s as NN, through the same two fetches.
//  - A stored transposed in local memory, each thread's TM x TN block split into float4 groups
//    strided across the tile, so a warp's local reads are broadcasts or conflict-free;
//  - double-buffered local memory with register prefetch: the next tile's global loads are issued
//    before the current tile's FMAs and stored to the other buffer after them, one barrier per
//    step;
//  - work-group order swizzled in bands of GROUP_M block rows, so blocks running together share
//    tiles of A and B in L2.
// Global (ceil(N/BN)*BN/TN, ceil(M/BM)*BM/TM), local (BN/TN, BM/TM).
// Any size, in one of two ways the host chooses (PAD_FROM):
//  - in the kernel: with EDGE = 1 (set unless M, N, K are multiples of BM, BN, BK) the K loop
//    starts before column 0 so that only its first tile is partial (zeros there), loads past the
//    bottom and right edges are clamped to the last row or column, and stores are bounds-checked;
//  - padding copies, for large sizes: copy_matrix copies A, B (and C where beta != 0) into
//    zero-padded matrices of tile multiples, the GEMM runs on those as an exact problem, and C is
//    copied back, in every repetition and timed with it. The host then also passes PADDED_M,
//    PADDED_N and PADDED_K, for the report only.
// With EDGE = 0 nothing is checked, which is only correct for exact multiples.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_best)
#ifndef BM
#define BM 64  // rows of C per work-group
#endif
#ifndef BN
#define BN 64  // columns of C per work-group
#endif
#ifndef BK
#define BK 16  // K-step (a multiple of 4)
#endif
#ifndef TM
#define TM 4  // rows of C per work-item (a multiple of 4)
#endif
#ifndef TN
#define TN 4  // columns of C per work-item (a multiple of 4)
#endif
#ifndef PADA
#define PADA 4  // floats of padding per row of the transposed A tile (a multiple of 4)
#endif
#ifndef PADB
#define PADB 4  // floats of padding per row of the B tile (a multiple of 4)
#endif
#ifndef GROUP_M
#define GROUP_M 8  // block rows per band of the swizzled work-group order (1: no swizzle)
#endif
#ifndef PAD_FROM
#define PAD_FROM 4000  // padding copies from this size up (read by the host, not the kernel)
#endif
#ifndef EDGE
#define EDGE 1  // edges handled in the kernel (set by the host)
#endif
#ifndef TRANS_A
#define TRANS_A 0  // A stored transposed, K x M (set by the host)
#endif
#ifndef TRANS_B
#define TRANS_B 0  // B stored transposed, N x K (set by the host)
#endif
#ifndef VEC_A
#define VEC_A \
  0  // A's float4 loads 16-byte aligned (lda, a_offset and K (M with TRANS_A) multiples of 4)
#endif
#ifndef VEC_B
#define VEC_B \
  0  // B's float4 loads 16-byte aligned (ldb, b_offset and N (K with TRANS_B) multiples of 4)
#endif
#ifndef OFFSETS
#define OFFSETS 0  // a_offset, b_offset, c_offset are read: some is not 0 (set by the host)
#endif
#ifndef EMPTY_K
#define EMPTY_K 0  // K = 0: C = beta * C, A and B never read (set by the host)
#endif
#ifndef VEC_C
#define VEC_C 0  // C's float4 stores 16-byte aligned (ldc, c_offset and N multiples of 4; by the host)
#endif

#define BEST_THREADS ((BM / TM) * (BN / TN))
#define BEST_LOADS_A (BM * BK / 4 / BEST_THREADS)  // float4 of A per work-item per tile
#define BEST_LOADS_B (BN * BK / 4 / BEST_THREADS)  // float4 of B per work-item per tile
#define BEST_GROUPS_M (TM / 4)                     // float4 groups of a work-item's rows
#define BEST_GROUPS_N (TN / 4)
#define BEST_STRIDE_M (BM / BEST_GROUPS_M)  // distance between a work-item's row groups
#define BEST_STRIDE_N (BN / BEST_GROUPS_N)

// Four consecutive floats along K at offset `at`, the first from column k of the K loop; zeros
// left of column 0, which only the first tile reaches (`first`). NN's A and TRANS_B's B.
// `aligned` is VEC_A or VEC_B, a constant: each call compiles to one of the two loads.
inline REAL4 best_fetch_along_k(__global const REAL* P, const int at, const int k,
                                const int first, const int aligned) {
#if EDGE
  if (first && k < 0)
    return (REAL4)(k >= 0 ? P[at] : REAL_ZERO, k + 1 >= 0 ? P[at + 1] : REAL_ZERO,
                   k + 2 >= 0 ? P[at + 2] : REAL_ZERO, k + 3 >= 0 ? P[at + 3] : REAL_ZERO);
#endif
  if (aligned) return *(__global const REAL4*)(P + at);
  return vload4(0, P + at);
}

// Four floats of the stored line k (along N or, for TRANS_A's A, along M), which starts at offset
// `at`, from column `col`; zeros above line 0, which only the first tile reaches. Columns past
// `count` (N or M) repeat the last one. NN's B and TRANS_A's A. With `aligned` and EDGE the host
// has clamped col to count - 4 already (aligned lines hold whole float4s).
inline REAL4 best_fetch_across(__global const REAL* P, const int at, const int k, const int col,
                               const int count, const int first, const int aligned) {
#if EDGE
  if (first && k < 0) return (REAL4)(REAL_ZERO);
  if (!aligned)
    return (REAL4)(P[at + min(col, count - 1)], P[at + min(col + 1, count - 1)],
                   P[at + min(col + 2, count - 1)], P[at + min(col + 3, count - 1)]);
#endif
  if (aligned) return *(__global const REAL4*)(P + at + col);
  return vload4(0, P + at + col);
}

// The first column of a float4 group along a line of `count` (`col` itself, or with EDGE the
// last whole group where aligned, each column clamped in best_fetch_across otherwise).
inline int best_group_col(const int col, const int count, const int aligned) {
#if EDGE
  if (aligned) return min(col, count - 4);
#endif
  return col;
}

// The stored line of a float4 along K: its row (NN's A: m, TRANS_B's B: n), clamped at the edge.
inline int best_line(const int line, const int count) {
#if EDGE
  return min(line, count - 1);
#else
  return line;
#endif
}

__kernel __attribute__((reqd_work_group_size(BN / TN, BM / TM, 1))) void gemm_best(
    const int M, const int N, const int K, const REAL alpha, const REAL beta,
    __global const REAL* restrict A, __global const REAL* restrict B, __global REAL* C,
    const int lda, const int ldb, const int ldc, const int a_offset, const int b_offset,
    const int c_offset) {
  // Each matrix starts its offset (in elements) into its buffer, as in BLAS libraries on OpenCL
  // buffers; VEC_A, VEC_B and VEC_C count it in their alignment. Compiled only where an offset is
  // not 0 (OFFSETS): the three additions alone cost 1% at 8192 on the H100 (docs/performance.md).
#if OFFSETS
  A += a_offset;
  B += b_offset;
  C += c_offset;
#endif
  // Aligned to a REAL4 (16 bytes, 32 with FP64), with rows of a multiple of 4 elements (PADA,
  // PADB), so the REAL4 reads below may be single 128-bit (FP64: 256-bit) loads: vload4 promises
  // only the element's alignment, and NVIDIA's compiler then splits every read into four (32
  // against 47 TFLOP/s at 128x128, docs/performance.md).
  __local REAL As[2][BK][BM + PADA] __attribute__((aligned(sizeof(REAL4))));  // As[k][m]: A^T
  __local REAL Bs[2][BK][BN + PADB] __attribute__((aligned(sizeof(REAL4))));

  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int tid = ty * (BN / TN) + tx;

  const int2 block = swizzled_block(GROUP_M);
  const int row0 = block.x * BM;
  const int col0 = block.y * BN;

  REAL4 a_next[BEST_LOADS_A];
  REAL4 b_next[BEST_LOADS_B];
  REAL acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = REAL_ZERO;

  const int tiles = (K + BK - 1) / BK;

  // Where each of the work-item's loads of tile 0 starts. With EDGE, the K loop starts at
  // k_start = K - tiles * BK (<= 0), so that only tile 0 reaches outside A and B along K, and
  // rows of A and columns of B past the bottom and right edges are clamped to the last ones: they
  // feed only rows and columns of the block that are never stored. Every load after tile 0 is then
  // the EDGE = 0 load, unchecked; checks inside the loop cost 25% at 1024 (docs/performance.md).
  // Load i of a tile covers float4 idx = tid + i * BEST_THREADS: along K, BK / 4 of them per
  // line of the tile; across, BM / 4 (A) or BN / 4 (B) per line k. BEST_A_K / BEST_B_K: the
  // K-loop column of its first float in tile 0; a_step / b_step: how far each next tile's is.
  const int k_start = EDGE ? K - tiles * BK : 0;
  int a_at[BEST_LOADS_A];   // offset in A (TRANS_A: of the stored line)
  int b_at[BEST_LOADS_B];   // offset in B (NN: of the stored line)
  int a_col[BEST_LOADS_A];  // TRANS_A: the column along M
  int b_col[BEST_LOADS_B];  // NN: the column along N
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_A; ++i) {
    const int idx = tid + i * BEST_THREADS;
#if TRANS_A
    a_at[i] = (k_start + idx / (BM / 4)) * lda;
    a_col[i] = best_group_col(row0 + (idx % (BM / 4)) * 4, M, VEC_A);
#else
    a_at[i] = best_line(row0 + idx / (BK / 4), M) * lda + k_start + (idx % (BK / 4)) * 4;
    a_col[i] = 0;
#endif
  }
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_B; ++i) {
    const int idx = tid + i * BEST_THREADS;
#if TRANS_B
    b_at[i] = best_line(col0 + idx / (BK / 4), N) * ldb + k_start + (idx % (BK / 4)) * 4;
    b_col[i] = 0;
#else
    b_at[i] = (k_start + idx / (BN / 4)) * ldb;
    b_col[i] = best_group_col(col0 + (idx % (BN / 4)) * 4, N, VEC_B);
#endif
  }
#if TRANS_A
  const int a_step = BK * lda;
#define BEST_A_K(idx) (k_start + (idx) / (BM / 4))
#else
  const int a_step = BK;
#define BEST_A_K(idx) (k_start + ((idx) % (BK / 4)) * 4)
#endif
#if TRANS_B
  const int b_step = BK;
#define BEST_B_K(idx) (k_start + ((idx) % (BK / 4)) * 4)
#else
  const int b_step = BK * ldb;
#define BEST_B_K(idx) (k_start + (idx) / (BN / 4))
#endif

  // Global -> registers for tile t. The loops are unrolled so a_next and b_next stay in
  // registers; rolled, pocl 3.1 computed wrong results for some shapes (loads of A and B per
  // work-item differing, e.g. BM=128 BN=64 TM=8 TN=4) that oclgrind finds no fault in.
#if TRANS_A
#define BEST_FETCH_A(i, t, first)                                                                  \
  best_fetch_across(A, a_at[i] + (t)*a_step, BEST_A_K(tid + (i)*BEST_THREADS), a_col[i], M, first, \
                    VEC_A)
#else
#define BEST_FETCH_A(i, t, first) \
  best_fetch_along_k(A, a_at[i] + (t)*a_step, BEST_A_K(tid + (i)*BEST_THREADS), first, VEC_A)
#endif
#if TRANS_B
#define BEST_FETCH_B(i, t, first) \
  best_fetch_along_k(B, b_at[i] + (t)*b_step, BEST_B_K(tid + (i)*BEST_THREADS), first, VEC_B)
#else
#define BEST_FETCH_B(i, t, first)                                                                  \
  best_fetch_across(B, b_at[i] + (t)*b_step, BEST_B_K(tid + (i)*BEST_THREADS), b_col[i], N, first, \
                    VEC_B)
#endif
#define BEST_FETCH(t, first)                                                                      \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_A; ++i) a_next[i] = BEST_FETCH_A(i, t, first); \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_B; ++i) b_next[i] = BEST_FETCH_B(i, t, first);
  // Registers -> local buffer `buf`: A transposed on the way (As[k][m]); a float4 along K goes in
  // as four scalars, one along M or N as one float4.
#if TRANS_A
#define BEST_STORE_A(buf, idx) \
  *(__local REAL4*)&As[buf][(idx) / (BM / 4)][((idx) % (BM / 4)) * 4] = a_next[i];
#else
#define BEST_STORE_A(buf, idx)                                  \
  {                                                             \
    const int m = (idx) / (BK / 4), k = ((idx) % (BK / 4)) * 4; \
    As[buf][k + 0][m] = a_next[i].x;                            \
    As[buf][k + 1][m] = a_next[i].y;                            \
    As[buf][k + 2][m] = a_next[i].z;                            \
    As[buf][k + 3][m] = a_next[i].w;                            \
  }
#endif
#if TRANS_B
#define BEST_STORE_B(buf, idx)                                  \
  {                                                             \
    const int n = (idx) / (BK / 4), k = ((idx) % (BK / 4)) * 4; \
    Bs[buf][k + 0][n] = b_next[i].x;                            \
    Bs[buf][k + 1][n] = b_next[i].y;                            \
    Bs[buf][k + 2][n] = b_next[i].z;                            \
    Bs[buf][k + 3][n] = b_next[i].w;                            \
  }
#else
#define BEST_STORE_B(buf, idx) \
  *(__local REAL4*)&Bs[buf][(idx) / (BN / 4)][((idx) % (BN / 4)) * 4] = b_next[i];
#endif
#define BEST_STORE(buf)                                                                 \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_A; ++i) {                            \
    BEST_STORE_A(buf, tid + i * BEST_THREADS)                                           \
  }                                                                                     \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_B; ++i) {                            \
    BEST_STORE_B(buf, tid + i * BEST_THREADS)                                           \
  }

  // K = 0 (EMPTY_K: the library's calls with alpha = 0 or k = 0, where C = beta * C): no tile, and
  // A and B are never read, as BLAS promises. A preprocessor switch, not a test of `tiles`: the
  // branch around the first tile cost 3% at 8192 on the H100 (docs/performance.md).
#if !EMPTY_K
  BEST_FETCH(0, 1)
  BEST_STORE(0)
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      BEST_FETCH(t + 1, 0)
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      REAL a[TM], b[TN];
      for (int g = 0; g < BEST_GROUPS_M; ++g) {
        const REAL4 v = *(__local const REAL4*)&As[cur][k][g * BEST_STRIDE_M + ty * 4];
        a[g * 4 + 0] = v.x;
        a[g * 4 + 1] = v.y;
        a[g * 4 + 2] = v.z;
        a[g * 4 + 3] = v.w;
      }
      for (int g = 0; g < BEST_GROUPS_N; ++g) {
        const REAL4 v = *(__local const REAL4*)&Bs[cur][k][g * BEST_STRIDE_N + tx * 4];
        b[g * 4 + 0] = v.x;
        b[g * 4 + 1] = v.y;
        b[g * 4 + 2] = v.z;
        b[g * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    if (t + 1 < tiles) {
      BEST_STORE(cur ^ 1)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#undef BEST_FETCH
#undef BEST_STORE
#undef BEST_FETCH_A
#undef BEST_FETCH_B
#undef BEST_STORE_A
#undef BEST_STORE_B
#undef BEST_A_K
#undef BEST_B_K

  // Whether a group of four columns can be stored as one float4: C's float4s must be aligned
  // (VEC_C) and, at the edges, all four columns inside C. Chosen by the preprocessor, because a
  // constant operand of && draws a compiler warning that NVIDIA's driver prints on every build.
#if !VEC_C
#define BEST_VEC_STORE(col) 0
#elif EDGE
#define BEST_VEC_STORE(col) ((col) + 3 < N)
#else
#define BEST_VEC_STORE(col) 1
#endif
  // Each work-item's element (i, j) sits in row group i/4 and column group j/4.
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + (i / 4) * BEST_STRIDE_M + ty * 4 + i % 4;
#if EDGE
    if (row >= M) continue;
#endif
    for (int gj = 0; gj < BEST_GROUPS_N; ++gj) {
      const int col = col0 + gj * BEST_STRIDE_N + tx * 4;
      if (BEST_VEC_STORE(col)) {
        __global REAL4* c4 = (__global REAL4*)(C + row * ldc + col);
        REAL4 r = alpha * (REAL4)(acc[i][gj * 4], acc[i][gj * 4 + 1], acc[i][gj * 4 + 2],
                                  acc[i][gj * 4 + 3]);
        if (beta != REAL_ZERO) r += beta * *c4;
        *c4 = r;
      } else {
        for (int q = 0; q < 4; ++q)
          if (!EDGE || col + q < N)
            store_c(C, row * ldc + col + q, acc[i][gj * 4 + q], alpha, beta);
      }
    }
  }
}
#undef BEST_VEC_STORE
#undef BEST_THREADS
#undef BEST_LOADS_A
#undef BEST_LOADS_B
#undef BEST_GROUPS_M
#undef BEST_GROUPS_N
#undef BEST_STRIDE_M
#undef BEST_STRIDE_N
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
#undef PADA
#undef PADB
#undef GROUP_M
#undef PAD_FROM
#undef EDGE
#undef VEC_A
#undef VEC_B
#undef VEC_C
#undef OFFSETS
#undef EMPTY_K
#undef TRANS_A
#undef TRANS_B
#endif

// =============================================================================================
// 3. Device peak probes (portable)

// ---------------------------------------------------------------------------------------------
// Device peak probes for `clgemm peak`; not GEMM variants, so not in the registry.
// peak_fma measures FP32 multiply-add throughput the way clpeak does: chains of dependent mad()s
// with a trip count the compiler cannot see, so nothing is folded away and loop overhead is small.
// Four independent chains per work-item, PEAK_WIDTH lanes each, 128 mads per loop trip: a GPU
// hides the mad latency with its many work-items, but a CPU runs a work-item's loop on one core
// and needs the independent chains to keep its FMA units busy.
// With PEAK_DOUBLE = 1 the same chains run in double: the FP64 peak (cl_khr_fp64; the host asks
// only of devices that report FP64).
// Global (items), local (any); out holds PEAK_WIDTH values (floats, or doubles) per work-item.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_peak_fma)
#ifndef PEAK_WIDTH
#define PEAK_WIDTH 4  // lanes per chain: 1, 2, 4, 8 or 16
#endif
#ifndef PEAK_DOUBLE
#define PEAK_DOUBLE 0  // 1: FP64 multiply-adds
#endif
#if PEAK_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define PEAK_SCALAR double
#else
#define PEAK_SCALAR float
#endif
#if PEAK_WIDTH == 1
#define PEAK_FLOAT PEAK_SCALAR
#else
#define PEAK_CAT(a, b) a##b
#define PEAK_VECTOR(a, b) PEAK_CAT(a, b)
#define PEAK_FLOAT PEAK_VECTOR(PEAK_SCALAR, PEAK_WIDTH)
#endif
#define PEAK_MAD8        \
  x0 = mad(y0, x0, y0);  \
  x1 = mad(y1, x1, y1);  \
  x2 = mad(y2, x2, y2);  \
  x3 = mad(y3, x3, y3);  \
  y0 = mad(x0, y0, x0);  \
  y1 = mad(x1, y1, x1);  \
  y2 = mad(x2, y2, x2);  \
  y3 = mad(x3, y3, x3);
#define PEAK_MAD32 PEAK_MAD8 PEAK_MAD8 PEAK_MAD8 PEAK_MAD8

__kernel void peak_fma(__global float* out, const float seed, const int iterations) {
  const PEAK_SCALAR s = seed * (PEAK_SCALAR)get_local_id(0);
  PEAK_FLOAT x0 = (PEAK_FLOAT)(s), x1 = (PEAK_FLOAT)(s + 1), x2 = (PEAK_FLOAT)(s + 2),
             x3 = (PEAK_FLOAT)(s + 3);
  PEAK_FLOAT y0 = (PEAK_FLOAT)((PEAK_SCALAR)seed), y1 = y0, y2 = y0, y3 = y0;
  for (int i = 0; i < iterations; ++i) {
    PEAK_MAD32 PEAK_MAD32 PEAK_MAD32 PEAK_MAD32
  }
  // Storing every lane of every chain keeps them all alive.
  ((__global PEAK_FLOAT*)out)[get_global_id(0)] = (x0 + y0) + (x1 + y1) + (x2 + y2) + (x3 + y3);
}
#undef PEAK_MAD32
#undef PEAK_MAD8
#undef PEAK_FLOAT
#undef PEAK_SCALAR
#undef PEAK_DOUBLE
#undef PEAK_VECTOR
#undef PEAK_CAT
#undef PEAK_WIDTH
#endif

// peak_read measures global memory read bandwidth. On a GPU each work-item sums float4s strided
// by the global size, so neighbouring work-items read neighbouring addresses (coalesced); on a
// CPU (PEAK_CONTIGUOUS=1) each work-item runs on one core and reads its own contiguous block, which
// the core's prefetchers stream. The buffer, far larger than any cache, is read once per launch.
// Global (items), local (any); `in` holds items * per_item float4s.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_peak_read)
#ifndef PEAK_CONTIGUOUS
#define PEAK_CONTIGUOUS 0  // 1: a contiguous block per work-item (CPUs); 0: strided (GPUs)
#endif
__kernel void peak_read(__global const float4* restrict in, __global float* restrict out,
                        const int per_item) {
  const int gid = get_global_id(0);
  const int start = PEAK_CONTIGUOUS ? gid * per_item : gid;
  const int stride = PEAK_CONTIGUOUS ? 1 : (int)get_global_size(0);
  float4 sum = (float4)(0.0f);
  for (int j = 0; j < per_item; ++j) sum += in[start + j * stride];
  out[gid] = sum.x + sum.y + sum.z + sum.w;
}
#undef PEAK_CONTIGUOUS
#endif

// =============================================================================================
// 4. NVIDIA only: inline PTX, compiled only when the host names the kernel

// ---------------------------------------------------------------------------------------------
// simt-async: FP32 on the CUDA cores, as best computes it, fed by asynchronous copies (cp.async,
// compute capability 8.0 and up). best's tiles reach local memory through registers: a work-item
// loads the next tile's float4s into registers before the current tile's FMAs and stores them
// after, so those registers are held through the FMA loop, and only two tiles can be in flight.
// Here cp.async copies global memory straight into local memory, STAGES buffers deep: no register
// holds a prefetched value, and STAGES - 1 tiles are on their way while one is multiplied.
//  - A's tile goes into local memory transposed (As[k][m], as in best) by 4-byte copies, one per
//    element: consecutive work-items copy consecutive k of a row, so a warp reads 32-byte pieces
//    of 32 / BK rows of A, and with (BM + PADA) % 32 == 4 its 32 stores hit 32 banks at BK = 8
//    (two to a bank at BK = 16).
//    B's tile is copied as it is stored, a 16-byte copy per float4 (cp.async.cg: L2 only).
//  - A work-item's TM x TN block is split into float4 groups strided across the tile (best's
//    layout): per k it reads TM/4 float4s of A (broadcasts across a warp) and TN/4 of B
//    (consecutive float4s across a warp), one 128-bit load each.
//  - The register fragments are double-buffered: while the FMAs of k run, the reads of k + 1
//    are in flight, and the reads of the next tile's first k follow its barrier straight away,
//    during the current tile's last FMAs.
//  - One barrier per K-step, at its last k: each work-item waits for its own copies of the next
//    tile (cp.async.wait_group), and the barrier makes every work-item's copies visible and says
//    that every work-item has read its last fragments of this tile. The copies that refill this
//    tile's buffer (tile t + STAGES) are issued only at the next K-step's second k, behind the
//    first fragment reads: issued straight after the barrier, the copies queued ahead of those
//    reads and cost 5-9% (docs/performance.md).
// The problem is packed NN. Sizes that are not multiples of BM, BN, BK take one of two ways, the
// host's choice: with EDGE (M and N at least a block, below PAD_FROM, or PAD_FROM_UNALIGNED where
// N is not a multiple of 4) the last block row and column move back inside C, over the blocks
// before them, and store only what those do not, so every copy lies inside A and B but those of
// a partial last K-step, whose copies from K on write zeros (cp.async's source size 0; A by its
// 4-byte copies, B by 16-byte ones, or 4-byte ones where its lines do not start on 16 bytes);
// otherwise padding copies (copy_matrix, timed with the GEMM) make the problem an exact one. At
// 1000^3 and 1023^3 the copies' launches took 0.6-0.7x of the speed; from about 4000 (2500 with
// B's 4-byte copies) the 16-byte copies of A^T that padding allows win (docs/performance.md).
// The last wave (SPLIT, the host's choice): where the tiles do not fill the device's last round
// of work-groups (289 blocks for 264 places at 2049^3 on the H100: a second round of 25), the
// work-groups from SK_WHOLE on each take one of SK_PARTS ranges of K-steps of a later tile, so
// that every place gets work. Each part writes its sums to a scratch slot, counts itself in
// (atomic), and the one that comes last adds the parts' sums in their order (the result does not
// depend on which came last), stores C and sets the count back to 0 for the next launch. Nothing
// waits for another work-group, so nothing hangs whatever the order they run in. With SK_APART
// the whole tiles run in a launch of their own before this one, built without SPLIT (WHOLE_LINE:
// a line of work-groups, a whole tile each), and this launch's line holds only the parts: the
// split build's code costs the whole tiles about 0.6% (128 registers against 124 for 128 x 128
// blocks on the H200), the launches' boundary about 4% of a round (the host's rule, SPLIT_APART:
// 8 rounds of whole tiles or more; docs/performance.md, 2026-11-29, session 18).
// Edges of a few rows or columns (PEEL_M, PEEL_N, the host's choice, up to PEEL_MAX): a block row
// moved back for M % BM = 1 computes a whole block to store one row, and at 2049^3 the 33 such
// blocks made a second round of tiles (at 4097^3, padded, a fifth). There the launch covers
// only the blocks inside C, and the last rows (every column) and the last columns (the rows above
// them) are computed by gemm_edge_strip, a helper after it, or with STRIPS_IN_GEMM by work-groups
// of this launch (es_outputs, below).
// SA_PTX = 0 replaces the PTX (copies, commit, wait, fence) by plain OpenCL, which makes this
// portable OpenCL C (tests run the pipeline's indexing so on the CPU); the registry runs it only
// as SA_PTX = 1, on NVIDIA GPUs.
// Global (N/TN, M/TM), local (BN/TN, BM/TM); with SPLIT (SK_WHOLE + parts * SK_PARTS, or with
// SK_APART parts * SK_PARTS) work-groups along dimension 0, with WHOLE_LINE one per tile.
#if defined(KERNEL_gemm_simt_async)
#ifndef BM
#define BM 128  // rows of C per work-group
#endif
#ifndef BN
#define BN 128  // columns of C per work-group
#endif
#ifndef BK
#define BK 16  // K-step (even: the fragments alternate between two register sets)
#endif
#ifndef TM
#define TM 8  // rows of C per work-item (a multiple of 4)
#endif
#ifndef TN
#define TN 8  // columns of C per work-item (a multiple of 4)
#endif
#ifndef STAGES
#define STAGES 2  // local buffers: 2 to 8 (STAGES - 1 tiles copied ahead of the one multiplied)
#endif
#ifndef PADA
#define PADA 4  // floats of padding per row of the transposed A tile (a multiple of 4)
#endif
#ifndef PADB
#define PADB 4  // floats of padding per row of the B tile (a multiple of 4)
#endif
#ifndef GROUP_M
#define GROUP_M 8  // block rows per band of the swizzled work-group order
#endif
#ifndef A_KM
#define A_KM 0  // A given transposed (K x M, lines of M floats; the host's choice): 16-byte copies
#endif
#ifndef AT_FROM
#define AT_FROM 3000  // NN: A transposed (A_KM) from this size up (read by the host, not the kernel)
#endif
#ifndef MIN_WG_PER_CU
#define MIN_WG_PER_CU 0  // ptxas fits this many work-groups per SM (.minnctapersm; 0: its choice)
#endif
#ifndef PAD_FROM
#define PAD_FROM 4000  // other sizes: padding copies from this size up (read by the host)
#endif
#ifndef PAD_FROM_UNALIGNED
#define PAD_FROM_UNALIGNED 2500  // ... where N is not a multiple of 4 (read by the host)
#endif
#ifndef ALIGN_B_FROM
#define ALIGN_B_FROM 2200  // ... below it: B copied into 128-byte lines from this size up (host)
#endif
#ifndef PAD_PEELED_FROM
#define PAD_PEELED_FROM 1400  // ... padded from here up where the strips take C's edges (host)
#endif
#ifndef EDGE
#define EDGE 0  // M, N, K not multiples of BM, BN, BK (set by the host)
#endif
#ifndef VEC_N
#define VEC_N 1  // B's lines start on 16 bytes (N a multiple of 4, or B_LD), and C's without B_LD
#endif
#ifndef SPLIT_SLOTS
#define SPLIT_SLOTS 0  // work-groups the device runs at once (read by the host: 0 from the device)
#endif
#ifndef SPLIT_APART
#define SPLIT_APART 8  // a split's whole tiles apart from this many rounds (read by the host)
#endif
#ifndef SPLIT
#define SPLIT 0  // the last wave's tiles split along K (set by the host)
#endif
#ifndef SK_WHOLE
#define SK_WHOLE 0  // with SPLIT: work-groups that compute whole tiles (set by the host)
#endif
#ifndef SK_PARTS
#define SK_PARTS 1  // with SPLIT: parts of K of each later tile (set by the host)
#endif
#ifndef SK_FLOAT_SUMS
#define SK_FLOAT_SUMS 0  // with SPLIT: the parts' sums stored float by float (set by the host)
#endif
#ifndef SK_APART
#define SK_APART 0  // with SPLIT: the SK_WHOLE whole tiles launched before (set by the host)
#endif
#ifndef WHOLE_LINE
#define WHOLE_LINE 0  // a line of work-groups, tile i the i-th's: SK_APART's whole tiles (host)
#endif
#if WHOLE_LINE && SPLIT
#error "WHOLE_LINE is the plain build of a split's whole tiles: not with SPLIT"
#endif
// With SPLIT: work-group `g`'s place in the split's line (with SK_APART the whole tiles'
// work-groups ran in a launch before), then its part of K (-1: a whole tile) and its tile, in the
// line's order.
#define SA_LINE_INDEX(g) ((g) + (SK_APART ? SK_WHOLE : 0))
#define SA_PART_OF(g) ((g) < SK_WHOLE ? -1 : ((g)-SK_WHOLE) % SK_PARTS)
#define SA_TILE_OF(g) ((g) < SK_WHOLE ? (g) : SK_WHOLE + ((g)-SK_WHOLE) / SK_PARTS)
#ifndef PEEL_MAX
#define PEEL_MAX 8  // edges of at most this many rows or columns: gemm_edge_strip (host)
#endif
#ifndef MOVE_BACK_FILL
#define MOVE_BACK_FILL 95  // edges moved back where the tiles then fill one round this % (host)
#endif
#ifndef MOVE_BACK_DEPTH
#define MOVE_BACK_DEPTH 4  // over several rounds, edges this deep or more moved back (host)
#endif
#ifndef MOVE_BACK_ROUNDS
#define MOVE_BACK_ROUNDS 4  // ... where the tiles moved back make at most this many rounds (host)
#endif
#ifndef PEEL_M
#define PEEL_M 0  // the last block row's rows left to gemm_edge_strip: no block for them (host)
#endif
#ifndef PEEL_N
#define PEEL_N 0  // the last block column's columns left to gemm_edge_strip (set by the host)
#endif
#ifndef FUSE_STRIPS
#define FUSE_STRIPS 1  // edge strips in the GEMM's launch where the host finds it pays (0: after)
#endif
#ifndef STRIPS_OWN_MAX
#define STRIPS_OWN_MAX 256  // over several rounds, the strips' own work-groups at most (host)
#endif
#ifndef STRIPS_IN_GEMM
#define STRIPS_IN_GEMM 0  // the GEMM's launch computes the edge strips too (set by the host)
#endif
#ifndef C_LD
#define C_LD 0  // padded, C written in the caller's lines this many floats apart (host; 0: N apart)
#endif
#ifndef B_LD
#define B_LD 0  // edges, N not a multiple of 4: B read from a copy with lines this far apart (host)
#endif
#ifndef LOCAL_SPARE
#define LOCAL_SPARE 0  // floats more per row of both local tiles, a multiple of 32 (the host's)
#endif
#if LOCAL_SPARE % 32 != 0
#error "LOCAL_SPARE: a multiple of 32 floats, so that every row keeps its banks"
#endif
// B's lines: a copy's, a multiple of 32 floats apart, where the host realigns an unaligned B for
// the edges path (B_LD; columns N ... B_LD - 1 of it zeros), else N apart.
#define SA_LDB (B_LD > 0 ? B_LD : N)
#if B_LD && (!EDGE || !VEC_N || B_LD % 4 != 0)
#error "B_LD: the edges path's 16-byte copies of B (EDGE, VEC_N), lines a multiple of 4 floats"
#endif
// C's lines: the caller's where a padded problem writes C in place (every block and strip inside
// the caller's C, so no copy of C in or out: 0.06 ms of 2817^3's 1.0 on the H200), else N apart.
#define SA_LDC (C_LD > 0 ? C_LD : N)
#if EDGE && A_KM
#error "simt-async reads A^T (A_KM) for exact problems only"
#endif
#ifndef SA_PTX
#define SA_PTX 1  // cp.async through inline PTX (0: plain copies, for tests on other devices)
#endif

#define SA_THREADS ((BM / TM) * (BN / TN))
#if STRIPS_IN_GEMM && (SA_THREADS % 16 != 0 || STAGES * BK * (BM + PADA) < 8 * SA_THREADS)
#error "STRIPS_IN_GEMM: threads a multiple of 16, A's buffers 8 floats per thread (the host's rule)"
#endif
#if A_KM
#define SA_COPIES_A (BM * BK / 4 / SA_THREADS)  // 16-byte copies of A^T per work-item and tile
#else
#define SA_COPIES_A (BM * BK / SA_THREADS)  // 4-byte copies of A per work-item and tile
#endif
#define SA_COPIES_B (BN * BK / 4 / SA_THREADS)  // 16-byte copies of B per work-item and tile
#define SA_GROUPS_M (TM / 4)                    // float4 groups of a work-item's rows
#define SA_GROUPS_N (TN / 4)
#define SA_STRIDE_M (BM / SA_GROUPS_M)  // distance between a work-item's row groups
#define SA_STRIDE_N (BN / SA_GROUPS_N)

// cp.async.wait_group takes its count as an immediate: STAGES - 1 before the first tile, STAGES
// - 2 in the loop, spelt out.
#define SA_STR2(n) #n
#define SA_STR(n) SA_STR2(n)
#if STAGES == 2
#define SA_FIRST 1
#define SA_NEXT 0
#elif STAGES == 3
#define SA_FIRST 2
#define SA_NEXT 1
#elif STAGES == 4
#define SA_FIRST 3
#define SA_NEXT 2
#elif STAGES == 5
#define SA_FIRST 4
#define SA_NEXT 3
#elif STAGES == 6
#define SA_FIRST 5
#define SA_NEXT 4
#elif STAGES == 7
#define SA_FIRST 6
#define SA_NEXT 5
#elif STAGES == 8
#define SA_FIRST 7
#define SA_NEXT 6
#endif

// One float from global to local memory, asynchronously (cp.async.ca: the 4-byte form).
inline void sa_copy4(__local float* dst, __global const float* src) {
#if SA_PTX
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((uint)(ulong)dst), "l"(src)
               : "memory");
#else
  *dst = *src;
#endif
}
// The same where `inside`, else zeros: a source size of 0 bytes writes zeros and reads nothing
// (src is still kept an address inside the buffer).
inline void sa_copy4_or_zero(__local float* dst, __global const float* src, const bool inside) {
#if SA_PTX
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"((uint)(ulong)dst), "l"(src),
               "r"(inside ? 4u : 0u)
               : "memory");
#else
  *dst = inside ? *src : 0.0f;
#endif
}
// A float4, asynchronously, through L2 only (cp.async.cg takes 16 bytes).
inline void sa_copy16(__local float* dst, __global const float* src) {
#if SA_PTX
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((uint)(ulong)dst), "l"(src)
               : "memory");
#else
  *(__local float4*)dst = *(__global const float4*)src;
#endif
}
inline void sa_copy16_or_zero(__local float* dst, __global const float* src, const bool inside) {
#if SA_PTX
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"((uint)(ulong)dst), "l"(src),
               "r"(inside ? 16u : 0u)
               : "memory");
#else
  *(__local float4*)dst = inside ? *(__global const float4*)src : (float4)(0.0f);
#endif
}
// SPLIT: orders this work-item's writes before, or its reads after, another work-group's (the
// count of parts): a fence at the GPU's scope.
inline void sa_fence_gpu() {
#if SA_PTX
  asm volatile("fence.acq_rel.gpu;\n" ::: "memory");
#else
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
}
// SPLIT with SK_FLOAT_SUMS: this work-group's index read again after the K-loop (volatile, so
// not the value from before it kept through the loop).
inline int sa_group_again() {
#if SA_PTX
  int group;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(group));
  return group;
#else
  return get_group_id(0);
#endif
}
// SPLIT: another work-group's sums, from L2 (ld.global.cg: never a stale line of L1).
inline float4 sa_load_l2(__global const float* p) {
#if SA_PTX
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)
               : "memory");
  return v;
#else
  return *(__global const float4*)p;
#endif
}
inline float sa_load_l2_float(__global const float* p) {
#if SA_PTX
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];\n" : "=f"(v) : "l"(p) : "memory");
  return v;
#else
  return *p;
#endif
}
// SK_FLOAT_SUMS: four of them `stride` floats apart, one load each.
inline float4 sa_load4_l2(__global const float* p, const int stride) {
  return (float4)(sa_load_l2_float(p), sa_load_l2_float(p + stride),
                  sa_load_l2_float(p + 2 * stride), sa_load_l2_float(p + 3 * stride));
}
// C's float4 at (row, col) = alpha * v (+ beta * C), C's lines ldc floats apart: one 16-byte store
// where they start on 16 bytes, else element by element; with EDGE only from the block's own start
// (own_row0, own_col0; with VEC_N a moved block moves by a multiple of 4 columns, so a float4 is
// its own or not), and with B_LD only before column n (there a last block column moved back inside
// N rounded up to 4, off 16 bytes in C's lines, reaches past N).
inline void sa_store_c4(__global float* C, const int ldc, const int row, const int col,
                        const float4 v, const float alpha, const float beta, const int own_row0,
                        const int own_col0, const int n) {
#if EDGE && !VEC_N
  if (row < own_row0) return;
  if (col >= own_col0) store_c(C, row * ldc + col, v.x, alpha, beta);
  if (col + 1 >= own_col0) store_c(C, row * ldc + col + 1, v.y, alpha, beta);
  if (col + 2 >= own_col0) store_c(C, row * ldc + col + 2, v.z, alpha, beta);
  if (col + 3 >= own_col0) store_c(C, row * ldc + col + 3, v.w, alpha, beta);
#elif B_LD
  if (row < own_row0 || col < own_col0) return;
  if (col < n) store_c(C, row * ldc + col, v.x, alpha, beta);
  if (col + 1 < n) store_c(C, row * ldc + col + 1, v.y, alpha, beta);
  if (col + 2 < n) store_c(C, row * ldc + col + 2, v.z, alpha, beta);
  if (col + 3 < n) store_c(C, row * ldc + col + 3, v.w, alpha, beta);
#elif C_LD % 4 != 0
  // The caller's lines, off 16 bytes (padded problems only, never EDGE).
  store_c(C, row * ldc + col, v.x, alpha, beta);
  store_c(C, row * ldc + col + 1, v.y, alpha, beta);
  store_c(C, row * ldc + col + 2, v.z, alpha, beta);
  store_c(C, row * ldc + col + 3, v.w, alpha, beta);
#else
#if EDGE
  if (row < own_row0 || col < own_col0) return;
#endif
  __global float4* c4 = (__global float4*)(C + row * ldc + col);
  float4 r = alpha * v;
  if (beta != 0.0f) r += beta * *c4;
  *c4 = r;
#endif
}
// The copies started since the last commit form a group.
inline void sa_commit() {
#if SA_PTX
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most STAGES - 1 (`first`) or STAGES - 2 groups of this work-item's copies are
// still running.
inline void sa_wait(const int first) {
#if SA_PTX
  if (first)
    asm volatile("cp.async.wait_group " SA_STR(SA_FIRST) ";\n" ::: "memory");
  else
    asm volatile("cp.async.wait_group " SA_STR(SA_NEXT) ";\n" ::: "memory");
#endif
}

// The edges simt-async leaves (PEEL_M, PEEL_N): rows m0 ... M - 1 of every column, then columns
// n0 ... N - 1 of the rows above them, of A, B and C as the GEMM reads them (lines lda, ldb, ldc
// apart: the padded copies where the host makes them; with A_KM A as A^T, K x M). Strips a few
// rows tall or a few columns wide, whose outputs are too few for one work-item each to fill the
// GPU over all of K. A group takes 16 lines across a strip (columns of the rows below, rows of
// the columns to the right) and up to ES_DEPTH of its rows or columns: each work-item reads its
// own line of B (or A) once for all of them, and the strip's few lines of A (or B), the same for
// every work-item, from L1. (A group of 16 outputs of one row read B once per row: at 4104^3 on
// the H100 the eight rows and columns took 0.46 ms.) Loaded one at a time, the loads' latency set
// the pace (111 us for the 2 x 2049 outputs of 2049^3 on the H100, docs/performance.md): 16
// values of the own line are loaded before their FMAs.
#define ES_LINES 16
#define ES_DEPTH 8
#define ES_BATCH 16
// The groups of a strip `lines` across and `depth` deep.
inline int es_strip_groups(const int lines, const int depth) {
  return (lines + ES_LINES - 1) / ES_LINES * ((depth + ES_DEPTH - 1) / ES_DEPTH);
}
// The groups of both strips: the rows below m0 (N lines, M - m0 deep), then the columns right of
// n0 (m0 lines, N - n0 deep).
inline int es_groups(const int M, const int N, const int m0, const int n0) {
  return es_strip_groups(N, M - m0) + es_strip_groups(m0, N - n0);
}
// Group `og`, by the work-items of a work-group (slices x 16 of them at (lane, slice), every one
// calling this), each taking a line of the group and one of `slices` slices of K (below): they add
// their slices' sums in order through `sums` (slices x ES_DEPTH x 16 floats), and slice 0 stores
// C. Barriers inside: the whole work-group calls it.
inline void es_outputs(const int og, const int lane, const int slice, const int slices, const int M,
                       const int N, const int K, const float alpha, const float beta,
                       __global const float* restrict A, const int lda,
                       __global const float* restrict B, const int ldb, __global float* C,
                       const int ldc, const int m0, const int n0, __local float* sums) {
  // The rows below m0 first (lines: columns of B; depth: rows of A), then the columns right of
  // n0 (lines: rows of A; depth: columns of B).
  const int bottom_groups = es_strip_groups(N, M - m0);
  const bool bottom = og < bottom_groups;
  const int g = bottom ? og : og - bottom_groups;
  const int lines = bottom ? N : m0;
  const int across = (lines + ES_LINES - 1) / ES_LINES;
  const int d0 = g / across * ES_DEPTH;  // the first row below m0, or column right of n0
  const int depth = min(ES_DEPTH, (bottom ? M - m0 : N - n0) - d0);
  // Which line and slice this work-item takes. Where the own lines are A's rows (row-major A),
  // each one's K is contiguous but the lines lda apart: with 16 lines across a warp each of its
  // loads touched 32 sectors (1024 x 1025 x 1024's one column took 14 us after the GEMM on the
  // H100, 1025 x 1024 x 1024's one row 6). There 4 consecutive k of a line go to consecutive
  // work-items, 8 lines per warp, so that a load touches 8 sectors of A and the shared values
  // (B's row k from n0) 4: helpers 14 -> 8.5 us, 2056^3's eight columns 41 -> 35 us (w = 2 and 8
  // measured: docs/performance.md). K's slices then go in blocks of w = 4, each block a range of
  // K whose k its four take in turn; elsewhere (w = 1) a slice is a range of K.
  const bool a_rows = A_KM == 0;  // a variable: `&& !A_KM` is a constant operand to clang
  const int w = !bottom && a_rows && slices % 4 == 0 ? 4 : 1;
  const int item = slice * ES_LINES + lane, sub = item % (ES_LINES * w);
  const int my_lane = sub / w, my_slice = item / (ES_LINES * w) * w + sub % w;
  const int line = g % across * ES_LINES + my_lane;
  const bool inside = line < lines;
  // A's value (row, k) at A[row * a_row + k * a_k].
#if A_KM
  const int a_row = 1, a_k = lda;
#else
  const int a_row = lda, a_k = 1;
#endif
  // This work-item's own line at own[k * own_k], the shared line j at shared[j * shared_j + k *
  // shared_k].
  __global const float* own = bottom ? B + line : A + line * a_row;
  const int own_k = bottom ? ldb : a_k;
  __global const float* shared = bottom ? A + (m0 + d0) * a_row : B + n0 + d0;
  const int shared_j = bottom ? a_row : 1, shared_k = bottom ? a_k : ldb;
  float sum[ES_DEPTH];
  _Pragma("unroll") for (int j = 0; j < ES_DEPTH; ++j) sum[j] = 0.0f;
  if (inside) {
    // This slice's k: every w-th of its block's range of K.
    const int blocks = slices / w, block = my_slice / w;
    const int k_end = (block + 1) * K / blocks;
    int k = block * K / blocks + my_slice % w;
    for (; k + (ES_BATCH - 1) * w < k_end; k += ES_BATCH * w) {
      float v[ES_BATCH];
      _Pragma("unroll") for (int u = 0; u < ES_BATCH; ++u) v[u] = own[(k + u * w) * own_k];
      _Pragma("unroll") for (int j = 0; j < ES_DEPTH; ++j) {
        if (j < depth) {
          _Pragma("unroll") for (int u = 0; u < ES_BATCH; ++u) sum[j] =
              fma(shared[j * shared_j + (k + u * w) * shared_k], v[u], sum[j]);
        }
      }
    }
    for (; k < k_end; k += w) {
      const float v = own[k * own_k];
      _Pragma("unroll") for (int j = 0; j < ES_DEPTH; ++j) if (j < depth) sum[j] =
          fma(shared[j * shared_j + k * shared_k], v, sum[j]);
    }
  }
  _Pragma("unroll") for (int j = 0; j < ES_DEPTH; ++j)
      sums[(my_slice * ES_DEPTH + j) * ES_LINES + my_lane] = sum[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (my_slice == 0 && inside) {
    for (int j = 0; j < depth; ++j) {
      float total = sums[j * ES_LINES + my_lane];
      for (int s = 1; s < slices; ++s) total += sums[(s * ES_DEPTH + j) * ES_LINES + my_lane];
      const int row = bottom ? m0 + d0 + j : line, col = bottom ? line : n0 + d0 + j;
      store_c(C, row * ldc + col, total, alpha, beta);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the sums read before the next group's overwrite them
}

__kernel __attribute__((reqd_work_group_size(BN / TN, BM / TM, 1))) void gemm_simt_async(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C
#if SPLIT
    ,
    __global float* restrict partials,  // a BM x BN slot per part of a split tile
    __global volatile int* arrivals     // per split tile: the parts done (0 between launches)
#endif
#if STRIPS_IN_GEMM
    ,
    const int strip_m, const int strip_n, const int strip_k,  // the caller's M, N and K
    const int strip_groups  // work-groups of strips last in the line; 0: every one takes a share
#endif
) {
  // Rows of a multiple of 4 floats, 16-byte aligned: every float4 read is one 128-bit load.
  // LOCAL_SPARE, unused floats at the end of every row, holds the work-groups an SM takes to the
  // plain build's (KernelPlan::holdPlainOccupancy): where ptxas gave a build for edges or strips
  // fewer registers (116-128 against 144-155, to fit four 64 x 128 work-groups per SM instead of
  // three), that build ran 5-16% slower at 1025^3-1031^3, 1668^3 and 1800^3 on the H200 than the
  // same one held to three (docs/performance.md, 2026-12-03, session 28).
  __local float As[STAGES][BK][BM + PADA + LOCAL_SPARE] __attribute__((aligned(16)));  // A^T
  __local float Bs[STAGES][BK][BN + PADB + LOCAL_SPARE] __attribute__((aligned(16)));

#if MIN_WG_PER_CU && SA_PTX
  // A marker the host turns into `.minnctapersm MIN_WG_PER_CU` on this entry (ptx_arch.hpp), so
  // that ptxas fits the registers to that many work-groups per SM: OpenCL has no such attribute,
  // and NVIDIA's driver ignores -cl-nv-maxrregcount.
  asm volatile("//@min-ctas-per-sm " SA_STR(MIN_WG_PER_CU) "\n");
#endif
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * (BN / TN) + tx;
  const int k_steps = EDGE ? (K + BK - 1) / BK : K / BK;  // the last one partial with EDGE
#if SPLIT || STRIPS_IN_GEMM || WHOLE_LINE
  // A line of work-groups: with SPLIT whole tiles up to SK_WHOLE (with SK_APART in the launch
  // before) and SK_PARTS per tile after them, each a range of its K-steps (part -1: the whole
  // tile), or a tile each; then with STRIPS_IN_GEMM the edge strips' own work-groups.
  const int group = get_group_id(0);
#if STRIPS_IN_GEMM
  // The strips' groups (es_outputs, SA_THREADS / 16 slices of K each, summed through A's local
  // buffers), in this launch rather than one after it (23 us of 2049^3's 400 on the H100): the
  // last strip_groups work-groups take them all (the host's rule: one group each where the GEMM
  // runs in one round, on the places it leaves or frees; beside the last round's tiles where
  // their chains end within a work-group's K-steps); otherwise every work-group takes its share
  // before its tile. Last, not first: the GPU places a launch's work-groups in their order, and
  // an unsplit 1024 x 1025 x 1024 on the H100 (128 tiles, four work-groups per SM) with 64 strip
  // work-groups first had two tiles on 29 SMs and none on 33 that held strips (%smid), 0.112 ms
  // against 0.070 (docs/performance.md). A's lines are K apart (M with A_KM), B's N: the GEMM's
  // sizes, padded or not; C's SA_LDC.
  const int strip0 = strip_groups > 0 ? get_num_groups(0) - strip_groups : 0;
  if (strip_groups == 0 || group >= strip0) {
    const int m0 = PEEL_M ? (M - 1) / BM * BM : strip_m, n0 = PEEL_N ? (N - 1) / BN * BN : strip_n;
    const int count = es_groups(strip_m, strip_n, m0, n0);
    const int step = strip_groups > 0 ? strip_groups : get_num_groups(0);
    for (int og = group - strip0; og < count; og += step)
      es_outputs(og, tid % ES_LINES, tid / ES_LINES, SA_THREADS / ES_LINES, strip_m, strip_n,
                 strip_k, alpha, beta, A, A_KM ? M : K, B, SA_LDB, C, SA_LDC, m0, n0, &As[0][0][0]);
    if (strip_groups > 0) return;
  }
#endif
#if SPLIT
  __local int sa_last;  // whether this work-group is its tile's last part
  const int part = SA_PART_OF(SA_LINE_INDEX(group)), tile = SA_TILE_OF(SA_LINE_INDEX(group));
  const int first_step = part < 0 ? 0 : part * k_steps / SK_PARTS;
  const int tiles = part < 0 ? k_steps : (part + 1) * k_steps / SK_PARTS - first_step;
#else
  const int tile = group, first_step = 0, tiles = k_steps;
#endif
  // With PEEL_M the last block row is left out: M is m0 plus 1 to PEEL_MAX rows (edges) or m0
  // plus a block (padded), so (M - 1) / BM block rows either way.
  const int2 block = swizzled_tile(tile, PEEL_M ? (M - 1) / BM : (M + BM - 1) / BM,
                                   PEEL_N ? (N - 1) / BN : (N + BN - 1) / BN, GROUP_M);
#else
  const int2 block = swizzled_block(GROUP_M);
  const int first_step = 0, tiles = k_steps;
#endif
#if EDGE
  // The last block row and column are moved back inside C (M >= BM and N >= BN: the host pads
  // smaller problems), so every copy of A and B lies inside them, and such a block stores only
  // the rows and columns from its own start, which the block before it does not.
  const int own_row0 = block.x * BM, own_col0 = block.y * BN;
  // With B_LD the last block column moves back inside N rounded up to 4 (B's copy has zeros
  // there), so that its 16-byte copies start on 16 bytes too.
  const int row0 = min(own_row0, M - BM), col0 = min(own_col0, (B_LD ? (N + 3) / 4 * 4 : N) - BN);
#else
  const int row0 = block.x * BM, col0 = block.y * BN;
  const int own_row0 = row0, own_col0 = col0;
#endif

  // Copy i of a tile: B's float4 tid + i * SA_THREADS (row / (BN/4), column % (BN/4)), and A's
  // element tid + i * SA_THREADS (row / BK, column % BK; SA_THREADS is a multiple of BK, so the
  // column is the same for every i), or with A_KM its float4 (k / (BM/4), m % (BM/4)). The sources
  // move BK columns of A (BK rows of A^T) and BK rows of B per tile. With EDGE the last K-step
  // may be partial: its copies from K on write zeros, their sources kept inside (the last column
  // or row of K).
  // K-step t of this work-group is K-step SA_STEP(t) of the tile: the copies index from the
  // matrices' own start, so that a split build's loop addresses its copies as the plain one's
  // does. With the start in the pointers (A + first_step * BK * M), the split build held them in
  // registers through the loop (PTX: the plain one reads A, B and M from the parameters in it),
  // 128 registers against 124, and its whole tiles ran 1-1.4% slower on the H200 (8192^3 and
  // 16384^3; docs/performance.md, 2026-11-28, session 16).
#define SA_STEP(t) ((t) + first_step)
#if A_KM
  __global const float* a_src = A + row0;
#else
  __global const float* a_src = A + (row0 + tid / BK) * K + (EDGE ? 0 : tid % BK);
  const int a_line = (SA_THREADS / BK) * K;  // between copy i and i + 1 of A
#endif
  __global const float* b_src = B + col0;
#if A_KM
#define SA_COPY_A(t, buf)                                                         \
  _Pragma("unroll") for (int i = 0; i < SA_COPIES_A; ++i) {                       \
    const int f = tid + i * SA_THREADS, r = f / (BM / 4), c = (f % (BM / 4)) * 4; \
    sa_copy16(&As[buf][r][c], a_src + (SA_STEP(t) * BK + r) * M + c);             \
  }
#elif EDGE
// Past K (a partial last K-step), zeros from a source kept inside A (its column K - 1).
#define SA_COPY_A(t, buf)                                                        \
  {                                                                              \
    const int k = SA_STEP(t) * BK + tid % BK;                                    \
    _Pragma("unroll") for (int i = 0; i < SA_COPIES_A; ++i) {                    \
      __local float* dst = &As[buf][tid % BK][tid / BK + i * (SA_THREADS / BK)]; \
      sa_copy4_or_zero(dst, a_src + i * a_line + min(k, K - 1), k < K);          \
    }                                                                            \
  }
#else
#define SA_COPY_A(t, buf)                                          \
  _Pragma("unroll") for (int i = 0; i < SA_COPIES_A; ++i) {        \
    sa_copy4(&As[buf][tid % BK][tid / BK + i * (SA_THREADS / BK)], \
             a_src + SA_STEP(t) * BK + i * a_line);                \
  }
#endif
#if EDGE && !VEC_N
// B's lines do not start on 16 bytes: four bytes at a time, a warp's copies along a line
// (SA_THREADS is a multiple of BN: the host's condition), checked only in a partial last K-step
// (checked in every K-step, ptxas kept their addresses: 160-210 registers).
#define SA_COPY_B(t, buf)                                                                          \
  if ((t) + 1 < tiles || K % BK == 0) {                                                            \
    __global const float* b_tile = b_src + (SA_STEP(t) * BK + tid / BN) * N + tid % BN;            \
    _Pragma("unroll") for (int i = 0; i < BK * BN / SA_THREADS; ++i) sa_copy4(                     \
        &Bs[buf][tid / BN + i * (SA_THREADS / BN)][tid % BN], b_tile + i * (SA_THREADS / BN) * N); \
  } else {                                                                                         \
    _Pragma("unroll") for (int i = 0; i < BK * BN / SA_THREADS; ++i) {                             \
      const int r = tid / BN + i * (SA_THREADS / BN), k = SA_STEP(t) * BK + r;                     \
      sa_copy4_or_zero(&Bs[buf][r][tid % BN], b_src + min(k, K - 1) * N + tid % BN, k < K);        \
    }                                                                                              \
  }
#elif EDGE
#define SA_COPY_B(t, buf)                                                         \
  _Pragma("unroll") for (int i = 0; i < SA_COPIES_B; ++i) {                       \
    const int f = tid + i * SA_THREADS, r = f / (BN / 4), c = (f % (BN / 4)) * 4; \
    const int k = SA_STEP(t) * BK + r;                                            \
    sa_copy16_or_zero(&Bs[buf][r][c], b_src + min(k, K - 1) * SA_LDB + c, k < K); \
  }
#else
#define SA_COPY_B(t, buf)                                                           \
  {                                                                                 \
    __global const float* b_tile = b_src + SA_STEP(t) * BK * SA_LDB;                \
    _Pragma("unroll") for (int i = 0; i < SA_COPIES_B; ++i) {                       \
      const int f = tid + i * SA_THREADS, r = f / (BN / 4), c = (f % (BN / 4)) * 4; \
      sa_copy16(&Bs[buf][r][c], b_tile + r * SA_LDB + c);                           \
    }                                                                               \
  }
#endif
#define SA_COPY_TILE(t, buf) \
  {                          \
    SA_COPY_A(t, buf)        \
    SA_COPY_B(t, buf)        \
  }
  // The fragments of k in register set `set` (k & 1).
  float a[2][TM], b[2][TN];
#define SA_LOAD(buf, k, set)                                                              \
  {                                                                                       \
    _Pragma("unroll") for (int g = 0; g < SA_GROUPS_M; ++g) {                             \
      const float4 v = *(__local const float4*)&As[buf][k][g * SA_STRIDE_M + ty * 4];     \
      a[set][g * 4 + 0] = v.x;                                                            \
      a[set][g * 4 + 1] = v.y;                                                            \
      a[set][g * 4 + 2] = v.z;                                                            \
      a[set][g * 4 + 3] = v.w;                                                            \
    }                                                                                     \
    _Pragma("unroll") for (int g = 0; g < SA_GROUPS_N; ++g) {                             \
      const float4 v = *(__local const float4*)&Bs[buf][k][g * SA_STRIDE_N + tx * 4];     \
      b[set][g * 4 + 0] = v.x;                                                            \
      b[set][g * 4 + 1] = v.y;                                                            \
      b[set][g * 4 + 2] = v.z;                                                            \
      b[set][g * 4 + 3] = v.w;                                                            \
    }                                                                                     \
  }

  float acc[TM][TN];
  _Pragma("unroll") for (int i = 0; i < TM; ++i) {
    _Pragma("unroll") for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  // Tiles 0 ... STAGES - 1 fill every buffer, a group of copies each (empty past the last tile);
  // the K-step t > 0 commits the group of tile t - 1 + STAGES. So when K-step t ends, STAGES + t
  // groups are committed and tile t + 1 is complete once at most STAGES - 2 are running.
  _Pragma("unroll") for (int s = 0; s < STAGES; ++s) {
    if (s < tiles) SA_COPY_TILE(s, s)
    sa_commit();
  }
  sa_wait(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  SA_LOAD(0, 0, 0)
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % STAGES;
    _Pragma("unroll") for (int k = 0; k < BK; ++k) {
      // Tile t - 1's buffer, free since the barrier, takes tile t - 1 + STAGES.
      if (k == 1 && t > 0) {
        if (t - 1 + STAGES < tiles) SA_COPY_TILE(t - 1 + STAGES, (t - 1) % STAGES)
        sa_commit();
      }
      if (k < BK - 1) {
        SA_LOAD(cur, k + 1, (k + 1) & 1)
      } else {
        sa_wait(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + 1 < tiles) SA_LOAD((t + 1) % STAGES, 0, 0)
      }
      // Row by row, each row's columns in the opposite direction to the row before (a
      // serpentine): row i's last FMA and row i + 1's first read the same b. The sums are the
      // same whatever the order; ptxas's code is not: +4% over plain row order at 8192^3 on the
      // H100, the same 128 registers (column-major orders took 130-138, one work-group per SM).
      _Pragma("unroll") for (int i = 0; i < TM; ++i) {
        _Pragma("unroll") for (int jj = 0; jj < TN; ++jj) {
          const int j = i % 2 ? TN - 1 - jj : jj;
          acc[i][j] = fma(a[k & 1][i], b[k & 1][j], acc[i][j]);
        }
      }
    }
  }
#undef SA_COPY_A
#undef SA_COPY_B
#undef SA_COPY_TILE
#undef SA_LOAD
#undef SA_STEP

#if SPLIT
  // With SK_FLOAT_SUMS (the plan's build where registers are short) part and tile come again
  // from the group's index, so that nothing of the split is live through the K-loop: with SA_STEP
  // the 128 x 128 split build then took 128 registers (129 without, one work-group per SM) and
  // 8192^3 in 16 parts ran 2.0% faster than unsplit (HEAD's split build 1.5%). Not with the
  // float4 sums: there it cost 64 x 128 splits with edges 1-3% (1232^3, 2900^3, 1601^3 on the
  // H200; docs/performance.md, 2026-11-28, session 16).
#if SK_FLOAT_SUMS
  const int sk_group = SA_LINE_INDEX(sa_group_again()), sk_part = SA_PART_OF(sk_group),
            sk_tile = SA_TILE_OF(sk_group);
#else
  const int sk_part = part, sk_tile = tile;
#endif
  if (sk_part >= 0) {
    // A part: its sums to its slot, then counted in. The last to come adds every slot, its own
    // too, in the parts' order, and goes on to store C. Float4 f of work-item tid lies at
    // (f * SA_THREADS + tid) * 4, or with SK_FLOAT_SUMS its float c at ((f * 4 + c) *
    // SA_THREADS + tid): either way a warp's stores and loads are consecutive. The host takes
    // SK_FLOAT_SUMS where the float4 stores' build holds fewer work-groups per compute unit: on
    // the H100 ptxas gave 128 x 128 blocks 130-150 registers with them, 124-128 without them or
    // float by float (likely because a 16-byte store wants its four sums side by side in
    // registers), one work-group per SM instead of two. Float by float, 64 x 128 blocks (three
    // per SM either way) took 1552^3-1600^3 13-15% longer in 2 parts (not understood;
    // docs/performance.md, 2026-11-27, session 13).
    const int slot0 = (sk_tile - SK_WHOLE) * SK_PARTS;
#if SK_FLOAT_SUMS
    __global float* mine = partials + (slot0 + sk_part) * (BM * BN) + tid;
    _Pragma("unroll") for (int f = 0; f < TM * TN / 4; ++f) {
      const int i = f / SA_GROUPS_N, g = f % SA_GROUPS_N;
      _Pragma("unroll") for (int c = 0; c < 4; ++c) mine[(f * 4 + c) * SA_THREADS] =
          acc[i][g * 4 + c];
    }
#else
    __global float* mine = partials + (slot0 + sk_part) * (BM * BN);
    _Pragma("unroll") for (int f = 0; f < TM * TN / 4; ++f) {
      const int i = f / SA_GROUPS_N, g = f % SA_GROUPS_N;
      *(__global float4*)(mine + (f * SA_THREADS + tid) * 4) =
          (float4)(acc[i][g * 4], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]);
    }
#endif
    sa_fence_gpu();  // these sums before the count
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (tid == 0) {
      sa_last = atomic_inc(&arrivals[sk_tile - SK_WHOLE]) == SK_PARTS - 1;
      if (sa_last) arrivals[sk_tile - SK_WHOLE] = 0;  // every part has counted: ready for the next
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!sa_last) return;
    sa_fence_gpu();  // the others' sums after their count
    // Not through acc: summed into it (held through the loads of every part), ptxas gave the
    // kernel 150-168 registers instead of 124-144, one work-group per SM fewer. SA_SUM_GROUP
    // float4s at a time (1, 2 or 4: each divides the TM * TN / 4 float4s, a multiple of 4), every
    // part's loads of them in flight together: about 64 registers of loads whatever the parts.
    __global const float* sums = partials + slot0 * (BM * BN) + tid * (SK_FLOAT_SUMS ? 1 : 4);
#if SK_FLOAT_SUMS
#define SA_PART_SUMS(p, f) sa_load4_l2(sums + (p) * (BM * BN) + (f)*4 * SA_THREADS, SA_THREADS)
#else
#define SA_PART_SUMS(p, f) sa_load_l2(sums + (p) * (BM * BN) + (f)*SA_THREADS * 4)
#endif
#define SA_SUM_GROUP (SK_PARTS <= 4 ? 4 : SK_PARTS <= 8 ? 2 : 1)
#pragma unroll 1
    for (int f0 = 0; f0 < TM * TN / 4; f0 += SA_SUM_GROUP) {
      _Pragma("unroll") for (int q = 0; q < SA_SUM_GROUP; ++q) {
        const int f = f0 + q;
        float4 sum = SA_PART_SUMS(0, f);
        _Pragma("unroll") for (int p = 1; p < SK_PARTS; ++p) sum += SA_PART_SUMS(p, f);
        const int i = f / SA_GROUPS_N, g = f % SA_GROUPS_N;
        sa_store_c4(C, SA_LDC, row0 + (i / 4) * SA_STRIDE_M + ty * 4 + i % 4,
                    col0 + g * SA_STRIDE_N + tx * 4, sum, alpha, beta, own_row0, own_col0, N);
      }
    }
#undef SA_SUM_GROUP
#undef SA_PART_SUMS
    return;
  }
#endif

  // C = alpha * acc (+ beta * C), float4 by float4.
  _Pragma("unroll") for (int i = 0; i < TM; ++i) {
    const int row = row0 + (i / 4) * SA_STRIDE_M + ty * 4 + i % 4;
    _Pragma("unroll") for (int g = 0; g < SA_GROUPS_N; ++g) {
      const int col = col0 + g * SA_STRIDE_N + tx * 4;
      sa_store_c4(C, SA_LDC, row, col,
                  (float4)(acc[i][g * 4], acc[i][g * 4 + 1], acc[i][g * 4 + 2], acc[i][g * 4 + 3]),
                  alpha, beta, own_row0, own_col0, N);
    }
  }
}

// gemm_edge_strip: the edge strips (es_outputs) in a launch of their own after the GEMM, where the
// GEMM does not take them (FUSE_STRIPS = 0, the host's rule, or a fused build holding fewer
// work-groups per compute unit): a group per work-group, each of its 32 rows of work-items
// summing a 32nd of K. Global (16 x the groups of both strips, 32), local (16, 32).
#define ES_SLICES 32
__kernel __attribute__((reqd_work_group_size(ES_LINES, ES_SLICES, 1))) void gemm_edge_strip(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, const int lda, __global const float* restrict B,
    const int ldb, __global float* C, const int ldc, const int m0, const int n0) {
  __local float sums[ES_SLICES * ES_DEPTH * ES_LINES];
  es_outputs(get_group_id(0), get_local_id(0), get_local_id(1), ES_SLICES, M, N, K, alpha, beta, A,
             lda, B, ldb, C, ldc, m0, n0, sums);
}
#undef ES_LINES
#undef ES_DEPTH
#undef ES_SLICES
#undef ES_BATCH
#undef SA_THREADS
#undef SA_COPIES_A
#undef SA_COPIES_B
#undef SA_GROUPS_M
#undef SA_GROUPS_N
#undef SA_STRIDE_M
#undef SA_STRIDE_N
#undef SA_STR2
#undef SA_STR
#undef SA_FIRST
#undef SA_NEXT
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
#undef STAGES
#undef PADA
#undef PADB
#undef GROUP_M
#undef A_KM
#undef AT_FROM
#undef PAD_FROM
#undef PAD_FROM_UNALIGNED
#undef EDGE
#undef VEC_N
#undef SPLIT_SLOTS
#undef SPLIT_APART
#undef SPLIT
#undef SK_WHOLE
#undef SK_PARTS
#undef SK_FLOAT_SUMS
#undef SK_APART
#undef WHOLE_LINE
#undef SA_LINE_INDEX
#undef SA_PART_OF
#undef SA_TILE_OF
#undef PEEL_MAX
#undef PEEL_M
#undef PEEL_N
#undef FUSE_STRIPS
#undef STRIPS_OWN_MAX
#undef STRIPS_IN_GEMM
#undef LOCAL_SPARE
#undef C_LD
#undef SA_LDC
#undef B_LD
#undef SA_LDB
#undef ALIGN_B_FROM
#undef PAD_PEELED_FROM
#undef SA_PTX
#endif

// ---------------------------------------------------------------------------------------------
// tc-tf32 and tc-3xtf32: the tensor cores of NVIDIA GPUs (compute capability 8.0 and up) through
// inline PTX, mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: one warp multiplies a 16 x 8
// tile of A by an 8 x 8 tile of B into a 16 x 8 tile of C in FP32.
//  - tc-tf32 rounds A and B to TF32 (10 mantissa bits, cvt.rna) on their way into local memory:
//    about 3 decimal digits per product, FP32 sums. Judged by the TF32 threshold (verify.hpp).
//  - tc-3xtf32 (TC_3X) splits every value x at its fragment load into big = tf32(x) and
//    small = x - big (exact in FP32; the tensor cores read its top 19 bits) and sums
//    small*big + big*small + big*big: three tensor-core products for one, with FP32-level
//    accuracy (small*small lies below FP32's rounding, and so does what small loses).
// A work-group of (BM/WM) x (BN/WN) warps computes a BM x BN block of C; each warp a WM x WN tile,
// (WM/16) x (WN/8) mma tiles, whose accumulators stay in registers. A and B pass through
// local memory with register prefetch (float4 global loads; double-buffered with one barrier per
// K-step, or with STAGES = 1 single-buffered with two, which leaves room under the 48 KiB a
// work-group may have for 256-row blocks), and the work-group order is swizzled as in best.
// The fragments' k order is permuted: lane t of a quad takes k = 2t and 2t+1 where the PTX
// layout names k = t and t+4. A dot product does not care in which order its k run, as long as A
// and B agree, and each lane's two values of A, and its two of B, are then one 64-bit local load:
// A is kept as As[m][k], B with its rows interleaved in pairs, Bs[k/2][n][k%2].
// Local rows are padded so the fragment loads are conflict-free: both strides are 8 mod 32 floats
// (a half-warp's float2 loads, 4 quads x 4 rows of A or 4 pairs of rows of B, cover the 32 banks
// once). Hence BK and BN multiples of 16.
// The tensor cores' FP32 sums round toward zero, which over a long K adds up to an error FP32's
// rounding does not have (an error ratio of 34 at 8192^3). tc-3xtf32 therefore sums each K-step
// in fresh mma accumulators and adds those to its FP32 totals with ordinary, rounded adds.
// Global (ceil(N/BN)*32*(BN/WN), ceil(M/BM)*(BM/WM)), local (32*(BN/WN), BM/WM).
// Any size, in one of two ways the host chooses (PAD_FROM), as for best: with EDGE = 1 (set unless
// M, N, K are multiples of BM, BN, BK) every load is checked (zeros outside A and B) and so is
// every store; from PAD_FROM up, copy_matrix's padding copies make the problem an exact one.
// The inline PTX builds only with NVIDIA's compiler, so unlike every other section this one is
// compiled only when the host asks for it by name (never in a whole-file build).
#if defined(KERNEL_gemm_tc_tf32) || defined(KERNEL_gemm_tc_3xtf32)
#ifndef BM
#define BM 128  // rows of C per work-group
#endif
#ifndef BN
#define BN 128  // columns of C per work-group
#endif
#ifndef BK
#define BK 16  // K-step (a multiple of 16)
#endif
#ifndef WM
#ifdef KERNEL_gemm_tc_3xtf32
#define WM 32  // rows of C per warp (a multiple of 16); tc-3xtf32 holds more per tile
#else
#define WM 64  // rows of C per warp (a multiple of 16)
#endif
#endif
#ifndef WN
#define WN 64  // columns of C per warp (a multiple of 8)
#endif
#ifndef GROUP_M
#define GROUP_M 8  // block rows per band of the swizzled work-group order (1: no swizzle)
#endif
#ifndef STAGES
#define STAGES 2  // local buffers: 2 (one barrier per K-step) or 1 (two; room for larger blocks)
#endif
#ifndef PAD_FROM
#define PAD_FROM 3000  // padding copies from this size up (read by the host, not the kernel)
#endif
#ifndef EDGE
#define EDGE 1  // loads and stores checked against M, N, K (set by the host)
#endif
#ifdef KERNEL_gemm_tc_3xtf32
#define TC_3X 1
#else
#define TC_3X 0
#endif

#define TC_WARPS_N (BN / WN)
#define TC_THREADS (32 * (BM / WM) * TC_WARPS_N)
#define TC_MT (WM / 16)                             // mma tiles per warp along M
#define TC_NT (WN / 8)                              // and along N
#define TC_LDA (BK + 8)                             // local stride of A's rows: 8 mod 32
#define TC_LDB (2 * BN + 8)                         // local stride of B's row pairs: 8 mod 32
#define TC_LOADS_A (BM * BK / 4 / TC_THREADS)       // float4 of A per work-item per K-step
#define TC_LOADS_B (BK * BN / 8 / TC_THREADS)       // float4 pairs of B (rows 2p, 2p+1) per step

// d += a * b for one m16n8k8 tile: a holds A's (g, t) (g+8, t) (g, t+4) (g+8, t+4), b holds
// B's (t, g) (t+4, g), d holds C's (g, 2t) (g, 2t+1) (g+8, 2t) (g+8, 2t+1), for lane 4g + t.
inline void tc_mma(float* d, const uint* a, const uint* b) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]),
        "f"(d[2]), "f"(d[3]));
}

// Four floats of a rows x cols matrix from (row, col); with EDGE, zeros outside it.
inline float4 tc_fetch(__global const float* p, const int rows, const int cols, const int row,
                       const int col) {
#if EDGE
  return (float4)(load_or_zero(p, rows, cols, row, col), load_or_zero(p, rows, cols, row, col + 1),
                  load_or_zero(p, rows, cols, row, col + 2),
                  load_or_zero(p, rows, cols, row, col + 3));
#else
  return *(__global const float4*)(p + row * cols + col);
#endif
}

// The row of the A tile that work-item slot `idx` loads and stores a float4 of. With BK = 16 the
// 8 float4 stores a quarter-warp makes at once span 2 rows, whose banks overlap (A's stride is 8
// mod 32); taking the rows of each 4 in the order 0, 2, 1, 3 puts those 2 rows 2 apart, and their
// stores fill the 32 banks once.
inline int tc_a_row(const int idx) {
  const int q = idx / (BK / 4);
#if BK == 16
  return (q & ~3) | ((q & 1) << 1) | ((q >> 1) & 1);
#else
  return q;
#endif
}

// What goes into local memory: TF32 values for tc-tf32 (rounded once per block, not once per
// warp that reads them), the FP32 values for tc-3xtf32, which splits them at the fragment load.
inline float4 tc_stored(const float4 v) {
#if TC_3X
  return v;
#else
  return tc_tf32_4(v);
#endif
}

__kernel __attribute__((reqd_work_group_size(32 * TC_WARPS_N, BM / WM, 1))) void
#if TC_3X
gemm_tc_3xtf32
#else
gemm_tc_tf32
#endif
    (const int M, const int N, const int K, const float alpha, const float beta,
     __global const float* restrict A, __global const float* restrict B, __global float* C) {
  __local float As[STAGES][BM * TC_LDA] __attribute__((aligned(16)));      // As[m][k]
  __local float Bs[STAGES][BK / 2 * TC_LDB] __attribute__((aligned(16)));  // Bs[k/2][n][k%2]

  const int tid = get_local_id(1) * (32 * TC_WARPS_N) + get_local_id(0);
  const int lane = get_local_id(0) % 32;
  const int g = lane / 4, t = lane % 4;
  const int warp_row = get_local_id(1) * WM;
  const int warp_col = (get_local_id(0) / 32) * WN;

  const int2 block = swizzled_block(GROUP_M);
  const int row0 = block.x * BM;
  const int col0 = block.y * BN;

  float acc[TC_MT][TC_NT][4];
  _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
      _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
          _Pragma("unroll") for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;

  float4 a_next[TC_LOADS_A];
  float4 b_next[TC_LOADS_B][2];
#define TC_FETCH(tile)                                                                   \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_A; ++i) {                               \
    const int idx = tid + i * TC_THREADS;                                               \
    a_next[i] = tc_fetch(A, M, K, row0 + tc_a_row(idx), (tile) * BK + (idx % (BK / 4)) * 4); \
  }                                                                                      \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_B; ++i) {                               \
    const int idx = tid + i * TC_THREADS;                                               \
    const int k = (tile) * BK + idx / (BN / 4) * 2, col = col0 + (idx % (BN / 4)) * 4; \
    b_next[i][0] = tc_fetch(B, K, N, k, col);                                            \
    b_next[i][1] = tc_fetch(B, K, N, k + 1, col);                                        \
  }
#define TC_STORE(buf)                                                                          \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_A; ++i) {                                     \
    const int idx = tid + i * TC_THREADS;                                                     \
    *(__local float4*)&As[buf][tc_a_row(idx) * TC_LDA + (idx % (BK / 4)) * 4] =                \
        tc_stored(a_next[i]);                                                                  \
  }                                                                                            \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_B; ++i) {                                     \
    const int idx = tid + i * TC_THREADS;                                                     \
    const float4 even = tc_stored(b_next[i][0]), odd = tc_stored(b_next[i][1]);               \
    const float4 lo = (float4)(even.x, odd.x, even.y, odd.y);                                 \
    const float4 hi = (float4)(even.z, odd.z, even.w, odd.w);                                 \
    __local float4* to = (__local float4*)&Bs[buf][(idx / (BN / 4)) * TC_LDB + (idx % (BN / 4)) * 8]; \
    /* Lanes 4-7 of each quarter-warp store their halves in the other order, so each of the */ \
    /* two stores covers the 32 banks once (a lane's 8 floats start 8 banks apart). */          \
    const int h = (idx % (BN / 4)) / 4 & 1;                                                    \
    to[h] = h ? hi : lo;                                                                       \
    to[h ^ 1] = h ? lo : hi;                                                                   \
  }

  const int tiles = (K + BK - 1) / BK;
  TC_FETCH(0)
  TC_STORE(0)
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int tile = 0; tile < tiles; ++tile) {
    const int cur = STAGES == 2 ? tile & 1 : 0;
    if (tile + 1 < tiles) {
      TC_FETCH(tile + 1)
    }
#if TC_3X
    float part[TC_MT][TC_NT][4];  // this K-step's sums (see the section's header)
    _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
        _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
            _Pragma("unroll") for (int q = 0; q < 4; ++q) part[i][j][q] = 0.0f;
#endif
    _Pragma("unroll") for (int kk = 0; kk < BK; kk += 8) {
      // This lane's k = kk + 2t and kk + 2t + 1 (see the section's header).
      float a[TC_MT][4], b[TC_NT][2];
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i) {
        const int at = (warp_row + i * 16 + g) * TC_LDA + kk + 2 * t;
        const float2 top = *(__local const float2*)&As[cur][at];
        const float2 bottom = *(__local const float2*)&As[cur][at + 8 * TC_LDA];
        a[i][0] = top.x;
        a[i][1] = bottom.x;
        a[i][2] = top.y;
        a[i][3] = bottom.y;
      }
      _Pragma("unroll") for (int j = 0; j < TC_NT; ++j) {
        const float2 pair =
            *(__local const float2*)&Bs[cur][(kk / 2 + t) * TC_LDB + (warp_col + j * 8 + g) * 2];
        b[j][0] = pair.x;
        b[j][1] = pair.y;
      }
#if TC_3X
      uint a_big[TC_MT][4], a_small[TC_MT][4], b_big[TC_NT][2], b_small[TC_NT][2];
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int q = 0; q < 4; ++q) {
        a_big[i][q] = tc_tf32(a[i][q]);
        a_small[i][q] = as_uint(a[i][q] - as_float(a_big[i][q]));
      }
      _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
          _Pragma("unroll") for (int q = 0; q < 2; ++q) {
        b_big[j][q] = tc_tf32(b[j][q]);
        b_small[j][q] = as_uint(b[j][q] - as_float(b_big[j][q]));
      }
      // The small terms first, so the big product is added to the sum last; one pass over the
      // tiles per term, so consecutive mma are independent and need not wait for each other.
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
              tc_mma(part[i][j], a_small[i], b_big[j]);
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
              tc_mma(part[i][j], a_big[i], b_small[j]);
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
              tc_mma(part[i][j], a_big[i], b_big[j]);
#else
      uint a_bits[TC_MT][4], b_bits[TC_NT][2];
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int q = 0; q < 4; ++q) a_bits[i][q] = as_uint(a[i][q]);
      _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
          _Pragma("unroll") for (int q = 0; q < 2; ++q) b_bits[j][q] = as_uint(b[j][q]);
      _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
          _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
              tc_mma(acc[i][j], a_bits[i], b_bits[j]);
#endif
    }
#if TC_3X
    _Pragma("unroll") for (int i = 0; i < TC_MT; ++i)
        _Pragma("unroll") for (int j = 0; j < TC_NT; ++j)
            _Pragma("unroll") for (int q = 0; q < 4; ++q) acc[i][j][q] += part[i][j][q];
#endif
    if (tile + 1 < tiles) {
#if STAGES == 1
      barrier(CLK_LOCAL_MEM_FENCE);  // every warp done with the buffer before it is refilled
      TC_STORE(0)
#else
      TC_STORE(cur ^ 1)
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#undef TC_FETCH
#undef TC_STORE

  // Each lane holds two neighbouring columns of two rows per mma tile.
  _Pragma("unroll") for (int i = 0; i < TC_MT; ++i) _Pragma("unroll") for (int h = 0; h < 2; ++h) {
    const int row = row0 + warp_row + i * 16 + h * 8 + g;
#if EDGE
    if (row >= M) continue;
#endif
    _Pragma("unroll") for (int j = 0; j < TC_NT; ++j) {
      const int col = col0 + warp_col + j * 8 + 2 * t;
#if EDGE
      if (col < N) store_c(C, row * N + col, acc[i][j][2 * h], alpha, beta);
      if (col + 1 < N) store_c(C, row * N + col + 1, acc[i][j][2 * h + 1], alpha, beta);
#else
      __global float2* c2 = (__global float2*)(C + row * N + col);
      float2 r = alpha * (float2)(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
      if (beta != 0.0f) r += beta * *c2;
      *c2 = r;
#endif
    }
  }
}
#undef TC_3X
#undef TC_WARPS_N
#undef TC_THREADS
#undef TC_MT
#undef TC_NT
#undef TC_LDA
#undef TC_LDB
#undef TC_LOADS_A
#undef TC_LOADS_B
#undef BM
#undef BN
#undef BK
#undef WM
#undef WN
#undef GROUP_M
#undef STAGES
#undef PAD_FROM
#undef EDGE
#endif

// ---------------------------------------------------------------------------------------------
// pack_operand: the helper of tc-tf32-wg and tc-3xtf32-wg, in a section of its own so that it
// builds anywhere (tests check it on the CPU, with KERNEL_pack_operand); its layout is described
// with tc-tf32-wg below. It reads the tile sizes BM, BN, BK where the host passes them and
// otherwise assumes tc-tf32-wg's defaults. PACK_SPLIT (set for tc-3xtf32-wg) writes B's values x
// as two TF32 planes, big = tf32(x) and small = tf32(x - big), a tile of each per K-step, and A's
// unrounded, each tile in the order of the wgmma's register fragments (the kernel splits them).
// PACK_SPLIT 2 (tc-3xtf32-f16) scales each line of B by its power of two (line_scale, below) and
// writes the big plane as TF32 and the second as FP16 pairs (small, big) for the FP16 wgmma.
#if !defined(CLGEMM_ONE_KERNEL) || defined(KERNEL_gemm_tc_tf32_wg) ||          \
    defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_tf32_tma) ||   \
    defined(KERNEL_gemm_tc_tf32_rs) || defined(KERNEL_gemm_tc_tf32_ws) ||      \
    defined(KERNEL_gemm_tc_tf32_fused) || defined(KERNEL_gemm_tc_3xtf32_ws) || \
    defined(KERNEL_gemm_tc_3xtf32_f16) || defined(KERNEL_pack_operand) ||      \
    defined(KERNEL_line_scale)
#if defined(BM) && defined(BN) && defined(BK)
#define PACK_BM BM
#define PACK_BN BN
#define PACK_BK BK
#else
#define PACK_BM 128  // tc-tf32-wg's defaults
#define PACK_BN 256
#define PACK_BK 32
#endif
#ifndef PACK_SPLIT
#if defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_3xtf32_ws)
#define PACK_SPLIT 1
#elif defined(KERNEL_gemm_tc_3xtf32_f16)
#define PACK_SPLIT 2
#else
#define PACK_SPLIT 0
#endif
#endif

// Float index of (row, 4 kq) in a tile of `rows` rows (see tc-tf32-wg's header).
inline int wg_at(const int rows, const int row, const int kq) {
  return (kq * (rows / 8) + row / 8) * 32 + (row % 8) * 4;
}
// Float index of (row, k) in a tile of `rows` rows x BK in register-fragment order (tc-3xtf32-wg's
// A, see its header): per 8-k step and 64 rows, the 128 work-items' four values one after another.
inline int wg_fragment_at(const int rows, const int row, const int k) {
  const int item = ((row % 64) / 16) * 32 + (row % 8) * 4 + k % 4;  // warp, g, t
  const int value = (row % 16) / 8 + 2 * ((k % 8) / 4);             // a0 ... a3
  return (((k / 8) * (rows / 64) + row / 64) * 128 + item) * 4 + value;
}

// A work-group packs a block of PACK_BLOCK rows x PACK_BLOCK k through local memory, 16 floats
// per work-item: four 16-byte loads in flight each, where the first version moved 32 x 32 blocks
// one float per access. This one runs at the bandwidth: both passes of tc-tf32-wg at 8192^3 in
// 0.38 ms on the H100, 2.8 TB/s, the same as with the stores made linear (docs/performance.md).
#define PACK_BLOCK 64

// The block in local memory: rows of 64 floats, each row's 16-byte chunks (4 k) permuted by the
// row, chunk k/4 at (k/4) ^ swizzle(row). Every access below is one chunk per work-item (or one
// float of a chunk), and the permutation puts the chunks of the 8 work-items that share a bank
// cycle in 8 different groups of 4 banks: 8 consecutive rows (the stores to global memory walk
// down the rows), rows 4 apart (the transposing loads), or 8 chunks of one row (the loads along
// k).
inline int pack_local_at(const int row, const int k) {
  const int swizzle = (row % 8) ^ ((row / 8) % 4);
  return row * PACK_BLOCK + (((k / 4) ^ swizzle) * 4) + k % 4;
}

// Element (row, k) of the operand as stored: along its lines (A untransposed, B transposed: line
// `row`, element k) or across them (line k, element `row`); 0 outside the operand's rows x ks.
inline float pack_load(__global const float* src, const int along_k, const int ld,
                       const int src_rows, const int src_ks, const int row, const int k) {
  if (row >= src_rows || k >= src_ks) return 0.0f;
  return src[along_k ? row * ld + k : k * ld + row];
}

// Four elements from (row, k), each a step of (row_step, k_step) past the one before: a chunk of 4
// k or of 4 rows, loaded a float at a time (edge blocks, lines not 16-byte aligned).
inline float4 pack_load4(__global const float* src, const int along_k, const int ld,
                         const int src_rows, const int src_ks, const int row, const int k,
                         const int row_step, const int k_step) {
  float v[4];
  _Pragma("unroll") for (int i = 0; i < 4; ++i) v[i] =
      pack_load(src, along_k, ld, src_rows, src_ks, row + i * row_step, k + i * k_step);
  return (float4)(v[0], v[1], v[2], v[3]);
}

// pack_operand's second half for the core-matrix layouts (tc-tf32-wg's A and B, tc-3xtf32-wg's
// B): chunk (row, 4 kq) of the block to its packed place in tiles of tile_rows (BM for A, BN for
// B) x PACK_BK, rounded (as two planes with PACK_SPLIT). A warp takes 32 consecutive rows of one
// chunk column: four whole core matrices, 512 contiguous bytes.
inline void pack_store(__local const float* block, __global float* restrict dst, const int r0,
                       const int k0, const int rows, const int cols, const int tile_rows,
                       const int t, __global const float* line_scales) {
  const int size = tile_rows * PACK_BK;
  _Pragma("unroll") for (int i = 0; i < 4; ++i) {
    const int row = t % PACK_BLOCK, kq = t / PACK_BLOCK + 4 * i;
    const int r = r0 + row, kk = k0 + 4 * kq;
    // cols is a multiple of PACK_BK, so of 8: a chunk is in or out whole.
    if (r < rows && kk < cols) {
      const float4 v = vload4(0, block + pack_local_at(row, 4 * kq));
      const int tile = (r / tile_rows) * (cols / PACK_BK) + kk / PACK_BK;
      const int at = wg_at(tile_rows, r % tile_rows, (kk % PACK_BK) / 4);
#if PACK_SPLIT == 2
      // The line's power of two is exact; the pair (small, big) is FP16 k 2j and 2j + 1 of the
      // FP16 wgmma's B (low half first), so that a big part of A meets a small one of B.
      const float4 x = v * line_scales[r];
      const float4 big = tc_tf32_4(x), small = x - big;
      vstore4(big, 0, dst + 2 * tile * size + at);
      vstore_half8_rte((float8)(small.x, big.x, small.y, big.y, small.z, big.z, small.w, big.w), 0,
                       (__global half*)(dst + 2 * tile * size + size + at));
#elif PACK_SPLIT
      const float4 big = tc_tf32_4(v);
      vstore4(big, 0, dst + 2 * tile * size + at);
      vstore4(tc_tf32_4(v - big), 0, dst + 2 * tile * size + size + at);  // v - big is exact
#else
      vstore4(tc_tf32_4(v), 0, dst + tile * size + at);
#endif
    }
  }
}

#if PACK_SPLIT
// pack_operand's second half for tc-3xtf32-wg's A: unrounded, in fragment order. The block's 64
// rows are one warpgroup's (tiles are multiples of 64 rows); per 8-k step its 128 work-items'
// float4s (rows g, g + 8 of warp w's 16, k t and t + 4) one after another, a warp's 512 bytes
// contiguous.
inline void pack_store_fragments(__local const float* block, __global float* restrict dst,
                                 const int r0, const int k0, const int rows, const int cols,
                                 const int t) {
  const int item = t % 128, w = item / 32, g = (item % 32) / 4, tk = item % 4;
  _Pragma("unroll") for (int i = 0; i < 4; ++i) {
    const int step = t / 128 + 2 * i;  // 8-k step of the block
    const int row = 16 * w + g, k = 8 * step + tk;
    const int r = r0 + row, kk = k0 + k;
    if (r < rows && kk < cols) {
      const float4 v =
          (float4)(block[pack_local_at(row, k)], block[pack_local_at(row + 8, k)],
                   block[pack_local_at(row, k + 4)], block[pack_local_at(row + 8, k + 4)]);
      const int tile = (r / PACK_BM) * (cols / PACK_BK) + kk / PACK_BK;
      vstore4(v, 0,
              dst + tile * PACK_BM * PACK_BK + wg_fragment_at(PACK_BM, r % PACK_BM, kk % PACK_BK));
    }
  }
}
#endif

// pack_operand: operand 0, A (M x K), or operand 1, B transposed (N x K), read from its source
// (src_rows x src_cols, the operand M x K or K x N, stored as src_ld and src_transposed say: the
// shape costs no extra pass) and written as `rows` x `cols` (padded rows and K), zeros outside
// the source, rounded to TF32: tiles of BM (A) or BN (B) rows x BK, tile (rb, kt) at (rb cols/BK
// + kt) x its size, in core-matrix order. With PACK_SPLIT, B's tiles are twice that, the big plane
// followed by the small one, and A's are unrounded, in fragment order.
// A work-group moves a 64 x 64 block through local memory. Loads: where the source's lines run
// along K (A untransposed, B transposed), a work-item reads four 16-byte chunks of 4 k, a warp two
// 256-byte pieces of lines; across them, it reads four k of 4 rows each (16-byte chunks along the
// lines) and transposes the 4 x 4 in registers. Blocks wholly inside a source whose lines are
// 16-byte aligned (ld a multiple of 4) load vectors; the edges and other lds load floats.
// Global (ceil(cols/64)*32, ceil(rows/64)*8), local (32, 8).
__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void pack_operand(
    const int operand, const int src_rows, const int src_cols, const int src_ld,
    const int src_transposed, __global const float* restrict src, const int rows, const int cols,
    __global float* restrict dst
#if PACK_SPLIT == 2
    ,
    __global const float* restrict line_scales  // B's, line_scale's (N of them)
#endif
) {
#if PACK_SPLIT != 2
  __global const float* line_scales = 0;  // unscaled
#endif
  __local float block[PACK_BLOCK * PACK_BLOCK];
  const int t = get_local_id(1) * 32 + get_local_id(0);
  const int r0 = get_group_id(1) * PACK_BLOCK, k0 = get_group_id(0) * PACK_BLOCK;
  // A untransposed and B transposed are stored with K along their lines.
  const int along_k = (operand == 0) != (src_transposed != 0);
  // The operand's rows (M or N) and ks in the source.
  const int op_rows = operand == 0 ? src_rows : src_cols;
  const int op_ks = operand == 0 ? src_cols : src_rows;
  const int vectors = src_ld % 4 == 0 && r0 + PACK_BLOCK <= op_rows && k0 + PACK_BLOCK <= op_ks;
  if (along_k) {
    _Pragma("unroll") for (int i = 0; i < 4; ++i) {
      const int row = t / 16 + 16 * i, k = 4 * (t % 16);
      const float4 v = vectors ? vload4(0, src + (r0 + row) * src_ld + k0 + k)
                               : pack_load4(src, 1, src_ld, op_rows, op_ks, r0 + row, k0 + k, 0, 1);
      vstore4(v, 0, block + pack_local_at(row, k));
    }
  } else {
    const int row = 4 * (t % 16), k = 4 * (t / 16);
    float4 v[4];  // v[j]: rows row ... row + 3 at k + j
    _Pragma("unroll") for (int j = 0; j < 4; ++j) {
      v[j] = vectors ? vload4(0, src + (k0 + k + j) * src_ld + r0 + row)
                     : pack_load4(src, 0, src_ld, op_rows, op_ks, r0 + row, k0 + k + j, 1, 0);
    }
    vstore4((float4)(v[0].x, v[1].x, v[2].x, v[3].x), 0, block + pack_local_at(row, k));
    vstore4((float4)(v[0].y, v[1].y, v[2].y, v[3].y), 0, block + pack_local_at(row + 1, k));
    vstore4((float4)(v[0].z, v[1].z, v[2].z, v[3].z), 0, block + pack_local_at(row + 2, k));
    vstore4((float4)(v[0].w, v[1].w, v[2].w, v[3].w), 0, block + pack_local_at(row + 3, k));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Each operand's call has its tile height as a constant, so that the index arithmetic per value
  // (divisions and remainders by it) compiles to shifts.
  if (operand == 0) {
#if PACK_SPLIT
    pack_store_fragments(block, dst, r0, k0, rows, cols, t);
#else
    pack_store(block, dst, r0, k0, rows, cols, PACK_BM, t, line_scales);
#endif
  } else {
    pack_store(block, dst, r0, k0, rows, cols, PACK_BN, t, line_scales);
  }
}

// line_scale: for each line of A (its M rows) and of B (its N columns), along K, the power of two
// that puts the line's largest magnitude in [2^14, 2^15): tc-3xtf32-f16 multiplies in FP16, whose
// range (normal from 2^-14 to 65504) is far narrower than FP32's, so each line of A and of B is
// scaled first and C's element (i, j) unscaled by both lines' powers, all exactly. A line of
// zeros, or one with an Inf (or NaN, which fmax passes over), keeps 1; the powers stay within
// 2^-126 ... 2^126 so that both they and their inverses are normal floats.
// Both operands in one launch (at 1024^3 two launches cost more than their reads): the first
// ceil(a_lines/8) work-groups take A's lines, the others B's. Each source is read as pack_operand
// reads it (rows x cols as stored, ld, transposed: the operand's lines along K or across it);
// lines past the source are zero.
inline void line_scale_of(__local float (*partial)[33], const int operand, const int src_rows,
                          const int src_cols, const int src_ld, const int src_transposed,
                          __global const float* restrict src, const int lines, const int group,
                          __global float* restrict scales) {
  // A work-group of (32, 8) takes 8 lines, each through 32 slices of K: along K, a warp per line
  // (its lanes 32 consecutive k); across, 8 lines x 4 k per warp, 32 bytes of each line at once.
  const int along_k = (operand == 0) != (src_transposed != 0);
  const int op_rows = operand == 0 ? src_rows : src_cols;
  const int op_ks = operand == 0 ? src_cols : src_rows;
  const int item = get_local_id(1) * 32 + get_local_id(0);
  const int line = along_k ? item / 32 : item % 8, slice = along_k ? item % 32 : item / 8;
  const int r = group * 8 + line;
  float most = 0.0f;
  if (r < op_rows) {
    __global const float* p = along_k ? src + r * src_ld : src + r;
    const int step = along_k ? 1 : src_ld;
    int k = slice;
    // Eight loads in flight per work-item: the reads are latency-bound where lines are short.
    for (; k + 7 * 32 < op_ks; k += 8 * 32) {
      float v[8];
      _Pragma("unroll") for (int c = 0; c < 8; ++c) v[c] = p[(k + 32 * c) * step];
      _Pragma("unroll") for (int c = 0; c < 8; ++c) most = fmax(most, fabs(v[c]));
    }
    for (; k < op_ks; k += 32) most = fmax(most, fabs(p[k * step]));
  }
  partial[line][slice] = most;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (item < 8 && group * 8 + item < lines) {
    float m = 0.0f;
    for (int i = 0; i < 32; ++i) m = fmax(m, partial[item][i]);
    // m < 2^e, e = its exponent field - 126; 2^(15 - e) m is in [2^14, 2^15).
    const int e = (int)((as_uint(m) >> 23) & 0xffu) - 126;
    const int power = (m > 0.0f && isfinite(m)) ? clamp(15 - e, -126, 126) : 0;
    scales[group * 8 + item] = as_float((uint)(power + 127) << 23);
  }
}
// Global (32, (ceil(a_lines/8) + ceil(b_lines/8)) * 8), local (32, 8).
__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void line_scale(
    const int a_rows, const int a_cols, const int a_ld, const int a_transposed,
    __global const float* restrict a, const int a_lines, __global float* restrict a_scales,
    const int b_rows, const int b_cols, const int b_ld, const int b_transposed,
    __global const float* restrict b, const int b_lines, __global float* restrict b_scales) {
  __local float partial[8][33];
  // One call with the operand's arguments, so that its barrier is on one path (pocl).
  const int a_groups = (a_lines + 7) / 8, of_a = (int)get_group_id(1) < a_groups;
  line_scale_of(partial, of_a ? 0 : 1, of_a ? a_rows : b_rows, of_a ? a_cols : b_cols,
                of_a ? a_ld : b_ld, of_a ? a_transposed : b_transposed, of_a ? a : b,
                of_a ? a_lines : b_lines, get_group_id(1) - (of_a ? 0 : a_groups),
                of_a ? a_scales : b_scales);
}
#undef PACK_BLOCK
#undef PACK_BM
#undef PACK_BN
#undef PACK_BK
#undef PACK_SPLIT
#endif

// ---------------------------------------------------------------------------------------------
// tc-tf32-wg: TF32 tensor-core GEMM on Hopper's warpgroup MMA (wgmma, PTX target sm_90a). A
// warpgroup (128 work-items, 4 warps) multiplies 64 x BN x 8 at a time, both operands read by the
// tensor cores straight from local memory through descriptors, asynchronously, and the operands
// reach local memory by bulk copies (cp.async.bulk): no value of A or B passes through
// registers. Work-group (128, BM/64): warpgroup y computes rows 64y ... 64y + 63 of the BM x BN
// block.
//
// NVIDIA's OpenCL compiler emits PTX for sm_90, where wgmma does not assemble; each wgmma
// instruction is therefore written behind the `//@arch-specific ` comment, and the host rebuilds
// the PTX without the comments for sm_90a (host/opencl/ptx_arch.hpp). Built any other way, the
// kernel multiplies nothing, and verification says so.
//
// The operands come packed: TF32 wgmma reads both k-major, and a bulk copy moves one contiguous
// range (cp.async, its predecessor, already lost half its throughput on row pieces of BK floats,
// docs/performance.md). So the helper pack_operand, run by the host before the GEMM in
// every repetition and timed with it, writes A (M x K) and B transposed (N x K) as tiles of
// BM x BK and BN x BK, each tile contiguous and already in the layout below, the K-steps of a row
// block one after another, padded with zeros to tile multiples and rounded to TF32 (as tc-tf32
// rounds). A K-step's copy is then a straight copy of one tile. C gets padding copies
// (copy_matrix) where M or N are not multiples of BM or BN; the kernel sees only exact
// problems.
//
// Local memory holds the tiles as "core matrices" of 8 rows x 4 k (128 contiguous bytes), the
// rows' core matrices adjacent: float (row, k) of a tile of R rows is at
// ((k/4) R/8 + row/8) 32 + (row%8) 4 + k%4. A descriptor gives the start, the bytes between core
// matrices along k (R x 16) and along the rows (128).
//
// Pipeline of STAGES local buffers, K-step t in buffer t % STAGES. Work-item 0 copies a K-step's
// tile of A and of B with one bulk copy each (the Tensor Memory Accelerator's one-dimensional copy:
// no instruction per 16 bytes, unlike cp.async), and the copies count their bytes on the buffer's
// mbarrier in local memory. At step t each work-item waits on the mbarrier of step t's buffer, its
// warpgroup issues step t's wgmmas and waits for step t - 1's (wgmma.wait_group 1), so the tensor
// cores always hold the next product; then the work-items meet at a barrier, past which every
// warpgroup is done with step t - 1's buffer, and work-item 0 refills it with step t - 1 + STAGES.
// The copies write through the async proxy, as the tensor cores read, so no proxy fence is needed.
// STAGES - 1 K-steps are in flight to local memory while one multiplies (refilling at the top of
// the step instead, before the wait, kept one fewer in flight and ran 11% slower:
// docs/performance.md). NVIDIA's OpenCL reports 48 KiB of local memory per work-group
// (CL_DEVICE_LOCAL_MEM_SIZE), which binds __local kernel arguments only: arrays declared in the
// kernel, as here, may take CUDA's per-block maximum (227 KiB on sm_90), and the host allows it.
//
// tc-3xtf32-wg (WG_3X), the FP32-accurate version, splits each value x into two TF32 parts, big =
// tf32(x) and small = tf32(x - big), and issues three wgmmas per 8-k step: small x big, big x
// small, big x big (small x small lies below FP32's rounding, as does what rounding small loses).
// Moving both parts of both operands would double the bytes per product, which the L2 cannot
// deliver at these rates (docs/performance.md), so only B travels as two planes (PACK_SPLIT); A
// comes unrounded, through the same ring, in the order of the wgmma's register fragments: each
// work-item reads its four values (rows g, g + 8 of its warp's 16, k t, t + 4), a float4 per 8-k
// step, splits them itself, and hands the parts to the wgmma in registers. (Loaded from global
// memory straight into registers, two K-steps ahead, A held this kernel at 100 TFLOP/s; from local
// memory it arrives in time: docs/performance.md.) As the wgmma reads those registers while it
// runs, the next split must wait for it: the wait (wgmma.wait_group 0) comes after the next step's
// reads of A from local memory, which the tensor cores overlap, and before the refill of the
// buffer those wgmmas read.
// The tensor cores' FP32 sums truncate, and over a long K that bias exceeds FP32's error
// (tc-tf32/tc-3xtf32's header), so they sum only CHUNK K-steps: then the work-item adds their sums
// to FP32 totals with ordinary, rounded adds, and the next wgmma starts a fresh sum (scale-d = 0).
// The totals take BN/2 more registers (144 in all at 64 x 128: three work-groups per
// multiprocessor). TOTALS_MEM = 1 keeps them in private memory instead (volatile, so the compiler
// cannot hold them in registers), for a round trip through the cache per chunk.
//
// tc-tf32-tma (WG_TMA_A), tc-tf32-wg without A's packing pass: work-item 0 copies A's K-step tile
// straight from the caller's row-major A (packed; padded or other shapes through copy_matrix) with
// a 2-D bulk tensor copy (cp.async.bulk.tensor), which the Tensor Memory Accelerator lays out as
// wgmma's k-major operand with the swizzle of BK x 4 bytes (32, 64 or 128): row r of the tile at
// r BK 4 bytes, its 16-byte pieces permuted by r. Only B is packed. The tensor map (host/opencl/
// tensor_map.hpp) is encoded by the CUDA driver on the host with a placeholder address, and
// set_tensor_map_address writes A's into it on the device before each GEMM. A reaches the tensor
// cores unrounded, which truncate it to TF32 (B stays rounded by the packing).
//
// tc-tf32-rs (WG_RS_A), tc-tf32-tma with A rounded as tc-tf32-wg rounds it, on chip: the wgmma
// takes A from registers. Each work-item reads its fragment of an 8-k block from the swizzled tile
// (wg_a_fragment), rounds it, and issues the block's wgmma; the next block's fragment is read while
// the wgmmas of the two blocks before it run (wgmma.wait_group 2, the loop of CUTLASS's Hopper
// mainloop for an A in registers). A register must not change while a wgmma in flight reads it, so
// the fragments rotate through four slices, one per block of a K-step: BK is 32. Each fragment is
// pinned where it is read (wg_pin_a): NVIDIA's compiler otherwise sinks the rounding past the
// ring's wait to the wgmma, and ptxas serialises the loop (C7513; 18% slower on the H200,
// docs/performance.md).
//
// tc-3xtf32-ws (WG_3X with WG_WS, below): tc-3xtf32-wg's arithmetic in tc-tf32-ws's pipeline. A
// comes by its tensor map, unsplit, and each work-item splits its fragment into big and small
// parts in registers (wg_a_parts), so only B is packed (two planes). Two warpgroups share each
// tile of B: blocks of 128 x 128, whose sums and FP32 totals take 128 registers per work-item
// (256 columns would take them all), where tc-3xtf32-wg's one warpgroup of 64 x 128 reads B's
// planes alone and meets the others at a barrier per K-step.
//
// tc-3xtf32-f16 (WG_F16, with WG_3X and WG_WS): tc-3xtf32-ws with its two small products in one
// FP16 wgmma, which does 16 k in the time TF32's takes for 8, so an 8-k block costs two TF32
// wgmmas' time instead of three. The big part of a value, tf32(x), has FP16's 11 significant
// bits, so it is exact in FP16 wherever FP16's range holds it, and the small part x - big rounded
// to FP16 keeps as many bits as TF32 would. Per 8-k block, k j of A becomes FP16 k 2j (big) and
// 2j + 1 (small), and of B 2j (small) and 2j + 1 (big): one m64nNk16 wgmma sums big x small +
// small x big, and a TF32 one big x big, into the same sums. In registers the pairs sit where
// TF32's fragment has its values (the FP16 fragment's register i holds k 2j, 2j + 1 of TF32
// value i's row and k j), and in local memory B's pair plane has its TF32 plane's layout and
// descriptor, four bytes per value. FP16's range: every line of A and B is first scaled by a power
// of two (line_scale) that puts its largest magnitude in [2^14, 2^15); the products of scaled
// values are then C times both powers, which the epilogue divides out, exactly. Within a line,
// values more than 2^17 below its largest have small parts below FP16's normal range, and lose
// their last bits there (2^-40 of the line's largest at worst).
// One line, followed by the defaults: the registry's test (Registry.DefaultsMatchKernelsCl) finds
// a kernel's section so.
// clang-format off
#if defined(KERNEL_gemm_tc_tf32_wg) || defined(KERNEL_gemm_tc_tf32_tma) || defined(KERNEL_gemm_tc_tf32_rs) || defined(KERNEL_gemm_tc_tf32_ws) || defined(KERNEL_gemm_tc_tf32_fused) || defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_3xtf32_ws) || defined(KERNEL_gemm_tc_3xtf32_f16)
#ifndef BM
#ifdef KERNEL_gemm_tc_3xtf32_wg
#define BM 64  // one warpgroup: its sums and totals take 128 registers per work-item at BN 128
#else
#define BM 128  // rows of C per work-group (a multiple of 64: one warpgroup per 64 rows)
#endif
#endif
// clang-format on
#ifndef BN
#if defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_3xtf32_ws) || \
    defined(KERNEL_gemm_tc_3xtf32_f16)
#define BN 128  // columns of C per work-group: 64 or 128 (the wgmma's N)
#else
#define BN 256  // columns of C per work-group: 64, 128 or 256 (the wgmma's N)
#endif
#endif
#ifndef BK
#ifdef KERNEL_gemm_tc_3xtf32_wg
#define BK 16  // K-step (a multiple of 8)
#else
#define BK 32
#endif
#endif
#ifndef STAGES
#if defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_3xtf32_ws) || \
    defined(KERNEL_gemm_tc_3xtf32_f16)
#define STAGES 4  // local buffers: 2 to 8 (STAGES - 1 K-steps in flight)
#else
#define STAGES 3  // 147 KiB of local memory at 128 x 256, BK 32: one work-group per multiprocessor
#endif
#endif
#ifndef GROUP_M
#define GROUP_M 16  // block rows per band of the swizzled work-group order
#endif
#ifndef CHUNK
#if defined(KERNEL_gemm_tc_3xtf32_ws) || defined(KERNEL_gemm_tc_3xtf32_f16)
#define CHUNK 2  // K-steps the tensor cores sum before the FP32 totals take them (64 k at BK 32)
#else
#define CHUNK 8  // tc-3xtf32-wg: K-steps the tensor cores sum before the FP32 totals take them
#endif
#endif
#ifndef TOTALS_MEM
#define TOTALS_MEM 0  // tc-3xtf32-wg: the FP32 totals in registers (0) or private memory (1)
#endif
#if defined(KERNEL_gemm_tc_3xtf32_wg) || defined(KERNEL_gemm_tc_3xtf32_ws) || \
    defined(KERNEL_gemm_tc_3xtf32_f16)
#define WG_3X 1
#else
#define WG_3X 0
#endif
#if defined(KERNEL_gemm_tc_tf32_tma) || defined(KERNEL_gemm_tc_tf32_rs) ||   \
    defined(KERNEL_gemm_tc_tf32_ws) || defined(KERNEL_gemm_tc_tf32_fused) || \
    defined(KERNEL_gemm_tc_3xtf32_ws) || defined(KERNEL_gemm_tc_3xtf32_f16)
#define WG_TMA_A 1
#else
#define WG_TMA_A 0
#endif
#if defined(KERNEL_gemm_tc_tf32_rs) || defined(KERNEL_gemm_tc_tf32_ws) ||      \
    defined(KERNEL_gemm_tc_tf32_fused) || defined(KERNEL_gemm_tc_3xtf32_ws) || \
    defined(KERNEL_gemm_tc_3xtf32_f16)
#define WG_RS_A 1
#else
#define WG_RS_A 0
#endif
#if defined(KERNEL_gemm_tc_tf32_ws) || defined(KERNEL_gemm_tc_tf32_fused) || \
    defined(KERNEL_gemm_tc_3xtf32_ws) || defined(KERNEL_gemm_tc_3xtf32_f16)
#define WG_WS 1
#else
#define WG_WS 0
#endif
#ifdef KERNEL_gemm_tc_tf32_fused
#define WG_FUSED 1
#else
#define WG_FUSED 0
#endif
#ifdef KERNEL_gemm_tc_3xtf32_f16
#define WG_F16 1
#else
#define WG_F16 0
#endif

// A __local pointer's value is its shared-window address, which PTX's shared-memory operands take.
inline uint wg_local_address(__local const void* p) { return (uint)(ulong)p; }

// The shared-memory descriptor of a k-major tile starting at p, without swizzling: the start
// address, the bytes between core matrices along k and along the rows, each in 16-byte units.
inline ulong wg_descriptor(__local const float* p, const uint k_bytes, const uint row_bytes) {
  const uint address = wg_local_address(p);
  return (ulong)((address & 0x3FFFFu) >> 4) | ((ulong)(k_bytes >> 4) << 16) |
         ((ulong)(row_bytes >> 4) << 32);
}

// The descriptor of a k-major tile the tensor copies laid out with the swizzle of BK x 4 bytes
// (tc-tf32-tma): rows of BK floats, 8-row atoms; the leading offset is unused (1), 8 rows between
// atoms, and the layout type names the swizzle (1: 128 bytes, 2: 64, 3: 32).
inline ulong wg_descriptor_swizzled(__local const float* p) {
  const ulong layout = BK == 32 ? 1 : BK == 16 ? 2 : 3;
  return (ulong)((wg_local_address(p) & 0x3FFFFu) >> 4) | ((ulong)1 << 16) |
         ((ulong)(8 * BK * 4 / 16) << 32) | (layout << 62);
}

// The ring (header). A K-step's tile of packed B: one plane, or two (tc-3xtf32-wg).
#define WG_B_FLOATS ((1 + WG_3X) * BN * BK)
// An mbarrier whose phase completes after `arrivals` arrivals (and the bytes they announce).
inline void wg_mbar_init(__local ulong* bar, const uint arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(wg_local_address(bar)),
               "r"(arrivals)
               : "memory");
}
// One arrival without bytes (tc-tf32-ws: a consumer warp done with a buffer).
inline void wg_mbar_arrive(__local ulong* bar) {
  asm volatile("{\n.reg .b64 state;\nmbarrier.arrive.shared::cta.b64 state, [%0];\n}\n" ::"r"(
                   wg_local_address(bar))
               : "memory");
}
// The arrival: the current phase completes once `bytes` more have landed.
inline void wg_mbar_expect(__local ulong* bar, const uint bytes) {
  asm volatile(
      "{\n.reg .b64 state;\nmbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}\n" ::"r"(
          wg_local_address(bar)),
      "r"(bytes)
      : "memory");
}
// Waits until the mbarrier's phase of parity `phase` has completed.
inline void wg_mbar_wait(__local ulong* bar, const uint phase) {
  uint done = 0;
  while (!done) {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(wg_local_address(bar)), "r"(phase)
        : "memory");
  }
}
// Before the first copy through `map`: set_tensor_map_address wrote it through the generic
// proxy, and the copies read it through the tensor-map proxy.
inline void wg_tensor_map_acquire(__global const ulong* map) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\n" ::"l"(map) : "memory");
}
// A box of the tensor map `map` (in global memory), its first element at column x, row y.
inline void wg_tensor_copy(__local float* dst, __global const ulong* map, const int x, const int y,
                           __local ulong* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], [%4];\n" ::"r"(wg_local_address(dst)),
      "l"(map), "r"(x), "r"(y), "r"(wg_local_address(bar))
      : "memory");
}
inline void wg_bulk_copy(__local float* dst, __global const float* src, const uint bytes,
                         __local ulong* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
      "[%3];\n" ::"r"(wg_local_address(dst)),
      "l"(src), "r"(bytes), "r"(wg_local_address(bar))
      : "memory");
}
// Where the K-steps' tiles of A come from: packed, one after another from `tiles`, or
// (tc-tf32-tma) the boxes of the tensor map `map` at rows `row` ... row + BM - 1.
typedef struct {
  __global const float* tiles;
  __global const ulong* map;
  int row;
} WgSourceA;

// Work-item 0 starts K-step `step`'s copies into buffer `buf`.
inline void wg_ring_copy(__local float (*As)[BM * BK], __local float (*Bs)[WG_B_FLOATS],
                         __local ulong* landed, const WgSourceA a, __global const float* b_tiles,
                         const int step, const int buf, const int tid) {
  if (tid == 0) {
    wg_mbar_expect(&landed[buf], sizeof(float) * (BM * BK + WG_B_FLOATS));
#if WG_TMA_A
    wg_tensor_copy(As[buf], a.map, step * BK, a.row, &landed[buf]);
#else
    wg_bulk_copy(As[buf], a.tiles + step * (BM * BK), sizeof(float) * BM * BK, &landed[buf]);
#endif
    wg_bulk_copy(Bs[buf], b_tiles + step * WG_B_FLOATS, sizeof(float) * WG_B_FLOATS, &landed[buf]);
  }
}
// Before the K-loop: the mbarriers, then the copies of the first STAGES K-steps, one per buffer.
inline void wg_ring_start(__local float (*As)[BM * BK], __local float (*Bs)[WG_B_FLOATS],
                          __local ulong* landed, const WgSourceA a,
                          __global const float* b_tiles, const int tiles, const int tid) {
  if (tid == 0) {
    _Pragma("unroll") for (int s = 0; s < STAGES; ++s) wg_mbar_init(&landed[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  _Pragma("unroll") for (int s = 0; s < STAGES; ++s) {
    if (s < tiles) wg_ring_copy(As, Bs, landed, a, b_tiles, s, s, tid);
  }
}
// The top of K-step `step`: waits until its buffer's copies have landed (the mbarrier completes a
// phase per pass through the ring). Returns the step's buffer.
inline int wg_ring_wait(__local ulong* landed, const int step) {
  const int buf = step % STAGES;
  wg_mbar_wait(&landed[buf], (step / STAGES) % 2);
  return buf;
}
// Called once the work-item's warpgroup has waited for the wgmmas of step - 1: past the barrier
// every warpgroup has, so step - 1's buffer takes the copies of step - 1 + STAGES. The ring then
// holds the STAGES - 1 K-steps after the one multiplying.
inline void wg_ring_refill(__local float (*As)[BM * BK], __local float (*Bs)[WG_B_FLOATS],
                           __local ulong* landed, const WgSourceA a,
                           __global const float* b_tiles, const int step, const int tiles,
                           const int tid) {
  const int next = step - 1 + STAGES;
  if (step >= 1 && next < tiles) {
    barrier(CLK_LOCAL_MEM_FENCE);
    wg_ring_copy(As, Bs, landed, a, b_tiles, next, next % STAGES, tid);
  }
}

inline void wg_fence() {
  asm volatile("//@arch-specific wgmma.fence.sync.aligned;\n" ::: "memory");
}
inline void wg_commit() {
  asm volatile("//@arch-specific wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
inline void wg_wait_all() {
  asm volatile("//@arch-specific wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
inline void wg_wait_all_but_last() {
  asm volatile("//@arch-specific wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
}
inline void wg_wait_all_but_two() {
  asm volatile("//@arch-specific wgmma.wait_group.sync.aligned 2;\n" ::: "memory");
}
// Keeps the compiler from reading an accumulator before the wgmma that writes it has finished.
inline void wg_pin(float* d) { asm volatile("" : "+f"(*d)::"memory"); }
// Keeps the compiler from computing a register-A fragment later than here: NVIDIA's compiler
// sinks the rounding to the wgmma that reads it, past the ring's wait loop, and ptxas then
// serialises every wgmma of the loop (C7513).
inline void wg_pin_a(uint4* a) {
  asm volatile("" : "+r"(a->x), "+r"(a->y), "+r"(a->z), "+r"(a->w)::"memory");
}

// The wgmma wrappers' accumulator operands, d[0 ... N/2 - 1]: their place in the output list
// (WG_D) and their numbers in the instruction's text (WG_R), for N = 64, 128, 256.
#define WG_D8(i)                                                                              \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define WG_D32 WG_D8(0), WG_D8(8), WG_D8(16), WG_D8(24)
#define WG_D64 WG_D32, WG_D8(32), WG_D8(40), WG_D8(48), WG_D8(56)
#define WG_D128 \
  WG_D64, WG_D8(64), WG_D8(72), WG_D8(80), WG_D8(88), WG_D8(96), WG_D8(104), WG_D8(112), WG_D8(120)
#define WG_R32                                                           \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" \
  ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_R64                                                                       \
  WG_R32                                                                             \
  ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47" \
  ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_R128                                                                                  \
  WG_R64                                                                                         \
  ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"             \
  ", %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"             \
  ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111" \
  ", %112, %113, %114, %115, %116, %117, %118, %119"                                             \
  ", %120, %121, %122, %123, %124, %125, %126, %127"

// d (64 x N in the warpgroup's fragments) = A (64 x 8) * B (8 x N), plus d where `accumulate`,
// N = 64, 128, 256: each lane of warp w holds, for n8 block j, d[4j ... 4j+3] = rows 16w + g,
// 16w + g + 8, columns 8j + 2t, +1.
inline void wg_mma_n64(float* d, const ulong a, const ulong b, const int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "//@arch-specific wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {" WG_R32
      "}, %32, %33, p, 1, 1;\n}\n"
      : WG_D32
      : "l"(a), "l"(b), "r"(accumulate));
}
inline void wg_mma_n128(float* d, const ulong a, const ulong b, const int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "//@arch-specific wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" WG_R64
      "}, %64, %65, p, 1, 1;\n}\n"
      : WG_D64
      : "l"(a), "l"(b), "r"(accumulate));
}
inline void wg_mma_n256(float* d, const ulong a, const ulong b, const int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "//@arch-specific wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" WG_R128
      "}, %128, %129, p, 1, 1;\n}\n"
      : WG_D128
      : "l"(a), "l"(b), "r"(accumulate));
}
#define WG_CAT(a, b) a##b
#define WG_MMA(n) WG_CAT(wg_mma_n, n)

// The wgmma wrappers with A in registers: `name` runs `instr` (its shape and types) on the N/2
// accumulators of `regs` = N/2 (WG_D, WG_R), A's four 32-bit registers (WG_RA_A: the operands
// after the accumulators) and B's descriptor, scale-d from `accumulate` (operand WG_RA_P);
// `tail` is what the instruction takes after the scales of A and B (1, 1). The preprocessor
// cannot number the operands, so each N names its own.
#define WG_RA_A32 "{%32, %33, %34, %35}, %36"
#define WG_RA_P32 "%37"
#define WG_RA_A64 "{%64, %65, %66, %67}, %68"
#define WG_RA_P64 "%69"
#define WG_RA_A128 "{%128, %129, %130, %131}, %132"
#define WG_RA_P128 "%133"
#define WG_MMA_RA_DEFINE(name, instr, regs, tail)                                       \
  inline void name(float* d, const uint4 a, const ulong b, const int accumulate) {      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " WG_RA_P##regs                      \
                 ", 0;\n"                                                               \
                 "//@arch-specific wgmma.mma_async.sync.aligned." instr " {" WG_R##regs \
                 "}, " WG_RA_A##regs ", p, 1, 1" tail ";\n}\n"                          \
                 : WG_D##regs                                                           \
                 : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b), "r"(accumulate));    \
  }

// d (as above) = A (64 x 8) * B (8 x N), plus d where `accumulate`, A in registers: this
// work-item's four TF32 values a, rows g, g + 8 of its warp's 16, k t, t + 4 (a.x: g, t;
// a.y: g + 8, t; a.z: g, t + 4; a.w: g + 8, t + 4).
WG_MMA_RA_DEFINE(wg_mma_ra_n64, "m64n64k8.f32.tf32.tf32", 32, "")
WG_MMA_RA_DEFINE(wg_mma_ra_n128, "m64n128k8.f32.tf32.tf32", 64, "")
WG_MMA_RA_DEFINE(wg_mma_ra_n256, "m64n256k8.f32.tf32.tf32", 128, "")
#define WG_MMA_RA(n) WG_CAT(wg_mma_ra_n, n)

#if WG_F16
// d (as above) = A (64 x 16) * B (16 x N), plus d where `accumulate`, FP16 operands: A in
// registers, four pairs of k 2j, 2j + 1 (low half first) in wg_mma_ra's order of rows and j; B
// k-major in local memory, untransposed (the tail's imm-trans-b 0).
WG_MMA_RA_DEFINE(wg_mma_f16_ra_n64, "m64n64k16.f32.f16.f16", 32, ", 0")
WG_MMA_RA_DEFINE(wg_mma_f16_ra_n128, "m64n128k16.f32.f16.f16", 64, ", 0")
#define WG_MMA_F16_RA(n) WG_CAT(wg_mma_f16_ra_n, n)
#endif

// A work-item's warpgroup, and its place in it (0 ... 127): work-groups of (128, BM/64), or
// tc-tf32-ws's (32, warps), whose first 4 BM/64 warps are the warpgroups.
inline int wg_group() { return WG_WS ? get_local_id(1) / 4 : get_local_id(1); }
inline int wg_item() {
  return WG_WS ? (get_local_id(1) % 4) * 32 + get_local_id(0) : get_local_id(0);
}

// C's BM x BN block from the warpgroups' fragments r: alpha r + beta C.
inline void wg_store_c(__global float* C, const int N, const int row0, const int col0,
                       const float alpha, const float beta, const float* r) {
  const int lane = wg_item() % 32, warp = wg_item() / 32;
  const int g = lane / 4, t = lane % 4;
  _Pragma("unroll") for (int h = 0; h < 2; ++h) {
    const int row = row0 + 64 * wg_group() + 16 * warp + 8 * h + g;
    _Pragma("unroll") for (int j = 0; j < BN / 8; ++j) {
      __global float2* c2 = (__global float2*)(C + row * N + col0 + 8 * j + 2 * t);
      float2 v = alpha * (float2)(r[4 * j + 2 * h], r[4 * j + 2 * h + 1]);
      if (beta != 0.0f) v += beta * *c2;
      *c2 = v;
    }
  }
}

#if WG_RS_A
// tc-tf32-rs: this work-item's wgmma fragment of A's 8-k block s (rows r, r + 8, k t and t + 4 of
// the block, wg_mma_ra's order), rounded to TF32, from a tile the tensor copies swizzled with 128
// bytes (BK 32): float (row, k) at row BK + ((k/4) ^ (row % 8)) 4 + k % 4. Rows r and r + 8 share
// r % 8 = g, so a warp's 32 reads of one value fall in 32 different banks.
inline float4 wg_a_values(__local const float* tile, const int r, const int g, const int t,
                          const int s) {
  const int c0 = 4 * ((2 * s) ^ g) + t, c1 = 4 * ((2 * s + 1) ^ g) + t;
  return (float4)(tile[r * BK + c0], tile[(r + 8) * BK + c0], tile[r * BK + c1],
                  tile[(r + 8) * BK + c1]);
}
inline uint4 wg_a_fragment(__local const float* tile, const int r, const int g, const int t,
                           const int s) {
  uint4 a = as_uint4(tc_tf32_4(wg_a_values(tile, r, g, t, s)));
  wg_pin_a(&a);
  return a;
}
#endif

#if WG_3X
// The big parts of four values, and the small ones: x - big is exact, and rounded to TF32 too.
inline uint4 wg_big(const float4 x) { return as_uint4(tc_tf32_4(x)); }
inline uint4 wg_small(const float4 x, const uint4 big) {
  return as_uint4(tc_tf32_4(x - as_float4(big)));
}
#endif
#if WG_F16
// x as the FP16 pair (big, small): big in the low half (k 2j), small in the high one.
inline uint wg_f16_pair(const float big, const float small) {
  uint d;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(small), "f"(big));
  return d;
}
// tc-3xtf32-f16: four values' pairs, from their big parts (x - big is exact).
inline uint4 wg_f16_pairs(const float4 x, const uint4 big) {
  const float4 b = as_float4(big), small = x - b;
  return (uint4)(wg_f16_pair(b.x, small.x), wg_f16_pair(b.y, small.y), wg_f16_pair(b.z, small.z),
                 wg_f16_pair(b.w, small.w));
}
#endif
#if WG_3X && WG_RS_A
// tc-3xtf32-ws: the fragment's two parts, pinned where they are read, as wg_a_fragment's.
// tc-3xtf32-f16: the values first scaled by their rows' powers (`scale`: rows r, r + 8), and the
// second part the FP16 pairs.
inline void wg_a_parts(__local const float* tile, const int r, const int g, const int t,
                       const int s, const float2 scale, uint4* big, uint4* small) {
#if WG_F16
  const float4 x = wg_a_values(tile, r, g, t, s) * (float4)(scale.x, scale.y, scale.x, scale.y);
  *big = wg_big(x);
  *small = wg_f16_pairs(x, *big);
#else
  const float4 x = wg_a_values(tile, r, g, t, s);
  *big = wg_big(x);
  *small = wg_small(x, *big);
#endif
  wg_pin_a(big);
  wg_pin_a(small);
}
#endif
#if WG_F16
// 1 / x for a power of two x = 2^p, |p| <= 126 (line_scale's): exact, with no division.
inline float wg_inverse_power(const float x) { return as_float((254u << 23) - as_uint(x)); }
// The sums of the block at (row0, col0) unscaled by their rows' and columns' powers (d in
// wg_store_c's order: rows r + 8h, columns 8j + 2t, +1), A's first, each product exact.
inline void wg_unscale(float* d, __global const float* a_scales, __global const float* b_scales,
                       const int row0, const int col0, const int r, const int t) {
  const float2 rows =
      (float2)(wg_inverse_power(a_scales[row0 + r]), wg_inverse_power(a_scales[row0 + r + 8]));
  _Pragma("unroll") for (int j = 0; j < BN / 8; ++j) {
    const float2 cols = (float2)(wg_inverse_power(b_scales[col0 + 8 * j + 2 * t]),
                                 wg_inverse_power(b_scales[col0 + 8 * j + 2 * t + 1]));
    d[4 * j] = d[4 * j] * rows.x * cols.x;
    d[4 * j + 1] = d[4 * j + 1] * rows.x * cols.y;
    d[4 * j + 2] = d[4 * j + 2] * rows.y * cols.x;
    d[4 * j + 3] = d[4 * j + 3] * rows.y * cols.y;
  }
}
#endif

#if !WG_3X || WG_WS
#if WG_WS
// tc-tf32-ws: tc-tf32-rs's loop, warp-specialised (CUTLASS's Hopper kernels, cuBLAS's TF32
// kernel): a producer warp issues the copies (A by its tensor map, B's packed tile) into a ring
// of STAGES buffers, each with a `full` mbarrier (the bytes landed) and an `empty` one (every
// consumer warp done with it). The warpgroups wait only for the data they read and free each
// buffer with an arrival per warp, where tc-tf32-rs's warpgroups met at a barrier per K-step for
// work-item 0 to refill it. Work-group (32, 4 BM/64 + 4): the warpgroups' warps, then a copying
// warpgroup of the producer and three more warps (which return at once: setmaxnreg takes whole
// warpgroups, and tc-tf32-fused gives them work). At BM 128 ptxas gives each of the 384
// work-items 168 registers, where the warpgroups' loop needs 200, so the copying warpgroup hands
// registers over (setmaxnreg: 104 for it, 200 for the others; the host adds the
// `.minnctapersm 1` without which ptxas ignores setmaxnreg). BM is 64 or 128.
//
// tc-tf32-fused (WG_FUSED): tc-tf32-ws with B's packing done inside the GEMM, overlapped with the
// products, instead of by the packing pass (12% of tc-tf32-rs's time at 4096^3). The three other
// warps of the copying warpgroup pack: each takes B's chunks (a K-step's BN x BK tile of one block
// column, packed as pack_operand packs it) from a counter shared by the whole launch, packs each
// from B as stored and raises the chunk's flag; the producer copies a K-step's B once its flag is
// raised. Chunks go to whichever work-group asks next, so the first wave packs all of B while it
// multiplies, and a chunk that a work-group waits for is either taken by a running packer or
// will be by its own packers: none ever waits for one that is not running (no deadlock however
// many work-groups run at once).
// `state`, ints zeroed when allocated: [0] launches so far, [1] the chunk counter, [2] the
// packing warps finished, then a flag per chunk, N/BN block columns of K/BK K-steps. A chunk of
// this launch is packed when its flag equals the launch's number (state[0] + 1, so no reset of
// the flags is needed); the last packing warp to finish resets the counters and advances
// state[0], after everyone has read it. Packing writes through the generic proxy and the bulk
// copies read through the async proxy: the packer fences the proxies before it raises a flag,
// the producer after it has read one.
#define WG_WS_WARPS (4 * (BM / 64))  // the warpgroups' warps; then the copying warpgroup
#define WG_FUSED_PACKERS 3
// Registers per work-item after setmaxnreg at BM 128, where ptxas gives each of the 384 168 (its
// total, 384 x 168, is what the two counts share out): tc-tf32-fused's packers need 104;
// tc-3xtf32-ws's copying warpgroup only copies, and its warpgroups need the most for two sets of
// BN / 2 floats (sums and totals), so 40 and 232 (CUTLASS's split for a producer warpgroup).
#if WG_3X
#define WG_WS_GIVER_REGS 40
#define WG_WS_TAKER_REGS 232
#else
#define WG_WS_GIVER_REGS 104
#define WG_WS_TAKER_REGS 200
#endif
#define WG_STR2(n) #n
#define WG_STR(n) WG_STR2(n)

#if WG_FUSED
// Warp-wide value of lane 0 (the packer's chunk number).
inline int wg_lane0(const int v) {
  int r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;\n" : "=r"(r) : "r"(v));
  return r;
}
// The lanes where `p` holds, a bit each.
inline uint wg_ballot(const int p) {
  uint b;
  asm volatile(
      "{\n.reg .pred q;\nsetp.ne.s32 q, %1, 0;\nvote.sync.ballot.b32 %0, q, 0xffffffff;\n}\n"
      : "=r"(b)
      : "r"(p));
  return b;
}
inline int wg_load_relaxed(__global const int* p) {
  int v;
  asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
inline void wg_store_release(__global int* p, const int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
#endif

#if WG_FUSED
// The producer warp: K-steps packed from `step` on, as far as 32 flags read at once tell
// (`flags` holds this block column's, `tiles` of them). Waits until `step`'s is raised.
inline int wg_packed_through(__global const int* flags, const int step, const int tiles,
                             const int launch, const int lane) {
  uint ready;
  do {
    const int at = step + lane;
    ready = wg_ballot(at < tiles && wg_load_relaxed(flags + at) == launch);
  } while ((ready & 1u) == 0);
  // The flags were read relaxed: the fence makes them an acquire (of the packers' releases), and
  // the proxy fence lets the bulk copies that follow see the packed values.
  asm volatile("fence.acq_rel.gpu;\nfence.proxy.async.global;\n" ::: "memory");
  return step + popcount(ready & ~(ready + 1u));  // the run of raised flags from `step`
}

// 16-byte accesses of the packers, cache-streaming (evicted first): B as stored is read once, and
// packed B written by the first wave's packers would otherwise push the tiles that the
// warpgroups reuse out of the L2. With plain accesses tc-tf32-fused ran 304 TFLOP/s at 4096^3 on
// the H200 (the warpgroups not waiting for the packers: 304 too); with these, 362
// (docs/performance.md).
inline float4 wg_load_once(__global const float* p) {
  float4 v;
  asm("ld.global.cs.v4.f32 {%0, %1, %2, %3}, [%4];\n"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p));
  return v;
}
inline void wg_store_once(__global float* p, const float4 v) {
  asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "f"(v.x), "f"(v.y),
               "f"(v.z), "f"(v.w)
               : "memory");
}

// The packing warp: chunk (block column j, K-step t) of B as stored (K x N: b_rows x b_cols,
// element (k, n) at transposed ? n ld + k : k ld + n) into its packed tile at `dst`,
// rounded, zeros outside B. Wholly inside B with 16-byte aligned lines, 4 x 4 blocks of 16-byte
// loads (untransposed: lanes along n, each block transposed in registers) or 16-byte chunks along
// k (transposed); the edges and other lds a value at a time, lanes along B's lines.
inline void wg_pack_chunk(__global const float* restrict b, const int b_rows, const int b_cols,
                          const int ld, const int transposed, __global float* restrict dst,
                          const int j, const int t, const int lane) {
  const int n0 = j * BN, k0 = t * BK;
  const int op_ns = b_cols, op_ks = b_rows;
  if (ld % 4 == 0 && n0 + BN <= op_ns && k0 + BK <= op_ks) {
    if (!transposed) {
      // (BK/4) x (BN/4) blocks of 4 k x 4 n; a warp's 32 blocks of one row of blocks per load,
      // two blocks (eight loads) in flight per lane, which the packer's 104 registers hold.
      _Pragma("unroll 1") for (int round = 0; round < (BK / 4) * (BN / 4) / 32 / 2; ++round) {
        float4 v[2][4];
        _Pragma("unroll") for (int i = 0; i < 2; ++i) {
          const int block = (round * 2 + i) * 32 + lane;
          const int kq = block / (BN / 4), nq = block % (BN / 4);
          _Pragma("unroll") for (int e = 0; e < 4; ++e) v[i][e] =
              wg_load_once(b + (k0 + 4 * kq + e) * ld + n0 + 4 * nq);
        }
        _Pragma("unroll") for (int i = 0; i < 2; ++i) {
          const int block = (round * 2 + i) * 32 + lane;
          const int kq = block / (BN / 4), nq = block % (BN / 4);
          wg_store_once(dst + wg_at(BN, 4 * nq, kq),
                        tc_tf32_4((float4)(v[i][0].x, v[i][1].x, v[i][2].x, v[i][3].x)));
          wg_store_once(dst + wg_at(BN, 4 * nq + 1, kq),
                        tc_tf32_4((float4)(v[i][0].y, v[i][1].y, v[i][2].y, v[i][3].y)));
          wg_store_once(dst + wg_at(BN, 4 * nq + 2, kq),
                        tc_tf32_4((float4)(v[i][0].z, v[i][1].z, v[i][2].z, v[i][3].z)));
          wg_store_once(dst + wg_at(BN, 4 * nq + 3, kq),
                        tc_tf32_4((float4)(v[i][0].w, v[i][1].w, v[i][2].w, v[i][3].w)));
        }
      }
    } else {
      // BN lines of BK/4 chunks; 8 in flight per lane.
      _Pragma("unroll 1") for (int round = 0; round < BN * (BK / 4) / 32 / 8; ++round) {
        float4 v[8];
        _Pragma("unroll") for (int i = 0; i < 8; ++i) {
          const int chunk = (round * 8 + i) * 32 + lane;
          v[i] = wg_load_once(b + (n0 + chunk / (BK / 4)) * ld + k0 + 4 * (chunk % (BK / 4)));
        }
        _Pragma("unroll") for (int i = 0; i < 8; ++i) {
          const int chunk = (round * 8 + i) * 32 + lane;
          wg_store_once(dst + wg_at(BN, chunk / (BK / 4), chunk % (BK / 4)), tc_tf32_4(v[i]));
        }
      }
    }
  } else {
    _Pragma("unroll 8") for (int e = lane; e < BN * BK; e += 32) {
      const int n = transposed ? e / BK : e % BN, k = transposed ? e % BK : e / BN;
      const float v = pack_load(b, transposed, ld, op_ns, op_ks, n0 + n, k0 + k);
      dst[wg_at(BN, n, k / 4) + k % 4] = as_float(tc_tf32(v));
    }
  }
}

#endif  // WG_FUSED

#if WG_FUSED
__kernel __attribute__((reqd_work_group_size(32, WG_WS_WARPS + 4, 1))) void gemm_tc_tf32_fused(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global float* restrict B, __global float* C,
    __global const ulong* a_map, __global const float* restrict b_stored, const int b_rows,
    const int b_cols, const int b_ld, const int b_transposed, __global int* state) {
#elif WG_F16
// a_scales and b_scales: line_scale's powers of A's M rows and B's N columns.
__kernel __attribute__((reqd_work_group_size(32, WG_WS_WARPS + 4, 1))) void gemm_tc_3xtf32_f16(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C,
    __global const ulong* a_map, __global const float* restrict a_scales,
    __global const float* restrict b_scales) {
#elif WG_3X
__kernel __attribute__((reqd_work_group_size(32, WG_WS_WARPS + 4, 1))) void gemm_tc_3xtf32_ws(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C,
    __global const ulong* a_map) {
#else
__kernel __attribute__((reqd_work_group_size(32, WG_WS_WARPS + 4, 1))) void gemm_tc_tf32_ws(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C,
    __global const ulong* a_map) {
#endif
  __local float As[STAGES][BM * BK] __attribute__((aligned(1024)));
  __local float Bs[STAGES][WG_B_FLOATS] __attribute__((aligned(128)));
  __local ulong full[STAGES], empty[STAGES];  // the buffers' mbarriers (header)
#if WG_FUSED
  __local int launch_number;
#endif

  const int warp = get_local_id(1), lane = get_local_id(0);
  const int2 block = swizzled_block(GROUP_M);
  const int tiles = K / BK;
  // A by its tensor map at rows block.x BM ..., B's packed tiles of block column block.y.
  WgSourceA a;
  a.tiles = A;  // unused: A comes by tensor copies
  a.map = a_map;
  a.row = block.x * BM;
  __global const float* b_tiles = B + block.y * tiles * WG_B_FLOATS;
  if (warp == 0 && lane == 0) {
    _Pragma("unroll") for (int s = 0; s < STAGES; ++s) {
      wg_mbar_init(&full[s], 1);
      wg_mbar_init(&empty[s], WG_WS_WARPS);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#if WG_FUSED
    launch_number = state[0] + 1;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#if WG_FUSED
  const int launch = launch_number;
  __global int* flags = state + 3;
#endif

  if (warp < WG_WS_WARPS) {
#if BM == 128
    asm volatile(
        "//@arch-specific setmaxnreg.inc.sync.aligned.u32 " WG_STR(WG_WS_TAKER_REGS) ";\n" ::
            : "memory");
#endif
#if WG_3X
    // tc-3xtf32-ws's consumers: the loop below with three wgmmas per 8-k block, their A parts
    // split from the fragment (wg_a_parts), and tc-3xtf32-wg's chunks: the tensor cores sum
    // CHUNK K-steps in `acc`, which then joins the FP32 totals with rounded adds, and the next
    // wgmma starts a fresh sum. Joining waits for every wgmma in flight; the two warpgroups join
    // half a chunk apart, so that one keeps the tensor cores busy while the other waits.
    float acc[BN / 2], total[BN / 2];
    _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) {
      acc[i] = 0.0f;
      total[i] = 0.0f;
    }
    const int g = lane / 4, t = lane % 4;
    const int r = wg_group() * 64 + 16 * (wg_item() / 32) + g;  // rows r and r + 8
    const int phase = wg_group() * (CHUNK / 2);
#if WG_F16
    const float2 scale = (float2)(a_scales[block.x * BM + r], a_scales[block.x * BM + r + 8]);
#else
    const float2 scale = (float2)(1.0f, 1.0f);  // unscaled
#endif
    uint4 big[BK / 8], small[BK / 8];  // tc-3xtf32-f16: small[] holds the FP16 pairs
    wg_a_parts(As[wg_ring_wait(full, 0)], r, g, t, 0, scale, &big[0], &small[0]);
    for (int step = 0; step < tiles; ++step) {
      const int buf = step % STAGES;
      const int fresh = step > 0 && (step + phase) % CHUNK == 0;  // a chunk starts
      _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
        if (s + 1 < BK / 8) {
          wg_a_parts(As[buf], r, g, t, s + 1, scale, &big[s + 1], &small[s + 1]);
        } else if (step + 1 < tiles) {
          wg_a_parts(As[wg_ring_wait(full, step + 1)], r, g, t, 0, scale, &big[0], &small[0]);
        }
        if (s == 0 && fresh) {
          wg_wait_all();
          _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) {
            wg_pin(&acc[i]);
            total[i] += acc[i];
          }
        }
        wg_fence();
        const ulong b_big = wg_descriptor(&Bs[buf][8 * s * BN], BN * 16, 128);
        const ulong b_small = wg_descriptor(&Bs[buf][BN * BK + 8 * s * BN], BN * 16, 128);
        // The small terms first, into a fresh sum where a chunk starts.
#if WG_F16
        // b_small is B's pair plane: big x small + small x big in one FP16 wgmma.
        WG_MMA_F16_RA(BN)(acc, small[s], b_small, s > 0 || !fresh);
#else
        WG_MMA_RA(BN)(acc, small[s], b_big, s > 0 || !fresh);
        WG_MMA_RA(BN)(acc, big[s], b_small, 1);
#endif
        WG_MMA_RA(BN)(acc, big[s], b_big, 1);
        wg_commit();
        wg_wait_all_but_two();
        if (s == 1 && step >= 1 && lane == 0) wg_mbar_arrive(&empty[(step - 1) % STAGES]);
      }
    }
    wg_wait_all();
    _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) {
      wg_pin(&acc[i]);
      acc[i] += total[i];
    }
#if WG_F16
    wg_unscale(acc, a_scales, b_scales, block.x * BM, block.y * BN, r, t);
#endif
    wg_store_c(C, N, block.x * BM, block.y * BN, alpha, beta, acc);
    return;
#else
    // The consumers: tc-tf32-rs's loop, the refill replaced by an arrival on the buffer's empty
    // mbarrier once the warp's wgmmas of step - 1 are done.
    float acc[BN / 2];
    _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;
    const int g = lane / 4, t = lane % 4;
    const int r = wg_group() * 64 + 16 * (wg_item() / 32) + g;  // rows r and r + 8
    uint4 a_regs[BK / 8];
    a_regs[0] = wg_a_fragment(As[wg_ring_wait(full, 0)], r, g, t, 0);
    for (int step = 0; step < tiles; ++step) {
      const int buf = step % STAGES;
      _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
        if (s + 1 < BK / 8) {
          a_regs[s + 1] = wg_a_fragment(As[buf], r, g, t, s + 1);
        } else if (step + 1 < tiles) {
          a_regs[0] = wg_a_fragment(As[wg_ring_wait(full, step + 1)], r, g, t, 0);
        }
        wg_fence();
        WG_MMA_RA(BN)
        (acc, a_regs[s], wg_descriptor(&Bs[buf][2 * s * (BN / 8) * 32], BN * 16, 128), 1);
        wg_commit();
        wg_wait_all_but_two();
        if (s == 1 && step >= 1 && lane == 0) wg_mbar_arrive(&empty[(step - 1) % STAGES]);
      }
    }
    wg_wait_all();
    _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) wg_pin(&acc[i]);
    wg_store_c(C, N, block.x * BM, block.y * BN, alpha, beta, acc);
    return;
#endif  // WG_3X
  }
#if BM == 128
  asm volatile("//@arch-specific setmaxnreg.dec.sync.aligned.u32 " WG_STR(WG_WS_GIVER_REGS) ";\n" ::
                   : "memory");
#endif
  if (warp == WG_WS_WARPS) {
    // The producer.
    if (lane == 0) wg_tensor_map_acquire(a_map);
#if WG_FUSED
    __global const int* column_flags = flags + block.y * tiles;
    int packed = 0;  // K-steps known packed
#endif
    for (int step = 0; step < tiles; ++step) {
      const int buf = step % STAGES;
      if (step >= STAGES) wg_mbar_wait(&empty[buf], (step / STAGES - 1) % 2);
#if WG_FUSED
      if (step >= packed) packed = wg_packed_through(column_flags, step, tiles, launch, lane);
#endif
      wg_ring_copy(As, Bs, full, a, b_tiles, step, buf, lane);  // by lane 0
    }
  } else {
#if WG_FUSED
    // The packer: chunks until none is left, then the launch's bookkeeping. The chunks go in the
    // order the first wave needs them: K-step by K-step over the block columns it computes (one
    // work-group per multiprocessor; swizzled_block's order), then the same over the others.
    const int blocks_n = N / BN, chunks = blocks_n * tiles;
    uint multiprocessors;
    asm("mov.u32 %0, %%nsmid;\n" : "=r"(multiprocessors));
    const int band_rows = min(GROUP_M, (int)get_num_groups(1));
    const int first = min(blocks_n, ((int)multiprocessors + band_rows - 1) / band_rows);
    for (;;) {
      const int c = wg_lane0(lane == 0 ? atomic_inc(state + 1) : 0);
      if (c >= chunks) break;
      const int later = c - first * tiles;  // the chunk's place among the other columns'
      const int t = later < 0 ? c / first : later / (blocks_n - first);
      const int j = later < 0 ? c % first : first + later % (blocks_n - first);
      wg_pack_chunk(b_stored, b_rows, b_cols, b_ld, b_transposed, B + (j * tiles + t) * (BN * BK),
                    j, t, lane);
      // Each lane's stores before the warp's flag, and visible to the bulk copies (header).
      asm volatile("fence.proxy.async.global;\nbar.warp.sync 0xffffffff;\n" ::: "memory");
      if (lane == 0) wg_store_release(flags + j * tiles + t, launch);
    }
    const int packers = WG_FUSED_PACKERS * get_num_groups(0) * get_num_groups(1);
    if (lane == 0 && atomic_inc(state + 2) == packers - 1) {
      state[1] = 0;
      state[2] = 0;
      state[0] = launch;
    }
#endif
  }
}
#undef WG_WS_WARPS
#undef WG_FUSED_PACKERS
#undef WG_WS_GIVER_REGS
#undef WG_WS_TAKER_REGS
#undef WG_STR2
#undef WG_STR
#else
// tc-tf32-wg, and tc-tf32-tma and tc-tf32-rs, which take A's tensor map as one more argument.
#if WG_TMA_A
#if WG_RS_A
__kernel __attribute__((reqd_work_group_size(128, BM / 64, 1))) void gemm_tc_tf32_rs(
#else
__kernel __attribute__((reqd_work_group_size(128, BM / 64, 1))) void gemm_tc_tf32_tma(
#endif
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C,
    __global const ulong* a_map) {
  // A swizzled by the tensor copies (its header), B transposed in core matrices (header); the
  // swizzle repeats every 8 rows, so its atoms start at multiples of 8 x BK x 4 bytes (1024).
  __local float As[STAGES][BM * BK] __attribute__((aligned(1024)));
#else
__kernel __attribute__((reqd_work_group_size(128, BM / 64, 1))) void gemm_tc_tf32_wg(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  // A and B transposed, core matrices (header).
  __local float As[STAGES][BM * BK] __attribute__((aligned(128)));
#endif
  __local float Bs[STAGES][WG_B_FLOATS] __attribute__((aligned(128)));
  __local ulong landed[STAGES];  // the buffers' mbarriers

  const int warpgroup = get_local_id(1);
  const int tid = warpgroup * 128 + get_local_id(0);

  const int2 block = swizzled_block(GROUP_M);
  // A K-step's tiles are contiguous (pack_operand): A's of block row block.x, B's of block
  // column block.y, one tile per K-step.
  WgSourceA a;
  a.tiles = A + block.x * (K / BK) * (BM * BK);
  a.map = 0;
  a.row = block.x * BM;
#if WG_TMA_A
  a.map = a_map;
  if (tid == 0) wg_tensor_map_acquire(a_map);
#endif
  __global const float* b_tiles = B + block.y * (K / BK) * WG_B_FLOATS;

  float acc[BN / 2];  // the tensor cores' sums (fragments, above)
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;

  const int tiles = K / BK;
  wg_ring_start(As, Bs, landed, a, b_tiles, tiles, tid);
#if WG_RS_A
  // A's fragments (header): slice s of `a_regs` holds 8-k block s of the K-step multiplying, and
  // is loaded from local memory while the wgmmas of blocks s - 1 and s - 2 run.
  const int lane = get_local_id(0) % 32;
  const int g = lane / 4, t = lane % 4;
  const int r = warpgroup * 64 + 16 * (get_local_id(0) / 32) + g;  // rows r and r + 8
  uint4 a_regs[BK / 8];
  a_regs[0] = wg_a_fragment(As[wg_ring_wait(landed, 0)], r, g, t, 0);
  for (int step = 0; step < tiles; ++step) {
    const int buf = step % STAGES;
    _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
      // The next block's slice, before the fence that tells the wgmmas registers have changed.
      if (s + 1 < BK / 8) {
        a_regs[s + 1] = wg_a_fragment(As[buf], r, g, t, s + 1);
      } else if (step + 1 < tiles) {
        a_regs[0] = wg_a_fragment(As[wg_ring_wait(landed, step + 1)], r, g, t, 0);
      }
      wg_fence();
      WG_MMA_RA(BN)(acc, a_regs[s], wg_descriptor(&Bs[buf][2 * s * (BN / 8) * 32], BN * 16, 128),
                    1);
      wg_commit();
      // Two blocks' wgmmas stay in flight; none of them reads the slice loaded next.
      wg_wait_all_but_two();
      // Past block 1's wait, every wgmma of step - 1 is done: its buffer can be refilled.
      if (s == 1) wg_ring_refill(As, Bs, landed, a, b_tiles, step, tiles, tid);
    }
  }
#else
  for (int step = 0; step < tiles; ++step) {
    const int buf = wg_ring_wait(landed, step);
    wg_fence();
    _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
      const int b_at = 2 * s * (BN / 8) * 32;
#if WG_TMA_A
      // The warpgroup's 64 rows, then 8 k (32 bytes) further along them per 8-k step.
      const ulong a_desc = wg_descriptor_swizzled(&As[buf][warpgroup * 64 * BK + 8 * s]);
#else
      const ulong a_desc =
          wg_descriptor(&As[buf][(2 * s * (BM / 8) + 8 * warpgroup) * 32], BM * 16, 128);
#endif
      WG_MMA(BN)(acc, a_desc, wg_descriptor(&Bs[buf][b_at], BN * 16, 128), 1);
    }
    wg_commit();
    wg_wait_all_but_last();  // step - 1's wgmmas are done: their buffer can be refilled
    wg_ring_refill(As, Bs, landed, a, b_tiles, step, tiles, tid);
  }
#endif
  wg_wait_all();
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) wg_pin(&acc[i]);
  wg_store_c(C, N, block.x * BM, block.y * BN, alpha, beta, acc);
}
#endif  // WG_WS

#if WG_TMA_A
// set_tensor_map_address: `map` becomes the host's encoding `bytes` (a placeholder address) with
// A's address in it. One work-item, launched before each GEMM.
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void set_tensor_map_address(
    __global ulong* map, const ulong16 bytes, __global const float* A) {
  vstore16(bytes, 0, map);
  asm volatile(
      "//@arch-specific tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n" ::"l"(
          map),
      "l"((ulong)A)
      : "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;\n" ::: "memory");
}
#endif

#else

__kernel __attribute__((reqd_work_group_size(128, BM / 64, 1))) void gemm_tc_3xtf32_wg(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  // B transposed, core matrices (header): a K-step's big plane, then its small one. A's raw
  // values in fragment order: work-item i's of 8-k step s are float4 s (BM/64) 128 + i.
  __local float As[STAGES][BM * BK] __attribute__((aligned(128)));
  __local float Bs[STAGES][WG_B_FLOATS] __attribute__((aligned(128)));
  __local ulong landed[STAGES];  // the buffers' mbarriers

  const int tid = get_local_id(1) * 128 + get_local_id(0);
  const int2 block = swizzled_block(GROUP_M);
  // A K-step's tiles are contiguous (pack_operand).
  WgSourceA a_source;
  a_source.tiles = A + block.x * (K / BK) * (BM * BK);
  a_source.map = 0;
  a_source.row = 0;
  __global const float* b_tiles = B + block.y * (K / BK) * WG_B_FLOATS;

  float acc[BN / 2];  // the tensor cores' sums of the current chunk (fragments, above)
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;
#if TOTALS_MEM
  volatile float total[BN / 2];  // FP32 totals of the chunks' sums, in memory (header)
#else
  float total[BN / 2];  // FP32 totals of the chunks' sums
#endif
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) total[i] = 0.0f;

  const int tiles = K / BK;
  wg_ring_start(As, Bs, landed, a_source, b_tiles, tiles, tid);
  uint4 big[BK / 8], small[BK / 8];  // the current K-step's parts, which its wgmmas read
  for (int step = 0; step < tiles; ++step) {
    const int buf = wg_ring_wait(landed, step);
    float4 a[BK / 8];  // read while the previous K-step's wgmmas run
    _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
      a[s] = ((__local const float4*)As[buf])[s * (BM / 64) * 128 + tid];
    }
    // The previous K-step's wgmmas are done with big and small, and with their buffer.
    wg_wait_all();
    wg_ring_refill(As, Bs, landed, a_source, b_tiles, step, tiles, tid);
    if (step > 0 && step % CHUNK == 0) {  // a chunk's sums, complete, into the FP32 totals
      _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) {
        wg_pin(&acc[i]);
        total[i] += acc[i];
      }
    }
    _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
      big[s] = wg_big(a[s]);
      small[s] = wg_small(a[s], big[s]);
    }
    wg_fence();
    _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {
      const ulong b_big = wg_descriptor(&Bs[buf][8 * s * BN], BN * 16, 128);
      const ulong b_small = wg_descriptor(&Bs[buf][BN * BK + 8 * s * BN], BN * 16, 128);
      // The small terms first, into a fresh sum at a chunk's first K-step.
      WG_MMA_RA(BN)(acc, small[s], b_big, s > 0 || step % CHUNK != 0);
      WG_MMA_RA(BN)(acc, big[s], b_small, 1);
      WG_MMA_RA(BN)(acc, big[s], b_big, 1);
    }
    wg_commit();
  }
  wg_wait_all();
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) {
    wg_pin(&acc[i]);
    acc[i] += total[i];
  }
  wg_store_c(C, N, block.x * BM, block.y * BN, alpha, beta, acc);
}
#undef WG_MMA_RA
#endif
#undef WG_CAT
#undef WG_D8
#undef WG_D32
#undef WG_D64
#undef WG_D128
#undef WG_R32
#undef WG_R64
#undef WG_R128
#undef WG_MMA
#undef WG_B_FLOATS
#undef WG_3X
#undef WG_TMA_A
#undef WG_RS_A
#undef WG_WS
#undef WG_FUSED
#undef WG_F16
#undef WG_MMA_F16_RA
#undef BM
#undef BN
#undef BK
#undef STAGES
#undef GROUP_M
#undef CHUNK
#undef TOTALS_MEM
#endif
