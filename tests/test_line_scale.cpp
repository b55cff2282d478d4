// tc-3xtf32-f16's helpers, run on the machine's device (pocl's CPU in CI), where the GEMM itself
// cannot run: line_scale's power of two per line of A (its rows) and of B (its columns), and
// pack_operand's PACK_SPLIT 2, B scaled by those powers and written as a TF32 plane and a plane of
// FP16 pairs (small, big). Both are compared element by element with values computed here
// independently (FP16 rounding included), from the layouts kernels.cl's headers describe.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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

float fromBits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}
std::uint32_t bitsOf(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// TF32 rounding as the tensor-core kernels do it: to nearest, ties away from zero.
float tf32(float x) { return fromBits((bitsOf(x) + 0x1000u) & 0xffffe000u); }

// x rounded to FP16 (to nearest, ties to even), by counting its value in units of its FP16 last
// place: exact for every float that FP16 holds, normal or subnormal, and enough for the values
// here (no overflow: the scaled lines stay below 2^15).
std::uint16_t toHalf(float x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(double(x));
  if (a == 0.0) return sign;
  int e = std::ilogb(a);  // a in [2^e, 2^(e+1))
  if (e < -14) e = -14;   // subnormal: the last place is 2^-24
  const double ulp = std::ldexp(1.0, e - 10);
  double units = std::nearbyint(a / ulp);  // the default rounding mode: ties to even
  if (units >= 2048.0 && e >= -14) {       // rounded up into the next binade
    units /= 2.0;
    ++e;
  }
  if (units < 1024.0) return std::uint16_t(sign | std::uint16_t(units));  // subnormal
  return std::uint16_t(sign | std::uint16_t((e + 15) << 10) | std::uint16_t(units - 1024.0));
}

// The power of two line_scale writes for a line whose largest magnitude is `most`: 2^(15 - e)
// where most < 2^e is the least such e, within 2^-126 ... 2^126; 1 for zeros and non-finite.
float expectedScale(float most) {
  if (!(most > 0.0f) || !std::isfinite(most)) return 1.0f;
  int e = std::ilogb(most) + 1;  // most in [2^(e-1), 2^e)
  if (most < std::numeric_limits<float>::min()) e = -126;
  int power = 15 - e;
  power = std::max(-126, std::min(126, power));
  return std::ldexp(1.0f, power);
}

struct Device {
  clgemm::SelectedDevice selected = clgemm::selectDevice(std::nullopt, std::nullopt);
  cl::Context context{selected.device};
  cl::CommandQueue queue{context, selected.device};
};

cl::Buffer input(const Device& d, const std::vector<float>& v) {
  return cl::Buffer(d.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(float),
                    const_cast<float*>(v.data()));
}
std::vector<float> readBack(Device& d, const cl::Buffer& b, std::size_t count) {
  std::vector<float> out(count);
  d.queue.enqueueReadBuffer(b, CL_TRUE, 0, count * sizeof(float), out.data());
  return out;
}

// One operand as line_scale reads it: rows x cols as stored (A M x K, B K x N), row-major or
// transposed with lines ld apart, and the lines wanted (more than the source has: zeros).
struct Stored {
  std::vector<float> values;
  int rows, cols, ld;
  bool transposed;
  int lines;
};

// line_scale's powers of A's and B's lines in one launch, as the plan launches it.
std::pair<std::vector<float>, std::vector<float>> lineScales(Device& d, const Stored& a,
                                                             const Stored& b) {
  const auto program =
      clgemm_test::buildKernels(d.context, d.selected, "-D CLGEMM_ONE_KERNEL -D KERNEL_line_scale");
  if (!program) return {};
  cl::Kernel kernel(*program, "line_scale");
  const cl::Buffer a_src = input(d, a.values), b_src = input(d, b.values);
  const cl::Buffer a_out = input(d, std::vector<float>(std::size_t(a.lines), -7.0f));
  const cl::Buffer b_out = input(d, std::vector<float>(std::size_t(b.lines), -7.0f));
  const auto args = [&](cl_uint first, const Stored& x, const cl::Buffer& src,
                        const cl::Buffer& out) {
    kernel.setArg(first, x.rows);
    kernel.setArg(first + 1, x.cols);
    kernel.setArg(first + 2, x.ld);
    kernel.setArg(first + 3, x.transposed ? 1 : 0);
    kernel.setArg(first + 4, src);
    kernel.setArg(first + 5, x.lines);
    kernel.setArg(first + 6, out);
  };
  args(0, a, a_src, a_out);
  args(7, b, b_src, b_out);
  const std::size_t groups = (std::size_t(a.lines) + 7) / 8 + (std::size_t(b.lines) + 7) / 8;
  d.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(32, groups * 8),
                               cl::NDRange(32, 8));
  return {readBack(d, a_out, std::size_t(a.lines)), readBack(d, b_out, std::size_t(b.lines))};
}

// An M x K operand whose row i holds uniform values times 2^(i % 41 - 20), with row 3 all zeros,
// row 5 one Inf, row 6 one subnormal value and nothing else, and row 7 values up to 2^100.
std::vector<float> gradedRows(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> m(std::size_t(rows) * std::size_t(cols));
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < cols; ++k)
      m[std::size_t(i) * cols + k] = std::ldexp(value(rng), i % 41 - 20);
  for (int k = 0; k < cols; ++k) {
    m[3 * std::size_t(cols) + k] = 0.0f;
    m[6 * std::size_t(cols) + k] = 0.0f;
    m[7 * std::size_t(cols) + k] = std::ldexp(value(rng), 100);
  }
  m[5 * std::size_t(cols) + cols / 2] = std::numeric_limits<float>::infinity();
  m[6 * std::size_t(cols) + cols - 1] = -std::numeric_limits<float>::denorm_min() * 5.0f;
  return m;
}

// Both operands in one launch, each stored along K and across it, lines 3 floats longer than the
// data (a gap of 1e30s, which would set a wrong power if read), more lines than the source (zeros:
// power 1), K neither a multiple of 32 nor of 256; A's lines and B's in different numbers.
TEST(LineScale, EachLinesPowerPutsItsLargestInTheTopBinadeOfFp16) {
  Device d;
  const int ks = 301;
  const int a_lines = 45, b_lines = 53, a_padded = 51, b_padded = 56;
  const std::vector<float> xa = gradedRows(a_lines, ks, 3), xb = gradedRows(b_lines, ks, 4);
  // Operand 0 (A, M x K) stores line i as row i unless transposed; operand 1 (B, K x N) line n as
  // column n unless transposed.
  const auto store = [&](int operand, const std::vector<float>& x, int lines, int padded,
                         bool transposed) {
    const bool along_k = (operand == 0) != transposed;
    const int stored_lines = along_k ? lines : ks, line_length = along_k ? ks : lines;
    Stored s{std::vector<float>(std::size_t(stored_lines) * std::size_t(line_length + 3), 1e30f),
             operand == 0 ? lines : ks,
             operand == 0 ? ks : lines,
             line_length + 3,
             transposed,
             padded};
    for (int i = 0; i < lines; ++i)
      for (int k = 0; k < ks; ++k)
        s.values[along_k ? std::size_t(i) * s.ld + k : std::size_t(k) * s.ld + i] =
            x[std::size_t(i) * ks + k];
    return s;
  };
  const auto expectPowers = [&](const std::vector<float>& got, const std::vector<float>& x,
                                int lines, int padded) {
    ASSERT_EQ(got.size(), std::size_t(padded));
    for (int i = 0; i < padded; ++i) {
      float most = 0.0f;
      for (int k = 0; i < lines && k < ks; ++k)
        most = std::max(most, std::fabs(x[std::size_t(i) * ks + k]));
      EXPECT_EQ(got[std::size_t(i)], expectedScale(most)) << "line " << i << ", max " << most;
    }
    EXPECT_EQ(got[3], 1.0f);                        // zeros
    EXPECT_EQ(got[5], 1.0f);                        // an Inf
    EXPECT_EQ(got[6], std::ldexp(1.0f, 126));       // a subnormal: the largest power
    EXPECT_EQ(got[7], std::ldexp(1.0f, 15 - 100));  // values up to 2^100
    EXPECT_EQ(got[40], std::ldexp(1.0f, 15 - 20));  // values below 2^20
  };
  for (const bool a_transposed : {false, true}) {
    for (const bool b_transposed : {false, true}) {
      SCOPED_TRACE(std::string("A ") + (a_transposed ? "transposed" : "as is") + ", B " +
                   (b_transposed ? "transposed" : "as is"));
      const auto [a, b] = lineScales(d, store(0, xa, a_lines, a_padded, a_transposed),
                                     store(1, xb, b_lines, b_padded, b_transposed));
      {
        SCOPED_TRACE("A");
        expectPowers(a, xa, a_lines, a_padded);
      }
      {
        SCOPED_TRACE("B");
        expectPowers(b, xb, b_lines, b_padded);
      }
    }
  }
}

// B (K x N) packed as tc-3xtf32-f16 packs it: each of its N lines (columns) times its power, tiles
// of BN x BK as tc-tf32-wg's (core matrices of 8 rows x 4 k), the TF32 plane of big = tf32(x),
// then the pair plane, whose float-sized slot of (n, k) holds FP16 small = x - big in its low half
// and FP16 big in its high one.
TEST(LineScale, PacksBAsATf32PlaneAndAPlaneOfFp16Pairs) {
  Device d;
  const int bn = 128, bk = 32;
  const int k = 2 * bk + 5, n = bn + 11;  // padded to 96 x 256
  const int rows = 2 * bn, cols = 3 * bk;
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> b(std::size_t(k) * std::size_t(n));  // K x N, row-major
  for (int kk = 0; kk < k; ++kk)
    for (int j = 0; j < n; ++j) b[std::size_t(kk) * n + j] = std::ldexp(value(rng), j % 30 - 12);
  // Powers as line_scale would give, and for the padding lines 1.
  std::vector<float> scales(std::size_t(rows), 1.0f);
  for (int j = 0; j < n; ++j) {
    float most = 0.0f;
    for (int kk = 0; kk < k; ++kk) most = std::max(most, std::fabs(b[std::size_t(kk) * n + j]));
    scales[std::size_t(j)] = expectedScale(most);
  }
  const auto program = clgemm_test::buildKernels(
      d.context, d.selected,
      "-D CLGEMM_ONE_KERNEL -D KERNEL_pack_operand -D PACK_SPLIT=2 -D BM=128 -D BN=" +
          std::to_string(bn) + " -D BK=" + std::to_string(bk));
  ASSERT_TRUE(program);
  cl::Kernel kernel(*program, "pack_operand");
  // Each tile's two planes one after the other, BN x BK floats each.
  const std::size_t size = std::size_t(bn) * std::size_t(bk);
  const std::size_t total = 2 * std::size_t(rows) * std::size_t(cols);
  const cl::Buffer src = input(d, b), scale_buffer = input(d, scales);
  const cl::Buffer out = input(d, std::vector<float>(total, -7.0f));
  kernel.setArg(0, 1);
  kernel.setArg(1, k);
  kernel.setArg(2, n);
  kernel.setArg(3, n);
  kernel.setArg(4, 0);
  kernel.setArg(5, src);
  kernel.setArg(6, rows);
  kernel.setArg(7, cols);
  kernel.setArg(8, out);
  kernel.setArg(9, scale_buffer);
  const clgemm::LaunchShape shape = registryVariant("tc-3xtf32-f16").pack_shape(rows, cols);
  d.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(shape.global[0], shape.global[1]),
                               cl::NDRange(shape.local[0], shape.local[1]));
  const std::vector<float> packed = readBack(d, out, total);
  std::size_t wrong = 0, nonzero_small = 0;
  for (int r = 0; r < rows; ++r) {
    for (int kk = 0; kk < cols; ++kk) {
      const float x =
          (r < n && kk < k) ? b[std::size_t(kk) * n + r] * scales[std::size_t(r)] : 0.0f;
      const float big = tf32(x), small = x - big;
      const std::size_t tile = std::size_t(r / bn) * std::size_t(cols / bk) + std::size_t(kk / bk);
      const int row = r % bn, kin = kk % bk;
      const std::size_t at =
          std::size_t(((kin / 4) * (bn / 8) + row / 8) * 32 + (row % 8) * 4 + kin % 4);
      const float got_big = packed[2 * tile * size + at];
      const std::uint32_t pair = bitsOf(packed[2 * tile * size + size + at]);
      const std::uint32_t want_pair =
          std::uint32_t(toHalf(small)) | (std::uint32_t(toHalf(big)) << 16);
      if (small != 0.0f) ++nonzero_small;
      if ((got_big != big || pair != want_pair) && wrong++ < 5)
        ADD_FAILURE() << "(" << r << ", " << kk << "): x " << x << ", big " << got_big
                      << " (expected " << big << "), pair 0x" << std::hex << pair << " (expected 0x"
                      << want_pair << ")" << std::dec;
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(nonzero_small, std::size_t(n) * std::size_t(k) / 2);  // the small parts are there
}

}  // namespace
