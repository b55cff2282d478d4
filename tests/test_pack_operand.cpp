// The helper pack_operand of tc-tf32-wg and tc-3xtf32-wg, run on the machine's device (pocl's CPU
// in CI), where the GEMMs themselves cannot run: A and B transposed written as contiguous BM x BK
// and BN x BK tiles in core-matrix order, padded with zeros and rounded to TF32 (for
// tc-3xtf32-wg, PACK_SPLIT: B as two planes, big = tf32(x) and small = tf32(x - big), and A
// unrounded in the order of wgmma's register fragments), compared element by element with the
// layouts that kernels.cl's tc-tf32-wg header describes, computed here independently.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels_program.hpp"
#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "run_clgemm.hpp"
#include "unsupported.hpp"

namespace {

using clgemm_test::registryVariant;

struct Tiles {
  int bm, bn, bk;
  bool split;  // PACK_SPLIT: B as big and small planes, A raw in fragment order (tc-3xtf32-wg)
};

// TF32 rounding as the tensor-core kernels do it: to nearest, ties away from zero.
float tf32(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits = (bits + 0x1000u) & 0xffffe000u;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

// The packed value of x in plane 0 (big, or the only one) or 1 (small).
float planeValue(float x, int plane) { return plane == 0 ? tf32(x) : tf32(x - tf32(x)); }

// Where (r, k) of an operand packed as rows x cols lands in `plane` of `planes`: tile
// (r / tile_rows, k / bk), tiles of a row block in k order, each tile's planes one after the other;
// in a plane, core matrices of 8 rows x 4 k, those of one k-quad adjacent.
std::size_t packedIndex(int r, int k, int cols, int tile_rows, int bk, int planes, int plane) {
  const std::size_t tile =
      std::size_t(r / tile_rows) * std::size_t(cols / bk) + std::size_t(k / bk);
  const int row = r % tile_rows, kk = k % bk;
  const int at = ((kk / 4) * (tile_rows / 8) + row / 8) * 32 + (row % 8) * 4 + kk % 4;
  const std::size_t size = std::size_t(tile_rows) * std::size_t(bk);
  return (tile * std::size_t(planes) + std::size_t(plane)) * size + std::size_t(at);
}

// Where (r, k) of A packed as rows x cols in fragment order lands: tiles as above, one plane; in a
// tile, per 8-k step and 64 rows (a warpgroup), the 128 work-items' four values one after another.
// Work-item 32 w + 4 g + t of a warpgroup holds rows 16 w + g and 16 w + g + 8, k t and t + 4, as
// values 0 (g, t), 1 (g + 8, t), 2 (g, t + 4), 3 (g + 8, t + 4).
std::size_t fragmentIndex(int r, int k, int cols, int tile_rows, int bk) {
  const std::size_t tile =
      std::size_t(r / tile_rows) * std::size_t(cols / bk) + std::size_t(k / bk);
  const int row = r % tile_rows, kk = k % bk;
  const int warpgroup = row / 64, warp = (row % 64) / 16, g = row % 8, high = (row % 16) / 8;
  const int step = kk / 8, t = kk % 4, far = (kk % 8) / 4;
  const int item = warp * 32 + g * 4 + t, value = high + 2 * far;
  const std::size_t in_tile =
      (std::size_t(step * (tile_rows / 64) + warpgroup) * 128 + std::size_t(item)) * 4 +
      std::size_t(value);
  return tile * std::size_t(tile_rows) * std::size_t(bk) + in_tile;
}

class PackOperand : public ::testing::TestWithParam<Tiles> {
 protected:
  // Packs `src` (the src_rows x src_cols operand, stored row-major with lines `ld` apart, or
  // transposed: element (r, c) at c * ld + r; ld 0: packed) as operand 0 (A) or 1 (B transposed)
  // into rows x cols on the device; the kernel is built from the repository's kernels.cl with the
  // tile defines, as the host builds it for tc-tf32-wg.
  std::vector<float> pack(int operand, const std::vector<float>& src, int src_rows, int src_cols,
                          int rows, int cols, int ld = 0, bool transposed = false) {
    if (ld == 0) ld = transposed ? src_rows : src_cols;
    const std::size_t out_planes = operand == 0 ? 1 : planes();
    const Tiles t = GetParam();
    const clgemm::SelectedDevice device = clgemm::selectDevice(std::nullopt, std::nullopt);
    const cl::Context context(device.device);
    cl::CommandQueue queue(context, device.device);
    // Only the helper's section (and what it shares): the GEMM's needs NVIDIA's compiler.
    const auto program = clgemm_test::buildKernels(
        context, device,
        "-D CLGEMM_ONE_KERNEL -D KERNEL_pack_operand -D BM=" + std::to_string(t.bm) +
            " -D BN=" + std::to_string(t.bn) + " -D BK=" + std::to_string(t.bk) +
            (t.split ? " -D PACK_SPLIT=1" : ""));
    if (!program) return {};
    cl::Kernel kernel(*program, "pack_operand");
    const std::vector<float> sentinel(out_planes * std::size_t(rows) * std::size_t(cols), -7.0f);
    cl::Buffer in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src.size() * sizeof(float),
                  const_cast<float*>(src.data()));
    cl::Buffer out(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                   sentinel.size() * sizeof(float), const_cast<float*>(sentinel.data()));
    kernel.setArg(0, operand);
    kernel.setArg(1, src_rows);
    kernel.setArg(2, src_cols);
    kernel.setArg(3, ld);
    kernel.setArg(4, transposed ? 1 : 0);
    kernel.setArg(5, in);
    kernel.setArg(6, rows);
    kernel.setArg(7, cols);
    kernel.setArg(8, out);
    // Launched as the host launches it: the registry's shape for these sizes.
    const clgemm::LaunchShape shape = registryVariant("tc-tf32-wg").pack_shape(rows, cols);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(shape.global[0], shape.global[1]),
                               cl::NDRange(shape.local[0], shape.local[1]));
    std::vector<float> result(sentinel.size());
    queue.enqueueReadBuffer(out, CL_TRUE, 0, result.size() * sizeof(float), result.data());
    return result;
  }

  // Planes of packed B (A has one).
  std::size_t planes() const { return GetParam().split ? 2 : 1; }
};

std::vector<float> randomMatrix(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> m(std::size_t(rows) * std::size_t(cols));
  for (float& x : m) x = value(rng);
  return m;
}

int roundUp(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

// Every element of every plane of a packed rows x cols operand against the plane's value of
// `source(r, k)` (zero outside the source): the first mismatches reported, their number returned.
template <typename Source>
std::size_t mismatches(const std::vector<float>& packed, int rows, int cols, int tile_rows, int bk,
                       int planes, const char* name, Source source) {
  std::size_t count = 0;
  for (int plane = 0; plane < planes; ++plane) {
    for (int r = 0; r < rows; ++r) {
      for (int k = 0; k < cols; ++k) {
        const float want = planeValue(source(r, k), plane);
        const float got = packed[packedIndex(r, k, cols, tile_rows, bk, planes, plane)];
        if (got != want && count++ < 5)
          ADD_FAILURE() << name << " plane " << plane << " (" << r << ", " << k << "): " << got
                        << ", expected " << want;
      }
    }
  }
  return count;
}

// tc-3xtf32-wg's A (split): every value where its work-item's register fragment expects it,
// unrounded (the kernel splits it), zeros in the padding, no two values in one place. Returns the
// number of mismatches, the first ones reported.
template <typename Source>
std::size_t fragmentMismatches(const std::vector<float>& packed, int rows, int cols, int tile_rows,
                               int bk, Source source) {
  std::vector<bool> written(packed.size(), false);
  std::size_t count = 0;
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < cols; ++k) {
      const std::size_t at = fragmentIndex(r, k, cols, tile_rows, bk);
      if (at >= packed.size() || written[at]) {
        ADD_FAILURE() << "(" << r << ", " << k << ") lands at " << at << ", outside or taken";
        return ++count;
      }
      written[at] = true;
      if (packed[at] != source(r, k) && count++ < 5)
        ADD_FAILURE() << "A (" << r << ", " << k << "): " << packed[at] << ", expected "
                      << source(r, k);
    }
  }
  return count;
}

// A, padded: rounded to TF32 in core-matrix order, or for tc-3xtf32-wg unrounded in fragment
// order; one plane either way.
TEST_P(PackOperand, PacksAPadded) {
  const Tiles t = GetParam();
  const int m = 2 * t.bm + 5, k = 3 * t.bk + 3;  // neither a multiple of its tile
  const int rows = roundUp(m, t.bm), cols = roundUp(k, t.bk);
  const std::vector<float> a = randomMatrix(m, k, 11);
  const std::vector<float> packed = pack(0, a, m, k, rows, cols);
  ASSERT_EQ(packed.size(), std::size_t(rows) * std::size_t(cols));
  const auto source = [&](int r, int kk) {
    return (r < m && kk < k) ? a[std::size_t(r) * k + kk] : 0.0f;
  };
  if (t.split)
    EXPECT_EQ(fragmentMismatches(packed, rows, cols, t.bm, t.bk, source), 0u);
  else
    EXPECT_EQ(mismatches(packed, rows, cols, t.bm, t.bk, 1, "A", source), 0u);
}

TEST_P(PackOperand, PacksBTransposedPaddedAndRounded) {
  const Tiles t = GetParam();
  const int k = 2 * t.bk + 1, n = t.bn + 9;
  const int rows = roundUp(n, t.bn), cols = roundUp(k, t.bk);
  const std::vector<float> b = randomMatrix(k, n, 12);  // K x N, as the GEMM gets it
  const std::vector<float> packed = pack(1, b, k, n, rows, cols);
  ASSERT_EQ(packed.size(), planes() * std::size_t(rows) * std::size_t(cols));
  EXPECT_EQ(mismatches(packed, rows, cols, t.bn, t.bk, int(planes()), "Bt",
                       [&](int r, int kk) {
                         return (r < n && kk < k) ? b[std::size_t(kk) * n + r] : 0.0f;
                       }),
            0u);
}

// The operands as a BLAS caller stores them (the host passes them as stored, with no copy first):
// A transposed (K x M) and B transposed (N x K), each with a gap of 3 floats per line that must
// never be read into the packed result (the gap holds a NaN, which would show).
TEST_P(PackOperand, ReadsTransposedOperandsWithGaps) {
  const Tiles t = GetParam();
  const int m = t.bm + 7, n = t.bn + 5, k = 2 * t.bk + 3;
  const float gap = std::nanf("");
  // A^T stored: K lines of M (+3); B^T stored: N lines of K (+3).
  const int lda = m + 3, ldb = k + 3;
  const std::vector<float> a = randomMatrix(m, k, 14), b = randomMatrix(k, n, 15);
  std::vector<float> a_stored(std::size_t(k) * std::size_t(lda), gap),
      b_stored(std::size_t(n) * std::size_t(ldb), gap);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < k; ++c) a_stored[std::size_t(c) * lda + r] = a[std::size_t(r) * k + c];
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < n; ++c) b_stored[std::size_t(c) * ldb + r] = b[std::size_t(r) * n + c];
  const int a_rows = roundUp(m, t.bm), b_rows = roundUp(n, t.bn), cols = roundUp(k, t.bk);
  const std::vector<float> packed_a = pack(0, a_stored, m, k, a_rows, cols, lda, true);
  const std::vector<float> packed_b = pack(1, b_stored, k, n, b_rows, cols, ldb, true);
  const auto a_source = [&](int r, int kk) {
    return (r < m && kk < k) ? a[std::size_t(r) * k + kk] : 0.0f;
  };
  if (t.split)
    EXPECT_EQ(fragmentMismatches(packed_a, a_rows, cols, t.bm, t.bk, a_source), 0u);
  else
    EXPECT_EQ(mismatches(packed_a, a_rows, cols, t.bm, t.bk, 1, "A", a_source), 0u);
  EXPECT_EQ(mismatches(packed_b, b_rows, cols, t.bn, t.bk, int(planes()), "Bt",
                       [&](int r, int kk) {
                         return (r < n && kk < k) ? b[std::size_t(kk) * n + r] : 0.0f;
                       }),
            0u);
}

// Sources whose lines are 16-byte aligned (ld a multiple of 4), so that the blocks wholly inside
// them load as vectors and the others element by element: each operand stored both ways (along K
// and across it, the latter transposed through local memory), lines 4 floats apart beyond the
// data (a gap of NaNs, which must not be read), sizes past several 64 x 64 blocks and not a
// multiple of them.
TEST_P(PackOperand, PacksAlignedSourcesBothWays) {
  const Tiles t = GetParam();
  const int m = 2 * std::max(t.bm, 64) + 20, n = t.bn + 68, k = 140;
  const std::vector<float> a = randomMatrix(m, k, 16), b = randomMatrix(k, n, 17);
  const float gap = std::nanf("");
  // The src_rows x src_cols matrix x stored row-major or transposed, ld = its line + 4.
  const auto stored = [&](const std::vector<float>& x, int src_rows, int src_cols,
                          bool transposed) {
    const int line = transposed ? src_rows : src_cols, lines = transposed ? src_cols : src_rows;
    std::vector<float> s(std::size_t(lines) * std::size_t(line + 4), gap);
    for (int r = 0; r < src_rows; ++r)
      for (int c = 0; c < src_cols; ++c)
        s[transposed ? std::size_t(c) * (line + 4) + r : std::size_t(r) * (line + 4) + c] =
            x[std::size_t(r) * src_cols + c];
    return std::make_pair(s, line + 4);
  };
  const int a_rows = roundUp(m, t.bm), b_rows = roundUp(n, t.bn), cols = roundUp(k, t.bk);
  const auto a_source = [&](int r, int kk) {
    return (r < m && kk < k) ? a[std::size_t(r) * k + kk] : 0.0f;
  };
  const auto b_source = [&](int r, int kk) {
    return (r < n && kk < k) ? b[std::size_t(kk) * n + r] : 0.0f;
  };
  for (const bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "stored transposed" : "stored as is");
    const auto [a_stored, lda] = stored(a, m, k, transposed);
    const auto [b_stored, ldb] = stored(b, k, n, transposed);
    const std::vector<float> packed_a = pack(0, a_stored, m, k, a_rows, cols, lda, transposed);
    const std::vector<float> packed_b = pack(1, b_stored, k, n, b_rows, cols, ldb, transposed);
    if (t.split)
      EXPECT_EQ(fragmentMismatches(packed_a, a_rows, cols, t.bm, t.bk, a_source), 0u);
    else
      EXPECT_EQ(mismatches(packed_a, a_rows, cols, t.bm, t.bk, 1, "A", a_source), 0u);
    EXPECT_EQ(mismatches(packed_b, b_rows, cols, t.bn, t.bk, int(planes()), "Bt", b_source), 0u);
  }
}

// Rounding is to nearest (not the tensor cores' truncation): a value just over half of TF32's
// last place rounds up.
TEST(PackOperandRounding, RoundsToNearestTf32) {
  EXPECT_EQ(tf32(1.0f + 0x1.0p-11f + 0x1.0p-20f), 1.0f + 0x1.0p-10f);
  EXPECT_EQ(tf32(1.0f + 0x1.0p-12f), 1.0f);
}

// Why tc-3xtf32-wg splits: big + small holds x to about FP32's precision (22 of its 24 bits), where
// big alone keeps 11.
TEST(PackOperandRounding, BigPlusSmallIsAlmostX) {
  const std::vector<float> values = randomMatrix(1, 1000, 13);
  for (const float x : values) {
    const float big = planeValue(x, 0), small = planeValue(x, 1);
    EXPECT_LE(std::fabs(double(x) - big - small), std::fabs(x) * 0x1.0p-22) << x;
    EXPECT_LE(std::fabs(double(x) - big), std::fabs(x) * 0x1.0p-11) << x;
  }
}

// tc-tf32-wg's defaults (128 x 256, BK 32) and other tiles it allows; tc-3xtf32-wg's defaults
// (64 x 128, BK 16) and other tiles (two or three warpgroups, one 8-k step per K-step).
INSTANTIATE_TEST_SUITE_P(Tiles, PackOperand,
                         ::testing::Values(Tiles{128, 256, 32, false}, Tiles{128, 128, 8, false},
                                           Tiles{64, 256, 16, false}, Tiles{192, 64, 8, false},
                                           Tiles{64, 128, 16, true}, Tiles{64, 128, 8, true},
                                           Tiles{128, 64, 16, true}, Tiles{192, 128, 8, true}),
                         [](const auto& info) {
                           return "BM" + std::to_string(info.param.bm) + "_BN" +
                                  std::to_string(info.param.bn) + "_BK" +
                                  std::to_string(info.param.bk) +
                                  (info.param.split ? "_Split" : "");
                         });

}  // namespace
