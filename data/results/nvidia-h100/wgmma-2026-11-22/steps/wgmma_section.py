# Writes the experimental wgmma tc-tf32 section into a copy of kernels.cl.
import re, sys
src = open('kernels.cl').read()
start = src.index('// ---------------------------------------------------------------------------------------------\n// Device peak probes')
end = src.index('// ---------------------------------------------------------------------------------------------\n// Device peak probes')

def mma_fn(n):
    regs = n // 2
    outs = ', '.join('%%%d' % i for i in range(regs))
    cons = ', '.join('"+f"(d[%d])' % i for i in range(regs))
    return ('inline void wg_mma_n%d(float* d, const ulong da, const ulong db) {\n'
            '  asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n"\n'
            '      "//@arch-specific wgmma.mma_async.sync.aligned.m64n%dk8.f32.tf32.tf32 {%s}, %%%d, %%%d, p, 1, 1;\\n}\\n"\n'
            '      : %s\n      : "l"(da), "l"(db), "r"(1));\n}\n') % (n, regs + 2, n, outs, regs, regs + 1, cons)

section = r'''#if defined(KERNEL_gemm_tc_tf32_wg)
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef PAD_FROM
#define PAD_FROM 3000
#endif
#ifndef EDGE
#define EDGE 1
#endif
#ifndef WG_SWAP
#define WG_SWAP 0
#endif
#ifndef WG_SW64
#define WG_SW64 0
#endif
#ifndef WG_NOLOAD
#define WG_NOLOAD 0
#endif
#ifndef WG_PEAK
#define WG_PEAK 0
#endif
#ifndef AHEAD
#define AHEAD 1
#endif
#define TC_THREADS (128 * (BM / 64))
#define TC_NA (BM * BK / 4)
#define TC_NB (BK * BN / 16)
#define TC_LOADS_A (TC_NA / TC_THREADS)
#define TC_LOADS_B ((TC_NB + TC_THREADS - 1) / TC_THREADS)

inline uint wgx_tf32(const float x) { return (as_uint(x) + 0x1000u) & 0xffffe000u; }
inline float4 wg_round4(const float4 v) {
  return as_float4((uint4)(wgx_tf32(v.x), wgx_tf32(v.y), wgx_tf32(v.z), wgx_tf32(v.w)));
}
inline float4 wg_fetch(__global const float* p, const int rows, const int cols, const int row,
                       const int col) {
#if EDGE
  return (float4)(load_or_zero(p, rows, cols, row, col), load_or_zero(p, rows, cols, row, col + 1),
                  load_or_zero(p, rows, cols, row, col + 2),
                  load_or_zero(p, rows, cols, row, col + 3));
#else
  return *(__global const float4*)(p + row * cols + col);
#endif
}
inline float wg_pick(const float4 v, const int c) {
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}
inline ulong wg_desc(__local const float* p, const uint lead, const uint stride) {
  const uint addr = (uint)(ulong)p;
#if WG_SWAP
  return (ulong)((addr & 0x3FFFFu) >> 4) | ((ulong)(stride >> 4) << 16) | ((ulong)(lead >> 4) << 32);
#else
  return (ulong)((addr & 0x3FFFFu) >> 4) | ((ulong)(lead >> 4) << 16) | ((ulong)(stride >> 4) << 32);
#endif
}
// Float index of (row, k) in a tile of `rows` x BK, k-major.
#if WG_SW64
inline int wg_at(const int rows, const int row, const int kq) { return row * 16 + ((kq ^ ((row >> 1) & 3)) << 2); }
#else
inline int wg_at(const int rows, const int row, const int kq) { return (kq * (rows / 8) + row / 8) * 32 + (row % 8) * 4; }
#endif
inline ulong wg_desc_sw64(__local const float* p) {
  const uint addr = (uint)(ulong)p;
  return (ulong)((addr & 0x3FFFFu) >> 4) | (1ul << 16) | ((ulong)(512 >> 4) << 32) | (2ul << 62);
}
inline void wg_fence() { asm volatile("//@arch-specific wgmma.fence.sync.aligned;\n" ::: "memory"); }
inline void wg_commit() { asm volatile("//@arch-specific wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
inline void wg_wait0() { asm volatile("//@arch-specific wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
inline void wg_wait1() { asm volatile("//@arch-specific wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); }
inline void wg_proxy_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
inline void wg_pin(float* d) { asm volatile("" : "+f"(*d)::"memory"); }
''' + mma_fn(64) + mma_fn(128) + mma_fn(256) + r'''
#define WG_MMA_CAT(a, b) a##b
#define WG_MMA_N(n) WG_MMA_CAT(wg_mma_n, n)

__kernel __attribute__((reqd_work_group_size(128, BM / 64, 1))) void gemm_tc_tf32_wg(
    const int M, const int N, const int K, const float alpha, const float beta,
    __global const float* restrict A, __global const float* restrict B, __global float* C) {
  __local float As[2][BM * BK] __attribute__((aligned(1024)));  // core matrices, M fastest
  __local float Bs[2][BN * BK] __attribute__((aligned(1024)));  // core matrices, N fastest

  const int wg = get_local_id(1);
  const int tid = wg * 128 + get_local_id(0);
  const int lane = get_local_id(0) % 32, warp = get_local_id(0) / 32;
  const int g = lane / 4, t = lane % 4;

  const int2 block = swizzled_block(GROUP_M);
  const int row0 = block.x * BM;
  const int col0 = block.y * BN;

  float acc[BN / 2];
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;

#define WG_FETCH(an, bn, tile)                                                         \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_A; ++i) {                             \
    const int f = tid + i * TC_THREADS;                                                \
    const int m = f % 8 + 8 * (f / (2 * BK)), kq = (f / 8) % (BK / 4);                 \
    an[i] = wg_fetch(A, M, K, row0 + m, (tile) * BK + 4 * kq);                         \
  }                                                                                    \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_B; ++i) {                             \
    const int b = tid + i * TC_THREADS;                                                \
    if (TC_NB % TC_THREADS == 0 || b < TC_NB) {                                        \
      const int n4 = b % (BN / 4), kb = b / (BN / 4);                                  \
      _Pragma("unroll") for (int r = 0; r < 4; ++r) bn[i][r] =                         \
          wg_fetch(B, K, N, (tile) * BK + 4 * kb + r, col0 + 4 * n4);                  \
    }                                                                                  \
  }
#define WG_STORE(an, bn, buf)                                                          \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_A; ++i) {                             \
    const int f = tid + i * TC_THREADS;                                                \
    const int m = f % 8 + 8 * (f / (2 * BK)), kq = (f / 8) % (BK / 4);                 \
    *(__local float4*)&As[buf][wg_at(BM, m, kq)] = wg_round4(an[i]); \
  }                                                                                    \
  _Pragma("unroll") for (int i = 0; i < TC_LOADS_B; ++i) {                             \
    const int b = tid + i * TC_THREADS;                                                \
    if (TC_NB % TC_THREADS == 0 || b < TC_NB) {                                        \
      const int n4 = b % (BN / 4), kb = b / (BN / 4), rot = (n4 >> 1) & 3;             \
      _Pragma("unroll") for (int s = 0; s < 4; ++s) {                                  \
        const int c = (s + rot) & 3;                                                   \
        const float4 v = (float4)(wg_pick(bn[i][0], c), wg_pick(bn[i][1], c),          \
                                  wg_pick(bn[i][2], c), wg_pick(bn[i][3], c));         \
        *(__local float4*)&Bs[buf][wg_at(BN, 4 * n4 + c, kb)] = \
            wg_round4(v);                                                              \
      }                                                                                \
    }                                                                                  \
  }                                                                                    \
  wg_proxy_fence();
#if WG_SW64
#define WG_DESCS(buf, s)                                                               \
    const ulong da = wg_desc_sw64(&As[buf][64 * 16 * wg + 8 * s]);                     \
    const ulong db = wg_desc_sw64(&Bs[buf][8 * s]);
#else
#define WG_DESCS(buf, s)                                                               \
    const ulong da = wg_desc(&As[buf][(2 * s * (BM / 8) + 8 * wg) * 32], BM * 16, 128); \
    const ulong db = wg_desc(&Bs[buf][2 * s * (BN / 8) * 32], BN * 16, 128);
#endif
#define WG_ISSUE(buf)                                                                  \
  wg_fence();                                                                          \
  _Pragma("unroll") for (int s = 0; s < BK / 8; ++s) {                                 \
    WG_DESCS(buf, s)                                                                   \
    WG_MMA_N(BN)(acc, da, db);                                                         \
  }                                                                                    \
  wg_commit();

  // Tile j travels in register set j % AHEAD; while the tensor cores multiply tile t, sets hold
  // tiles t + 1 ... t + AHEAD.
  float4 a_set[AHEAD][TC_LOADS_A], b_set[AHEAD][TC_LOADS_B][4];
  const int tiles = (K + BK - 1) / BK;
  WG_FETCH(a_set[0], b_set[0], 0)
  WG_STORE(a_set[0], b_set[0], 0)
  _Pragma("unroll") for (int j = 1; j <= AHEAD; ++j) {
    if (j < tiles) {
      WG_FETCH(a_set[j % AHEAD], b_set[j % AHEAD], j)
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t0 = 0; t0 < tiles; t0 += AHEAD) {
    _Pragma("unroll") for (int u = 0; u < AHEAD; ++u) {
      const int t = t0 + u;
      if (t < tiles) {
#if WG_PEAK
        WG_ISSUE(0)
        wg_wait1();
#if WG_PEAK == 1
        barrier(CLK_LOCAL_MEM_FENCE);
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
#else
        WG_ISSUE(t & 1)
        if (t + 1 < tiles) {
          wg_wait1();  // this warpgroup's product of tile t - 1 is done with buffer (t + 1) & 1
          barrier(CLK_LOCAL_MEM_FENCE);  // and every warpgroup's
          WG_STORE(a_set[(u + 1) % AHEAD], b_set[(u + 1) % AHEAD], (t + 1) & 1)
          barrier(CLK_LOCAL_MEM_FENCE);
#if !WG_NOLOAD
          if (t + 1 + AHEAD < tiles) {
            WG_FETCH(a_set[(u + 1) % AHEAD], b_set[(u + 1) % AHEAD], t + 1 + AHEAD)
          }
#endif
        }
#endif
      }
    }
  }
  wg_wait0();
  _Pragma("unroll") for (int i = 0; i < BN / 2; ++i) wg_pin(&acc[i]);

  _Pragma("unroll") for (int h = 0; h < 2; ++h) {
    const int row = row0 + 64 * wg + 16 * warp + 8 * h + g;
#if EDGE
    if (row >= M) continue;
#endif
    _Pragma("unroll") for (int j = 0; j < BN / 8; ++j) {
      const int col = col0 + 8 * j + 2 * t;
#if EDGE
      if (col < N) store_c(C, row * N + col, acc[4 * j + 2 * h], alpha, beta);
      if (col + 1 < N) store_c(C, row * N + col + 1, acc[4 * j + 2 * h + 1], alpha, beta);
#else
      __global float2* c2 = (__global float2*)(C + row * N + col);
      float2 r = alpha * (float2)(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
      if (beta != 0.0f) r += beta * *c2;
      *c2 = r;
#endif
    }
  }
}
#undef BM
#undef BN
#undef BK
#undef WM
#undef WN
#undef GROUP_M
#undef AHEAD
#undef PAD_FROM
#undef EDGE
#endif

'''
open(sys.argv[1], 'w').write(src[:start] + section + src[end:])
