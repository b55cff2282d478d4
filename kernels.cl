// clgemm kernels: C = alpha * A * B + beta * C, row-major float.
//   A is M x K (lda = K), B is K x N (ldb = N), C is M x N (ldc = N).
// Every kernel takes (M, N, K, alpha, beta, A, B, C), works for any M, N, K >= 1, and never reads C
// when beta == 0 (BLAS semantics: C may hold NaN then).
//
// Each tunable is a macro with a default below; the host passes -D NAME=VALUE for every parameter
// of the variant it runs. A host build also defines CLGEMM_ONE_KERNEL and KERNEL_<entry>, so only
// that kernel and its defaults are compiled; without them (oclgrind, an offline compiler) the whole
// file compiles, each section #undef-ing its macros so they cannot leak into the next one.
// Work-item dimension 0 runs along N (columns of C), dimension 1 along M (rows).

// Shared epilogue: alpha * acc (+ beta * C when beta != 0).
inline void store_c(__global float* C, const int index, const float acc, const float alpha,
                    const float beta) {
  C[index] = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * C[index];
}

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
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
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
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  const int lcol = get_local_id(0);
  const int lrow = get_local_id(1);
  const int col = get_group_id(0) * TS + lcol;
  const int row = get_group_id(1) * TS + lrow;

  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];

  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    const int ka = k0 + lcol;  // column of A this work-item loads
    const int kb = k0 + lrow;  // row of B this work-item loads
    Asub[lrow][lcol] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bsub[lrow][lcol] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += Asub[lrow][k] * Bsub[k][lcol];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) store_c(C, row * N + col, acc, alpha, beta);
}
#undef TS
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
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  const int tidn = get_local_id(0);
  const int tidm = get_local_id(1);
  const int tid = tidm * RTSN + tidn;
  const int offm = get_group_id(1) * TSM;
  const int offn = get_group_id(0) * TSN;

  __local float Asub[TSK][TSM + PAD];
  __local float Bsub[TSK][TSN + PAD];

  float acc[WPTM][WPTN];
  for (int wm = 0; wm < WPTM; ++wm)
    for (int wn = 0; wn < WPTN; ++wn) acc[wm][wn] = 0.0f;
  float breg[WPTN];

  for (int k0 = 0; k0 < K; k0 += TSK) {
    // Consecutive work-items read consecutive k of one row of A (coalesced) and store them down a
    // column of Asub.
    for (int i = tid; i < TSM * TSK; i += RTSM * RTSN) {
      const int m = i / TSK, k = i % TSK;
      const int gm = offm + m, gk = k0 + k;
      Asub[k][m] = (gm < M && gk < K) ? A[gm * K + gk] : 0.0f;
    }
    for (int i = tid; i < TSK * TSN; i += RTSM * RTSN) {
      const int k = i / TSN, n = i % TSN;
      const int gk = k0 + k, gn = offn + n;
      Bsub[k][n] = (gk < K && gn < N) ? B[gk * N + gn] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TSK; ++k) {
      for (int wn = 0; wn < WPTN; ++wn) breg[wn] = Bsub[k][tidn + wn * RTSN];
      for (int wm = 0; wm < WPTM; ++wm) {
        const float a = Asub[k][tidm + wm * RTSM];
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
//  - float4 loads from global memory (when the row length allows: VEC_A for K % 4 == 0,
//    VEC_B for N % 4 == 0; the host sets them from the problem) and float4 reads from local memory;
//  - A stored transposed in local memory, each thread's TM x TN block split into float4 groups
//    strided across the tile, so a warp's local reads are broadcasts or conflict-free;
//  - double-buffered local memory with register prefetch: the next tile's global loads are issued
//    before the current tile's FMAs and stored to the other buffer after them, one barrier per step;
//  - work-group order swizzled in bands of GROUP_M block rows, so blocks running together share
//    tiles of A and B in L2.
// Global (ceil(N/BN)*BN/TN, ceil(M/BM)*BM/TM), local (BN/TN, BM/TM).
// Any size: with EDGE = 1 (the host sets it unless M, N, K are multiples of BM, BN, BK) loads
// outside A or B put zeros into the tiles and stores are bounds-checked; with EDGE = 0 nothing is
// checked, which is only correct for exact multiples.
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
#ifndef EDGE
#define EDGE 1  // bounds checks (set by the host)
#endif
#ifndef VEC_A
#define VEC_A 0  // rows of A start 16-byte aligned (K % 4 == 0; set by the host)
#endif
#ifndef VEC_B
#define VEC_B 0  // rows of B and C start 16-byte aligned (N % 4 == 0; set by the host)
#endif

#define BEST_THREADS ((BM / TM) * (BN / TN))
#define BEST_LOADS_A (BM * BK / 4 / BEST_THREADS)  // float4 of A per work-item per tile
#define BEST_LOADS_B (BN * BK / 4 / BEST_THREADS)  // float4 of B per work-item per tile
#define BEST_GROUPS_M (TM / 4)                     // float4 groups of a work-item's rows
#define BEST_GROUPS_N (TN / 4)
#define BEST_STRIDE_M (BM / BEST_GROUPS_M)  // distance between a work-item's row groups
#define BEST_STRIDE_N (BN / BEST_GROUPS_N)

// Four consecutive floats of row `row` of a matrix with `cols` columns, from column `col`;
// zeros outside the matrix.
inline float4 best_load4(__global const float* p, const int rows, const int cols, const int row,
                         const int col, const int vec) {
#if EDGE
  if (row >= rows) return (float4)(0.0f);
  if (col + 3 >= cols) {
    const __global float* r = p + row * cols;
    return (float4)(col < cols ? r[col] : 0.0f, col + 1 < cols ? r[col + 1] : 0.0f,
                    col + 2 < cols ? r[col + 2] : 0.0f, 0.0f);
  }
#endif
  if (vec) return *(__global const float4*)(p + row * cols + col);
  return vload4(0, p + row * cols + col);
}

__kernel __attribute__((reqd_work_group_size(BN / TN, BM / TM, 1))) void gemm_best(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  __local float As[2][BK][BM + PADA];  // A transposed: As[k][m]
  __local float Bs[2][BK][BN + PADB];

  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int tid = ty * (BN / TN) + tx;

  // Swizzle: consecutive work-groups walk down a band of GROUP_M block rows before moving right.
  const int grid_n = get_num_groups(0);
  const int grid_m = get_num_groups(1);
  const int pid = get_group_id(1) * grid_n + get_group_id(0);
  const int band = GROUP_M * grid_n;
  const int first_m = (pid / band) * GROUP_M;
  const int band_rows = min(grid_m - first_m, GROUP_M);
  const int bm = first_m + (pid % band) % band_rows;
  const int bn = (pid % band) / band_rows;
  const int row0 = bm * BM;
  const int col0 = bn * BN;

  float4 a_next[BEST_LOADS_A];
  float4 b_next[BEST_LOADS_B];
  float acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  const int tiles = (K + BK - 1) / BK;

  // Global -> registers for tile t. The loops are unrolled so a_next and b_next stay in
  // registers; rolled, pocl 3.1 computed wrong results for some shapes (loads of A and B per
  // work-item differing, e.g. BM=128 BN=64 TM=8 TN=4) that oclgrind finds no fault in.
#define BEST_FETCH(t)                                                                        \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_A; ++i) {                                                   \
    const int idx = tid + i * BEST_THREADS;                                                  \
    a_next[i] = best_load4(A, M, K, row0 + idx / (BK / 4), (t) * BK + (idx % (BK / 4)) * 4, \
                           VEC_A);                                                           \
  }                                                                                          \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_B; ++i) {                                                   \
    const int idx = tid + i * BEST_THREADS;                                                  \
    b_next[i] = best_load4(B, K, N, (t) * BK + idx / (BN / 4), col0 + (idx % (BN / 4)) * 4,  \
                           VEC_B);                                                           \
  }
  // Registers -> local buffer `buf` (A transposed on the way).
#define BEST_STORE(buf)                                    \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_A; ++i) {                 \
    const int idx = tid + i * BEST_THREADS;                \
    const int m = idx / (BK / 4), k = (idx % (BK / 4)) * 4; \
    As[buf][k + 0][m] = a_next[i].x;                       \
    As[buf][k + 1][m] = a_next[i].y;                       \
    As[buf][k + 2][m] = a_next[i].z;                       \
    As[buf][k + 3][m] = a_next[i].w;                       \
  }                                                        \
  _Pragma("unroll") for (int i = 0; i < BEST_LOADS_B; ++i) {                 \
    const int idx = tid + i * BEST_THREADS;                \
    vstore4(b_next[i], 0, &Bs[buf][idx / (BN / 4)][(idx % (BN / 4)) * 4]); \
  }

  BEST_FETCH(0)
  BEST_STORE(0)
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      BEST_FETCH(t + 1)
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
      for (int g = 0; g < BEST_GROUPS_M; ++g) {
        const float4 v = vload4(0, &As[cur][k][g * BEST_STRIDE_M + ty * 4]);
        a[g * 4 + 0] = v.x;
        a[g * 4 + 1] = v.y;
        a[g * 4 + 2] = v.z;
        a[g * 4 + 3] = v.w;
      }
      for (int g = 0; g < BEST_GROUPS_N; ++g) {
        const float4 v = vload4(0, &Bs[cur][k][g * BEST_STRIDE_N + tx * 4]);
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

  // Each work-item's element (i, j) sits in row group i/4 and column group j/4.
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + (i / 4) * BEST_STRIDE_M + ty * 4 + i % 4;
#if EDGE
    if (row >= M) continue;
#endif
    for (int gj = 0; gj < BEST_GROUPS_N; ++gj) {
      const int col = col0 + gj * BEST_STRIDE_N + tx * 4;
      const int vec_store = VEC_B;  // a variable: a literal operand of && draws a warning
      if (vec_store && (!EDGE || col + 3 < N)) {
        __global float4* c4 = (__global float4*)(C + row * N + col);
        float4 r = alpha * (float4)(acc[i][gj * 4], acc[i][gj * 4 + 1], acc[i][gj * 4 + 2],
                                    acc[i][gj * 4 + 3]);
        if (beta != 0.0f) r += beta * *c4;
        *c4 = r;
      } else {
        for (int q = 0; q < 4; ++q)
          if (!EDGE || col + q < N) store_c(C, row * N + col + q, acc[i][gj * 4 + q], alpha, beta);
      }
    }
  }
}
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
#undef EDGE
#undef VEC_A
#undef VEC_B
#endif
