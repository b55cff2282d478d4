// BLAS shapes on the host, without the binary: how gemm_shape.hpp stores each layout and
// transpose, the gap check on C, cpu-packed's strided packing called directly (every micro-kernel
// this CPU runs), and the cuBLAS call's arguments checked against a column-major SGEMM written out
// here, since no CUDA runs on the test machines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "check/memory_check.hpp"
#include "cpu/cpu_gemm.hpp"
#include "cuda/cuda_library.hpp"
#include "problem/gemm_shape.hpp"
#include "problem/problem.hpp"
#include "run/cublas_call.hpp"
#include "run_clgemm.hpp"
#include "session/host_operands.hpp"
#include "util/errors.hpp"

namespace {

using clgemm::GemmShape;
using clgemm::GemmStorage;
using clgemm::Layout;
using clgemm::MatrixStorage;
using clgemm::MemoryCheck;
using clgemm::Problem;
using clgemm::Trans;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every layout and transpose pair, with the given leading dimensions.
std::vector<GemmShape> everyShape(int lda, int ldb, int ldc) {
  std::vector<GemmShape> shapes;
  for (Layout layout : {Layout::kRow, Layout::kCol})
    for (Trans a : {Trans::kN, Trans::kT})
      for (Trans b : {Trans::kN, Trans::kT}) shapes.push_back({layout, a, b, lda, ldb, ldc});
  return shapes;
}

std::string label(const GemmShape& shape) { return clgemm::shapeLabel(shape); }

// C = alpha op(A) op(B) + beta C0 from the logical matrices, in double, with each element's bound
// on the error of the problem's precision: (k + 2) eps times the sum of the magnitudes of its
// terms, above the worst case of any order of sums (about k eps / 2 of it) and well below a wrong
// or missing term.
struct Reference {
  std::vector<double> c, bound;
};

Reference reference(const Problem& p) {
  Reference r;
  r.c.resize(std::size_t(p.m) * p.n);
  r.bound.resize(r.c.size());
  const double eps = clgemm::machineEpsilon(p.precision);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      double acc = 0.0, magnitude = 0.0;
      for (int q = 0; q < p.k; ++q) {
        const double term = double(p.a[i * p.k + q]) * double(p.b[q * p.n + j]);
        acc += term;
        magnitude += std::abs(term);
      }
      const double c0 = p.beta == 0.0f ? 0.0 : double(p.c0[i * p.n + j]);
      r.c[i * p.n + j] = double(p.alpha) * acc + double(p.beta) * c0;
      r.bound[i * p.n + j] =
          (p.k + 2) * eps * (std::abs(double(p.alpha)) * magnitude + std::abs(double(p.beta) * c0));
    }
  return r;
}

// Element by element within the reference's bound, naming the first that is off.
void expectMatches(const std::vector<double>& got, const Reference& want, int n) {
  ASSERT_EQ(got.size(), want.c.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want.c[i], want.bound[i]) << "C[" << i / n << "," << i % n << "]";
  }
}

// ------------------------------------------------------------------------------------------------
// gemm_shape.hpp

TEST(GemmStorage, EachLayoutAndTransposeStoresWhatBlasWould) {
  const int m = 5, n = 3, k = 4;
  struct Case {
    GemmShape shape;
    MatrixStorage a, b, c;  // {rows, cols, ld, transposed}: always of op(A), op(B), C
  };
  const Case cases[] = {
      // Row-major: A's rows (k long, or m when transposed) are its lines.
      {{Layout::kRow, Trans::kN, Trans::kN}, {m, k, k, false}, {k, n, n, false}, {m, n, n, false}},
      {{Layout::kRow, Trans::kT, Trans::kN}, {m, k, m, true}, {k, n, n, false}, {m, n, n, false}},
      {{Layout::kRow, Trans::kN, Trans::kT}, {m, k, k, false}, {k, n, k, true}, {m, n, n, false}},
      {{Layout::kRow, Trans::kT, Trans::kT}, {m, k, m, true}, {k, n, k, true}, {m, n, n, false}},
      // Column-major: the columns are the lines, so BLAS's lda is m for A, k for A^T.
      {{Layout::kCol, Trans::kN, Trans::kN}, {m, k, m, true}, {k, n, k, true}, {m, n, m, true}},
      {{Layout::kCol, Trans::kT, Trans::kN}, {m, k, k, false}, {k, n, k, true}, {m, n, m, true}},
      {{Layout::kCol, Trans::kN, Trans::kT}, {m, k, m, true}, {k, n, n, false}, {m, n, m, true}},
      {{Layout::kCol, Trans::kT, Trans::kT}, {m, k, k, false}, {k, n, n, false}, {m, n, m, true}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(label(c.shape));
    const GemmStorage s = clgemm::gemmStorage(m, n, k, c.shape);
    using Pair = std::pair<MatrixStorage, MatrixStorage>;
    for (const auto& [got, want] : {Pair{s.a, c.a}, Pair{s.b, c.b}, Pair{s.c, c.c}}) {
      EXPECT_EQ(got.rows, want.rows);
      EXPECT_EQ(got.cols, want.cols);
      EXPECT_EQ(got.ld, want.ld);
      EXPECT_EQ(got.transposed, want.transposed);
      EXPECT_FALSE(got.hasGaps());
      EXPECT_EQ(got.count(), std::size_t(want.rows) * want.cols);
    }
  }
}

TEST(GemmStorage, LeadingDimensionsAtTheLeastAndBeyond) {
  const int m = 33, n = 17, k = 9;
  for (const GemmShape& given : everyShape(40, 41, 50)) {
    SCOPED_TRACE(label(given));
    const GemmStorage s = clgemm::gemmStorage(m, n, k, given);
    EXPECT_EQ(s.a.ld, 40);
    EXPECT_EQ(s.b.ld, 41);
    EXPECT_EQ(s.c.ld, 50);
    EXPECT_TRUE(s.c.hasGaps());
    EXPECT_EQ(s.c.count(), s.c.lines() * 50u);
    // The least is the line's length, and accepted.
    GemmShape least = given;
    least.lda = s.a.lineLength();
    least.ldb = s.b.lineLength();
    least.ldc = s.c.lineLength();
    const GemmStorage t = clgemm::gemmStorage(m, n, k, least);
    EXPECT_FALSE(t.a.hasGaps() || t.b.hasGaps() || t.c.hasGaps());
  }
}

TEST(GemmStorage, ALeadingDimensionBelowTheLeastNamesItsOption) {
  const int m = 33, n = 17, k = 9;
  // Row-major NN: A's rows are k long, B's n, C's n.
  const auto message = [&](GemmShape shape) -> std::string {
    try {
      clgemm::gemmStorage(m, n, k, shape);
    } catch (const clgemm::UsageError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(message({Layout::kRow, Trans::kN, Trans::kN, 8, 0, 0}),
            "--lda 8 is less than 9, the length of A's rows (A is 33 x 9, row-major): give at "
            "least 9 or leave it out (packed)");
  EXPECT_TRUE(contains(message({Layout::kRow, Trans::kN, Trans::kN, 0, 16, 0}),
                       "--ldb 16 is less than 17"));
  EXPECT_TRUE(contains(message({Layout::kRow, Trans::kN, Trans::kN, 0, 0, 16}),
                       "--ldc 16 is less than 17"));
  // Column-major A^T is k x m stored by columns of k: lda 9 is enough, 8 is not.
  EXPECT_EQ(message({Layout::kCol, Trans::kT, Trans::kN, 9, 9, 33}), "(no error)");
  EXPECT_EQ(message({Layout::kCol, Trans::kT, Trans::kN, 8, 9, 33}),
            "--lda 8 is less than 9, the length of A's columns (A is 9 x 33, column-major): give "
            "at least 9 or leave it out (packed)");
  EXPECT_TRUE(contains(message({Layout::kCol, Trans::kN, Trans::kN, 33, 9, 32}),
                       "--ldc 32 is less than 33, the length of C's columns"));
}

TEST(RowMajorGemm, RowMajorPassesThroughColumnMajorSwapsTheOperands) {
  const int m = 5, n = 3, k = 4;
  const GemmShape row{Layout::kRow, Trans::kT, Trans::kN, 7, 0, 6};
  const GemmStorage rs = clgemm::gemmStorage(m, n, k, row);
  const clgemm::RowMajorGemm r = clgemm::rowMajorGemm(m, n, k, rs);
  EXPECT_FALSE(r.swapped);
  EXPECT_EQ(r.m, m);
  EXPECT_EQ(r.n, n);
  EXPECT_EQ(r.a.ld, 7);
  EXPECT_TRUE(r.a.transposed);
  EXPECT_EQ(r.c.ld, 6);

  // Column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T: n x m, B's memory first.
  const GemmShape col{Layout::kCol, Trans::kN, Trans::kT, 8, 9, 10};
  const GemmStorage cs = clgemm::gemmStorage(m, n, k, col);
  const clgemm::RowMajorGemm c = clgemm::rowMajorGemm(m, n, k, cs);
  EXPECT_TRUE(c.swapped);
  EXPECT_EQ(c.m, n);
  EXPECT_EQ(c.n, m);
  EXPECT_EQ(c.k, k);
  // The kernel's A is op(B)^T (n x k), in B's memory (ldb 9). Column-major B (n x k) has its
  // element (j, q) at j + q * ldb, and so does op(B)^T: stored by columns, transposed.
  EXPECT_EQ(c.a.rows, n);
  EXPECT_EQ(c.a.cols, k);
  EXPECT_EQ(c.a.ld, 9);
  EXPECT_TRUE(c.a.transposed);
  // The kernel's B is op(A)^T (k x m) in A's memory (lda 8): column-major A's (i, q) at
  // i + q * lda is op(A)^T's (q, i), row q of it: stored by rows.
  EXPECT_EQ(c.b.rows, k);
  EXPECT_EQ(c.b.cols, m);
  EXPECT_EQ(c.b.ld, 8);
  EXPECT_FALSE(c.b.transposed);
  EXPECT_FALSE(c.c.transposed);
  EXPECT_EQ(c.c.rows, n);
  EXPECT_EQ(c.c.ld, 10);
  // The same memory: element (r, c) of the view is (c, r) of the original.
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(c.c.at(j, i), cs.c.at(i, j));
}

// In both precisions: FP64 elements keep all 53 bits (1 + 2^-40 is no float), FP32 ones are
// rounded to float.
TEST(StoreMatrix, RoundTripsAndFillsTheGaps) {
  const int rows = 5, cols = 3;
  std::vector<double> logical(rows * cols);
  for (std::size_t i = 0; i < logical.size(); ++i)
    logical[i] = double(i + 1) + std::ldexp(1.0, -40);
  for (clgemm::Precision precision : {clgemm::Precision::kFp32, clgemm::Precision::kFp64}) {
    const bool fp64 = precision == clgemm::Precision::kFp64;
    std::vector<double> want = logical;
    if (!fp64)
      for (double& x : want) x = double(float(x));
    for (bool transposed : {false, true}) {
      SCOPED_TRACE(clgemm::precisionName(precision) + (transposed ? " transposed" : " as is"));
      const MatrixStorage s{rows, cols, (transposed ? rows : cols) + 2, transposed};
      const clgemm::HostMatrix stored = clgemm::storeMatrix(logical, s, precision);
      ASSERT_EQ(stored.size(), s.count());
      ASSERT_EQ(stored.precision(), precision);
      ASSERT_EQ(stored.bytes(), s.count() * (fp64 ? sizeof(double) : sizeof(float)));
      // Element (1, 2) where the storage says, and the formula of gemm_shape.hpp.
      EXPECT_EQ(stored.get(transposed ? 2 * s.ld + 1 : 1 * s.ld + 2), want[1 * cols + 2]);
      std::size_t canaries = 0;
      for (std::size_t i = 0; i < stored.size(); ++i) {
        canaries += stored.isCanaryAt(i);
        if (fp64)
          EXPECT_EQ(stored.isCanaryAt(i), clgemm::isCanary64(stored.f64()[i])) << i;
        else
          EXPECT_EQ(stored.isCanaryAt(i), clgemm::isCanary(stored.f32()[i])) << i;
      }
      EXPECT_EQ(canaries, s.lines() * 2);
      EXPECT_EQ(clgemm::gatherMatrix(stored, s), want);
      MemoryCheck gaps;
      clgemm::checkGaps(stored.data(), precision, s, "C", gaps);
      EXPECT_TRUE(gaps.clean()) << gaps.describe();
    }
  }
  // The FP64 canary is a NaN that an ordinary NaN is not, as the FP32 one is.
  EXPECT_TRUE(std::isnan(clgemm::canaryValue64()));
  EXPECT_TRUE(clgemm::isCanary64(clgemm::canaryValue64()));
  EXPECT_FALSE(clgemm::isCanary64(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(clgemm::isCanary64(double(clgemm::canaryValue())));
}

// ------------------------------------------------------------------------------------------------
// The gap check

// In either precision (the gaps are counted in the matrix's elements).
TEST(CheckGaps, AWriteIntoAGapIsFoundAndNamed) {
  for (clgemm::Precision precision : {clgemm::Precision::kFp32, clgemm::Precision::kFp64}) {
    SCOPED_TRACE(clgemm::precisionName(precision));
    const std::vector<double> logical(4 * 3, 1.0);
    const MatrixStorage rows{4, 3, 5, false};
    clgemm::HostMatrix stored = clgemm::storeMatrix(logical, rows, precision);
    stored.set(2 * 5 + 3, 0.0);  // row 2, the first element past its 3
    stored.set(3 * 5 + 4, 0.0);
    MemoryCheck out;
    clgemm::checkGaps(stored.data(), precision, rows, "C", out);
    ASSERT_EQ(out.findings.size(), 1u) << out.describe();
    EXPECT_EQ(out.findings[0],
              "C: 2 elements written into the gaps between its stored rows (ld 5, rows of 3), the "
              "first at row 2, offset 3");

    const MatrixStorage columns{3, 4, 7, true};  // 4 columns of 3
    stored = clgemm::storeMatrix(logical, columns, precision);
    // A NaN that is not the canary.
    stored.set(1 * 7 + 6, std::numeric_limits<double>::quiet_NaN());
    out = {};
    clgemm::checkGaps(stored.data(), precision, columns, "C", out);
    ASSERT_EQ(out.findings.size(), 1u) << out.describe();
    EXPECT_EQ(out.findings[0],
              "C: 1 element written into the gaps between its stored columns (ld 7, columns of 3), "
              "the first at column 1, offset 6");
  }
}

TEST(CheckGaps, GatherResultReportsOnlyWhatWasWritten) {
  for (clgemm::Precision precision : {clgemm::Precision::kFp32, clgemm::Precision::kFp64}) {
    SCOPED_TRACE(clgemm::precisionName(precision));
    const std::vector<double> logical = {1, 2, 3, 4, 5, 6};
    const MatrixStorage s{2, 3, 4, false};
    clgemm::HostMatrix stored = clgemm::storeMatrix(logical, s, precision);
    std::vector<double> result;
    MemoryCheck gaps;
    clgemm::gatherResult(stored, s, result, gaps);
    EXPECT_EQ(result, logical);
    EXPECT_TRUE(gaps.clean()) << gaps.describe();
    stored.set(3, 7.0);
    clgemm::gatherResult(stored, s, result, gaps);
    EXPECT_EQ(result, logical);  // the gap is not part of C
    EXPECT_EQ(gaps.findings.size(), 1u) << gaps.describe();
  }
}

// HostOperands (what the CPU paths and OpenBLAS get) holds C as stored; copyCTo gathers it and
// check() reports a write into its gaps, in either layout.
template <typename T>
void writeC(clgemm::HostOperands& ops, std::size_t at, double value) {
  ops.c<T>()[at] = T(value);
}

TEST(HostOperandsGaps, ACleanRunPassesAWriteIntoAGapIsFound) {
  for (clgemm::Precision precision : {clgemm::Precision::kFp32, clgemm::Precision::kFp64})
    for (Layout layout : {Layout::kRow, Layout::kCol}) {
      const GemmShape shape{layout, Trans::kN, Trans::kN, 0, 0, 9};
      const Problem p = clgemm::makeRandomProblem(6, 4, 3, 1.0, 0.5, 7, shape, precision);
      SCOPED_TRACE(clgemm::precisionName(precision) + " " + label(p.shape));
      const MatrixStorage c = p.storage().c;
      ASSERT_TRUE(c.hasGaps());
      const auto write = precision == clgemm::Precision::kFp64 ? writeC<double> : writeC<float>;
      for (bool stray : {false, true}) {
        clgemm::HostOperands ops(p);
        ops.resetC();
        // An honest "product": every element of C, and nothing else.
        for (int i = 0; i < p.m; ++i)
          for (int j = 0; j < p.n; ++j) write(ops, c.at(i, j), double(i * p.n + j));
        if (stray) write(ops, c.at(1, 0) + std::size_t(c.lineLength()), 0.0);  // past a line's end
        std::vector<double> result;
        ops.copyCTo(result);
        ASSERT_EQ(result.size(), std::size_t(p.m) * p.n);
        EXPECT_EQ(result[2 * p.n + 3], double(2 * p.n + 3));
        const MemoryCheck found = ops.check();
        if (!stray) {
          EXPECT_TRUE(found.clean()) << found.describe();
          continue;
        }
        ASSERT_EQ(found.findings.size(), 1u) << found.describe();
        const std::string line = layout == Layout::kRow ? "row" : "column";
        EXPECT_TRUE(
            contains(found.findings[0],
                     "C: 1 element written into the gaps between its stored " + line + "s (ld 9"))
            << found.findings[0];
        // The stray element sits after line 1 (row 1, or column 0 of a column-major C).
        EXPECT_TRUE(contains(found.findings[0],
                             "the first at " + line + " " + (layout == Layout::kRow ? "1" : "0")))
            << found.findings[0];
      }
    }
}

// ------------------------------------------------------------------------------------------------
// cpu-packed with strides, called directly

clgemm::Strides stridesOf(const MatrixStorage& s) {
  const std::ptrdiff_t ld = s.ld;
  return s.transposed ? clgemm::Strides{1, ld} : clgemm::Strides{ld, 1};
}

// Runs cpuPackedGemm on the stored matrices of `p` and returns the logical C; gap writes go to
// `gaps`.
std::vector<double> runPacked(const Problem& p, const clgemm::PackedBlocking& blocking, int threads,
                              MemoryCheck& gaps) {
  const GemmStorage s = p.storage();
  clgemm::HostMatrix c = clgemm::initialStoredC(p);
  if (c.empty())
    c = clgemm::HostMatrix(p.precision, s.c.count(), std::numeric_limits<double>::quiet_NaN());
  clgemm::CpuGemm g;  // FP32: the CPU paths have FP32 micro-kernels only
  g.m = p.m;
  g.n = p.n;
  g.k = p.k;
  g.alpha = float(p.alpha);
  g.beta = float(p.beta);
  g.a = p.storedA().f32();
  g.b = p.storedB().f32();
  g.c = c.f32();
  g.threads = threads;
  g.a_strides = stridesOf(s.a);
  g.b_strides = stridesOf(s.b);
  g.c_strides = stridesOf(s.c);
  clgemm::cpuPackedGemm(g, blocking);
  std::vector<double> result;
  clgemm::gatherResult(c, s.c, result, gaps);
  return result;
}

// Every micro-kernel level (CLGEMM_CPU_ISA caps the choice; a level this CPU lacks falls back to
// the next below, so that case repeats one), every shape, the default blocking and blocks smaller
// than the register tile with K in uneven steps (40, 40, 40, 9), one and two threads. (KC stays
// at 40, not smaller: each K step ends in a barrier, and a team of two on a loaded machine can
// lose a time slice at each.)
TEST(CpuPackedStrides, EveryShapeMatchesTheReferenceAndLeavesTheGaps) {
  for (const char* level : {"avx512", "avx2", "portable"}) {
    const clgemm_test::ScopedEnv isa("CLGEMM_CPU_ISA", std::string(level));
    SCOPED_TRACE(clgemm::cpuPackedMicroKernel());
    for (const GemmShape& shape : everyShape(131, 133, 103)) {
      Problem p = clgemm::makeRandomProblem(100, 37, 129, 1.5f, -0.5f, 3);
      clgemm::applyShape(p, shape);
      SCOPED_TRACE(label(shape));
      const Reference want = reference(p);
      for (const clgemm::PackedBlocking& blocking :
           {clgemm::PackedBlocking{}, clgemm::PackedBlocking{5, 40, 7}}) {
        for (int threads : {1, 2}) {
          MemoryCheck gaps;
          const std::vector<double> got = runPacked(p, blocking, threads, gaps);
          expectMatches(got, want, p.n);
          EXPECT_TRUE(gaps.clean()) << gaps.describe();
        }
      }
    }
  }
}

// Each element is one sum over k in the same order whatever the layout (column-major C computes
// C^T with the operands swapped, and the products commute), so a layout never changes a bit.
TEST(CpuPackedStrides, ColumnMajorGivesTheRowMajorBits) {
  Problem p = clgemm::makeRandomProblem(67, 45, 131, 1.0f, 0.0f, 5);
  MemoryCheck gaps;
  clgemm::applyShape(p, {Layout::kRow, Trans::kN, Trans::kN, 0, 0, 0});
  const std::vector<double> row = runPacked(p, {}, 2, gaps);
  clgemm::applyShape(p, {Layout::kRow, Trans::kT, Trans::kT, 70, 140, 50});
  EXPECT_EQ(runPacked(p, {}, 2, gaps), row);
  clgemm::applyShape(p, {Layout::kCol, Trans::kN, Trans::kT, 70, 50, 70});
  EXPECT_EQ(runPacked(p, {}, 2, gaps), row);
  EXPECT_TRUE(gaps.clean()) << gaps.describe();
}

// Strides that are neither a row-major nor a column-major layout: A and B are gathered element by
// element; C must have a unit stride one way or the other.
TEST(CpuPackedStrides, GeneralStridesForAAndBOnlyUnitStrideC) {
  const int m = 19, n = 23, k = 11;
  Problem p = clgemm::makeRandomProblem(m, n, k, 2.0f, 0.0f, 9);
  // op(A)(i, q) at i * (2k + 3) + q * 2; op(B)(q, j) at q * 3 + j * (3k + 1).
  const clgemm::Strides as{2 * k + 3, 2}, bs{3, 3 * k + 1};
  std::vector<float> a(std::size_t(m) * as.row, 0.0f), b(std::size_t(n) * bs.col, 0.0f);
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < k; ++q) a[i * as.row + q * as.col] = float(p.a[i * k + q]);
  for (int q = 0; q < k; ++q)
    for (int j = 0; j < n; ++j) b[q * bs.row + j * bs.col] = float(p.b[q * n + j]);
  std::vector<float> c(std::size_t(m) * n, std::numeric_limits<float>::quiet_NaN());
  clgemm::CpuGemm g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.alpha = float(p.alpha);
  g.beta = 0.0f;
  g.a = a.data();
  g.b = b.data();
  g.c = c.data();
  g.threads = 2;
  g.a_strides = as;
  g.b_strides = bs;
  clgemm::cpuPackedGemm(g, {5, 3, 7});
  expectMatches(std::vector<double>(c.begin(), c.end()), reference(p), n);

  std::vector<float> wide(std::size_t(m) * n * 2);
  g.c = wide.data();
  g.c_strides = {2 * n, 2};  // every other float of each row
  EXPECT_THROW(clgemm::cpuPackedGemm(g, {}), std::invalid_argument);
}

// ------------------------------------------------------------------------------------------------
// cuBLAS's arguments, run through a column-major SGEMM as cuBLAS defines it

// cublasSgemm's and cublasDgemm's contract: column-major, op N or T, and the leading dimensions
// they refuse (CUBLAS_STATUS_INVALID_VALUE) when below the rows of the matrix as stored. T is the
// element type (float: Sgemm, double: Dgemm); the sums are in double either way.
template <typename T>
void columnMajorGemm(int op_a, int op_b, int m, int n, int k, T alpha, const T* a, int lda,
                     const T* b, int ldb, T beta, T* c, int ldc) {
  const bool ta = op_a == clgemm::cuda::kBlasOpT, tb = op_b == clgemm::cuda::kBlasOpT;
  ASSERT_GE(lda, std::max(1, ta ? k : m));
  ASSERT_GE(ldb, std::max(1, tb ? n : k));
  ASSERT_GE(ldc, std::max(1, m));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double acc = 0.0;
      for (int q = 0; q < k; ++q) {
        const T x = ta ? a[q + std::size_t(i) * lda] : a[i + std::size_t(q) * lda];
        const T y = tb ? b[j + std::size_t(q) * ldb] : b[q + std::size_t(j) * ldb];
        acc += double(x) * double(y);
      }
      T& out = c[i + std::size_t(j) * ldc];
      out = T(double(alpha) * acc + (beta == T(0) ? 0.0 : double(beta) * double(out)));
    }
}

// The same call's arguments serve Sgemm and Dgemm: in FP64 the stored matrices are doubles and
// the product is judged in DBL_EPSILON units.
TEST(CublasCall, EveryShapeComputesTheCallersProduct) {
  for (clgemm::Precision precision : {clgemm::Precision::kFp32, clgemm::Precision::kFp64}) {
    for (const GemmShape& shape : everyShape(40, 41, 50)) {
      const Problem p = clgemm::makeRandomProblem(33, 17, 9, 1.5, -0.5, 11, shape, precision);
      SCOPED_TRACE(clgemm::precisionName(precision) + " " + label(shape));
      const clgemm::CublasCall call = clgemm::cublasCallFor(p);
      EXPECT_EQ(call.b_first, shape.layout == Layout::kRow);
      EXPECT_EQ(call.ldc, 50);
      clgemm::HostMatrix c = clgemm::initialStoredC(p);
      ASSERT_EQ(c.size(), p.storedCCount());
      ASSERT_EQ(c.precision(), precision);
      const clgemm::HostMatrix& first = call.b_first ? p.storedB() : p.storedA();
      const clgemm::HostMatrix& second = call.b_first ? p.storedA() : p.storedB();
      if (precision == clgemm::Precision::kFp64)
        columnMajorGemm<double>(call.op_first, call.op_second, call.m, call.n, call.k, p.alpha,
                                first.f64(), call.ld_first, second.f64(), call.ld_second, p.beta,
                                c.f64(), call.ldc);
      else
        columnMajorGemm<float>(call.op_first, call.op_second, call.m, call.n, call.k,
                               float(p.alpha), first.f32(), call.ld_first, second.f32(),
                               call.ld_second, float(p.beta), c.f32(), call.ldc);
      std::vector<double> result;
      MemoryCheck gaps;
      clgemm::gatherResult(c, p.storage().c, result, gaps);
      expectMatches(result, reference(p), p.n);
      EXPECT_TRUE(gaps.clean()) << gaps.describe();
    }
  }
}

}  // namespace
