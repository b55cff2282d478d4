// The .npy inputs and output in every shape (commands/problem_input.hpp): the files read as the
// caller's program stores its matrices (transposed files, Fortran order for --layout col, leading
// dimensions placing them with gaps), the refusals naming file and option, and C written in the
// run's layout. These check the I/O itself, on the host, whatever the kernels compute;
// tests/numpy_roundtrip.py checks whole runs against NumPy.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "commands/problem_input.hpp"
#include "problem/problem.hpp"
#include "run_clgemm.hpp"
#include "util/errors.hpp"
#include "util/npy.hpp"

namespace {

using clgemm::GemmShape;
using clgemm::Layout;
using clgemm::Trans;
using clgemm_test::TempDir;

using clgemm::Precision;

// A rows x cols matrix whose element (r, c) is 100 r + c + base: every element tells where it is
// (and a float holds it exactly, so the FP32 and FP64 files carry the same values). `fine` adds
// a part below float's precision, which only a float64 file keeps.
std::vector<double> labelled(int rows, int cols, double base, double fine = 0.0) {
  std::vector<double> x(std::size_t(rows) * std::size_t(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[std::size_t(r) * cols + c] = 100.0 * r + c + base + fine * (r + 1) * (c + 1);
  return x;
}

// The same matrix in column-major order, as numpy.asfortranarray keeps it.
std::vector<double> columnMajor(const std::vector<double>& x, int rows, int cols) {
  std::vector<double> y(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) y[std::size_t(c) * rows + r] = x[std::size_t(r) * cols + c];
  return y;
}

// Saves X (logical rows x cols) as numpy.save would: C order, or Fortran order; float32 unless
// `precision` is FP64.
void save(const std::string& path, const std::vector<double>& x, int rows, int cols, bool fortran,
          Precision precision = Precision::kFp32) {
  const std::vector<double> ordered = fortran ? columnMajor(x, rows, cols) : x;
  if (precision == Precision::kFp64)
    clgemm::writeNpy(path, "test", std::size_t(rows), std::size_t(cols), ordered, fortran);
  else
    clgemm::writeNpy(path, "test", std::size_t(rows), std::size_t(cols),
                     std::vector<float>(ordered.begin(), ordered.end()), fortran);
}

double at(const std::vector<double>& x, int cols, int r, int c) {
  return x[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
}

// The stored matrix's elements, gaps included, as doubles.
std::vector<double> elements(const clgemm::HostMatrix& m) {
  std::vector<double> x(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) x[i] = m.get(i);
  return x;
}

clgemm::Options inputs(const TempDir& dir, GemmShape shape) {
  clgemm::Options o;
  o.input_a = dir.file("A.npy");
  o.input_b = dir.file("B.npy");
  o.layouts = {shape.layout};
  o.trans_a = {shape.trans_a};
  o.trans_b = {shape.trans_b};
  o.lda = shape.lda;
  o.ldb = shape.ldb;
  o.ldc = shape.ldc;
  return o;
}

// Column-major, both transposed, an lda with a gap: M = 3, N = 2, K = 4. A's file is K x M and B's
// N x K, both in Fortran order; C's is M x N.
TEST(ProblemInput, ColumnMajorTransposedWithLeadingDimension) {
  TempDir dir;
  const int m = 3, n = 2, k = 4;
  const auto a = labelled(k, m, 0.0), b = labelled(n, k, 0.5), c = labelled(m, n, 0.25);
  save(dir.file("A.npy"), a, k, m, true);
  save(dir.file("B.npy"), b, n, k, true);
  save(dir.file("C.npy"), c, m, n, true);
  const GemmShape shape{Layout::kCol, Trans::kT, Trans::kT, 6, 0, 5};
  clgemm::Options o = inputs(dir, shape);
  o.input_c = dir.file("C.npy");
  o.beta = 1.0;
  ASSERT_EQ(clgemm::inputShape(o).lda, 6);
  const clgemm::Problem p = clgemm::loadProblem(o, clgemm::inputShape(o));
  EXPECT_EQ(p.m, m);
  EXPECT_EQ(p.n, n);
  EXPECT_EQ(p.k, k);
  // The logical op(A) = A^T (M x K), op(B) = B^T (K x N), C0 = C (M x N): what the reference reads.
  for (int r = 0; r < m; ++r)
    for (int i = 0; i < k; ++i) EXPECT_EQ(at(p.a, k, r, i), at(a, m, i, r)) << r << "," << i;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(at(p.b, n, i, j), at(b, k, j, i)) << i << "," << j;
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < n; ++j) EXPECT_EQ(at(p.c0, n, r, j), at(c, n, r, j));
  // Stored as the caller holds them: A column-major K x M with lda 6 (A(i, j) at j * 6 + i, the
  // two floats after each column a gap), B column-major N x K packed (the file's bytes), C
  // column-major with ldc 5.
  const auto& sa = p.storedA();
  ASSERT_EQ(sa.size(), std::size_t(6 * m));
  EXPECT_EQ(sa.precision(), Precision::kFp32);
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < k; ++i) EXPECT_EQ(sa.get(std::size_t(j) * 6 + i), at(a, m, i, j));
    for (int i = k; i < 6; ++i) EXPECT_TRUE(sa.isCanaryAt(std::size_t(j) * 6 + i));
  }
  EXPECT_EQ(elements(p.storedB()), columnMajor(b, n, k));
  const auto& sc = p.storedC0();
  ASSERT_EQ(sc.size(), std::size_t(5 * n));
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < m; ++r) EXPECT_EQ(sc.get(std::size_t(j) * 5 + r), at(c, n, r, j));
  const GemmShape resolved = clgemm::resolvedShape(p);
  EXPECT_EQ(resolved.lda, 6);
  EXPECT_EQ(resolved.ldb, n);
  EXPECT_EQ(resolved.ldc, 5);
}

// Row-major with --trans-b t: B's file is N x K in C order.
TEST(ProblemInput, RowMajorTransposedB) {
  TempDir dir;
  const int m = 2, n = 3, k = 5;
  const auto a = labelled(m, k, 0.0), b = labelled(n, k, 0.5);
  save(dir.file("A.npy"), a, m, k, false);
  save(dir.file("B.npy"), b, n, k, false);
  const clgemm::Options o = inputs(dir, {Layout::kRow, Trans::kN, Trans::kT, 0, 7, 0});
  const clgemm::Problem p = clgemm::loadProblem(o, clgemm::inputShape(o));
  EXPECT_EQ(p.a, a);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(at(p.b, n, i, j), at(b, k, j, i));
  const auto& sb = p.storedB();  // B's rows (N of them, K long) 7 apart
  ASSERT_EQ(sb.size(), std::size_t(7 * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i) EXPECT_EQ(sb.get(std::size_t(j) * 7 + i), at(b, k, j, i));
  EXPECT_TRUE(p.c0.empty());
}

// numpy.save writes an array of one row or one column as C order whatever its flags: such a file
// has the same bytes in both orders and goes with --layout col too.
TEST(ProblemInput, OneColumnFilesGoWithEitherLayout) {
  TempDir dir;
  const auto a = labelled(4, 1, 0.0), b = labelled(1, 3, 0.0);
  save(dir.file("A.npy"), a, 4, 1, false);
  save(dir.file("B.npy"), b, 1, 3, false);
  const clgemm::Options o = inputs(dir, {Layout::kCol, Trans::kN, Trans::kN, 0, 0, 0});
  const clgemm::Problem p = clgemm::loadProblem(o, clgemm::inputShape(o));
  EXPECT_EQ(p.m, 4);
  EXPECT_EQ(p.n, 3);
  EXPECT_EQ(p.k, 1);
  EXPECT_EQ(p.a, a);
  EXPECT_EQ(p.b, b);
}

// The refusal's message, or "" when it was accepted.
std::string refusal(const clgemm::Options& o) {
  try {
    clgemm::loadProblem(o, clgemm::inputShape(o));
  } catch (const clgemm::UsageError& e) {
    EXPECT_EQ(e.code(), clgemm::kExitUsage);
    return e.what();
  }
  return "";
}

TEST(ProblemInput, AnOrderThatDisagreesWithTheLayoutIsRefusedNamingTheFile) {
  TempDir dir;
  save(dir.file("A.npy"), labelled(3, 4, 0.0), 3, 4, true);
  save(dir.file("B.npy"), labelled(4, 2, 0.0), 4, 2, false);
  const std::string row = refusal(inputs(dir, {}));
  EXPECT_NE(row.find("--input-a '" + dir.file("A.npy") + "' is in Fortran order"),
            std::string::npos)
      << row;
  EXPECT_NE(row.find("--layout col"), std::string::npos) << row;
  const std::string col = refusal(inputs(dir, {Layout::kCol, Trans::kN, Trans::kN, 0, 0, 0}));
  EXPECT_NE(col.find("--input-b '" + dir.file("B.npy") + "' is in C order"), std::string::npos)
      << col;
  EXPECT_NE(col.find("asfortranarray"), std::string::npos) << col;
}

TEST(ProblemInput, SizesFromTransposedFilesMustAgree) {
  TempDir dir;
  save(dir.file("A.npy"), labelled(3, 4, 0.0), 3, 4, false);  // --trans-a t: K = 3, M = 4
  save(dir.file("B.npy"), labelled(4, 2, 0.0), 4, 2, false);  // K = 4
  const std::string why = refusal(inputs(dir, {Layout::kRow, Trans::kT, Trans::kN, 0, 0, 0}));
  EXPECT_NE(why.find("--input-b"), std::string::npos) << why;
  EXPECT_NE(why.find("--trans-a t: op(A) is 4 x 3"), std::string::npos) << why;
  EXPECT_NE(why.find("B needs 3 rows"), std::string::npos) << why;
  clgemm::Options o = inputs(dir, {});
  o.m = 4;
  const std::string m = refusal(o);
  EXPECT_NE(m.find("-m 4 conflicts with --input-a, which implies 3"), std::string::npos) << m;
  o = inputs(dir, {Layout::kRow, Trans::kN, Trans::kN, 3, 0, 0});
  const std::string lda = refusal(o);
  EXPECT_NE(lda.find("--lda 3"), std::string::npos) << lda;
  EXPECT_NE(lda.find("at least 4"), std::string::npos) << lda;
}

TEST(ProblemInput, ResultIsWrittenInTheRunsLayout) {
  TempDir dir;
  const auto c = labelled(3, 2, 0.0);
  clgemm::writeResultNpy(dir.file("row.npy"), "--output-c", 3, 2, c, Layout::kRow,
                         Precision::kFp32);
  clgemm::writeResultNpy(dir.file("col.npy"), "--output-c", 3, 2, c, Layout::kCol,
                         Precision::kFp32);
  const clgemm::NpyMatrix row = clgemm::readNpy(dir.file("row.npy"), "--input-c");
  const clgemm::NpyMatrix col = clgemm::readNpy(dir.file("col.npy"), "--input-c");
  EXPECT_FALSE(row.fortran_order);
  EXPECT_TRUE(col.fortran_order);
  EXPECT_EQ(col.rows, 3u);
  EXPECT_EQ(col.cols, 2u);
  EXPECT_EQ(row.dtype, clgemm::NpyDtype::kFloat32);
  EXPECT_EQ(col.dtype, clgemm::NpyDtype::kFloat32);
  EXPECT_EQ(row.data, c);
  EXPECT_EQ(col.data, columnMajor(c, 3, 2));
}

// FP64 end to end on the host: float64 Fortran-order files with --trans-a t and an lda with a gap
// are read without losing a bit (the values carry parts below float's precision), stored as
// doubles, and C written back as a float64 Fortran-order file holding the same doubles.
TEST(ProblemInput, Float64ColumnMajorRoundTrip) {
  TempDir dir;
  const int m = 3, n = 2, k = 4;
  const double fine = 1.0 / 3.0 * 1e-9;  // lost in float32, kept in float64
  const auto a = labelled(k, m, 0.0, fine), b = labelled(k, n, 0.5, fine);
  const auto c = labelled(m, n, 0.25, fine);
  save(dir.file("A.npy"), a, k, m, true, Precision::kFp64);
  save(dir.file("B.npy"), b, k, n, true, Precision::kFp64);
  save(dir.file("C.npy"), c, m, n, true, Precision::kFp64);
  clgemm::Options o = inputs(dir, {Layout::kCol, Trans::kT, Trans::kN, 7, 0, 0});
  o.precisions = {Precision::kFp64};
  o.input_c = dir.file("C.npy");
  o.beta = 0.5;
  o.alpha = 1e300;  // beyond float's range: an FP64 problem keeps it
  const clgemm::Problem p = clgemm::loadProblem(o, clgemm::inputShape(o));
  EXPECT_EQ(p.precision, Precision::kFp64);
  EXPECT_EQ(p.alpha, 1e300);
  EXPECT_EQ(p.beta, 0.5);
  ASSERT_EQ(p.m, m);
  ASSERT_EQ(p.k, k);
  ASSERT_EQ(p.n, n);
  for (int r = 0; r < m; ++r)
    for (int i = 0; i < k; ++i) EXPECT_EQ(at(p.a, k, r, i), at(a, m, i, r)) << r << "," << i;
  EXPECT_EQ(p.b, b);
  EXPECT_EQ(p.c0, c);
  EXPECT_NE(double(float(at(p.a, k, 1, 1))), at(p.a, k, 1, 1));  // the fine part is there
  const auto& sa = p.storedA();  // A (K x M) column-major, lda 7: three gaps after each column
  EXPECT_EQ(sa.precision(), Precision::kFp64);
  ASSERT_EQ(sa.size(), std::size_t(7 * m));
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < k; ++i) EXPECT_EQ(sa.f64()[std::size_t(j) * 7 + i], at(a, m, i, j));
    for (int i = k; i < 7; ++i) EXPECT_TRUE(sa.isCanaryAt(std::size_t(j) * 7 + i));
  }
  EXPECT_EQ(elements(p.storedB()), columnMajor(b, k, n));
  EXPECT_EQ(clgemm::resolvedShape(p).lda, 7);

  clgemm::writeResultNpy(dir.file("out.npy"), "--output-c", m, n, p.c0, Layout::kCol,
                         Precision::kFp64);
  const clgemm::NpyMatrix out = clgemm::readNpy(dir.file("out.npy"), "--input-c");
  EXPECT_EQ(out.dtype, clgemm::NpyDtype::kFloat64);
  EXPECT_TRUE(out.fortran_order);
  EXPECT_EQ(out.rows, std::size_t(m));
  EXPECT_EQ(out.cols, std::size_t(n));
  EXPECT_EQ(out.data, columnMajor(c, m, n));
  // The file loads back as the same problem's C: what a second run would read.
  o.input_c = dir.file("out.npy");
  EXPECT_EQ(clgemm::loadProblem(o, clgemm::inputShape(o)).c0, c);
}

// An FP32 run's C is float32 even when the values came from an FP64 computation's doubles.
TEST(ProblemInput, Float32ResultIsWrittenAsFloat32) {
  TempDir dir;
  const auto c = labelled(2, 3, 0.0, 1e-9);
  clgemm::writeResultNpy(dir.file("c.npy"), "--output-c", 2, 3, c, Layout::kRow, Precision::kFp32);
  const clgemm::NpyMatrix out = clgemm::readNpy(dir.file("c.npy"), "--input-c");
  EXPECT_EQ(out.dtype, clgemm::NpyDtype::kFloat32);
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(out.data[i], double(float(c[i])));
}

// A file whose dtype is not the run's precision is refused naming the option, the file, its
// dtype and the fix, whichever way round.
TEST(ProblemInput, ADtypeThatDisagreesWithThePrecisionIsRefused) {
  TempDir dir;
  save(dir.file("A.npy"), labelled(3, 4, 0.0), 3, 4, false, Precision::kFp32);
  save(dir.file("B.npy"), labelled(4, 2, 0.0), 4, 2, false, Precision::kFp64);
  clgemm::Options o = inputs(dir, {});
  o.precisions = {Precision::kFp64};
  const std::string fp64 = refusal(o);
  EXPECT_NE(fp64.find("--input-a '" + dir.file("A.npy") + "' holds float32 ('<f4')"),
            std::string::npos)
      << fp64;
  EXPECT_NE(fp64.find("--precision fp64"), std::string::npos) << fp64;
  EXPECT_NE(fp64.find("a.astype(numpy.float64)"), std::string::npos) << fp64;
  o.precisions = {Precision::kFp32};
  const std::string fp32 = refusal(o);
  EXPECT_NE(fp32.find("--input-b '" + dir.file("B.npy") + "' holds float64 ('<f8')"),
            std::string::npos)
      << fp32;
  EXPECT_NE(fp32.find("give --precision fp64"), std::string::npos) << fp32;
  // C too, though it is read only when beta != 0.
  save(dir.file("A.npy"), labelled(3, 4, 0.0), 3, 4, false, Precision::kFp64);
  save(dir.file("C.npy"), labelled(3, 2, 0.0), 3, 2, false, Precision::kFp32);
  o.precisions = {Precision::kFp64};
  o.input_c = dir.file("C.npy");
  o.beta = 1.0;
  const std::string c = refusal(o);
  EXPECT_NE(c.find("--input-c '" + dir.file("C.npy") + "' holds float32"), std::string::npos) << c;
}

}  // namespace
