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
