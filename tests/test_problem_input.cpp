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

// A rows x cols matrix whose element (r, c) is 100 r + c + base: every element tells where it is.
std::vector<float> labelled(int rows, int cols, float base) {
  std::vector<float> x(std::size_t(rows) * std::size_t(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) x[std::size_t(r) * cols + c] = 100.0f * r + c + base;
  return x;
}

// The same matrix in column-major order, as numpy.asfortranarray keeps it.
std::vector<float> columnMajor(const std::vector<float>& x, int rows, int cols) {
  std::vector<float> y(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) y[std::size_t(c) * rows + r] = x[std::size_t(r) * cols + c];
  return y;
}

// Saves X (logical rows x cols) as numpy.save would: C order, or Fortran order.
void save(const std::string& path, const std::vector<float>& x, int rows, int cols, bool fortran) {
  clgemm::writeNpy(path, "test", std::size_t(rows), std::size_t(cols),
                   fortran ? columnMajor(x, rows, cols) : x, fortran);
}

float at(const std::vector<float>& x, int cols, int r, int c) {
  return x[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
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
  const auto a = labelled(k, m, 0.0f), b = labelled(n, k, 0.5f), c = labelled(m, n, 0.25f);
  save(dir.file("A.npy"), a, k, m, true);
  save(dir.file("B.npy"), b, n, k, true);
  save(dir.file("C.npy"), c, m, n, true);
  const GemmShape shape{Layout::kCol, Trans::kT, Trans::kT, 6, 0, 5};
  clgemm::Options o = inputs(dir, shape);
  o.input_c = dir.file("C.npy");
  o.beta = 1.0f;
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
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < k; ++i) EXPECT_EQ(sa[std::size_t(j) * 6 + i], at(a, m, i, j));
    for (int i = k; i < 6; ++i) EXPECT_TRUE(clgemm::isCanary(sa[std::size_t(j) * 6 + i]));
  }
  EXPECT_EQ(p.storedB(), columnMajor(b, n, k));
  const auto& sc = p.storedC0();
  ASSERT_EQ(sc.size(), std::size_t(5 * n));
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < m; ++r) EXPECT_EQ(sc[std::size_t(j) * 5 + r], at(c, n, r, j));
  const GemmShape resolved = clgemm::resolvedShape(p);
  EXPECT_EQ(resolved.lda, 6);
  EXPECT_EQ(resolved.ldb, n);
  EXPECT_EQ(resolved.ldc, 5);
}

// Row-major with --trans-b t: B's file is N x K in C order.
TEST(ProblemInput, RowMajorTransposedB) {
  TempDir dir;
  const int m = 2, n = 3, k = 5;
  const auto a = labelled(m, k, 0.0f), b = labelled(n, k, 0.5f);
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
    for (int i = 0; i < k; ++i) EXPECT_EQ(sb[std::size_t(j) * 7 + i], at(b, k, j, i));
  EXPECT_TRUE(p.c0.empty());
}

// numpy.save writes an array of one row or one column as C order whatever its flags: such a file
// has the same bytes in both orders and goes with --layout col too.
TEST(ProblemInput, OneColumnFilesGoWithEitherLayout) {
  TempDir dir;
  const auto a = labelled(4, 1, 0.0f), b = labelled(1, 3, 0.0f);
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
  save(dir.file("A.npy"), labelled(3, 4, 0.0f), 3, 4, true);
  save(dir.file("B.npy"), labelled(4, 2, 0.0f), 4, 2, false);
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
  save(dir.file("A.npy"), labelled(3, 4, 0.0f), 3, 4, false);  // --trans-a t: K = 3, M = 4
  save(dir.file("B.npy"), labelled(4, 2, 0.0f), 4, 2, false);  // K = 4
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
  const auto c = labelled(3, 2, 0.0f);
  clgemm::writeResultNpy(dir.file("row.npy"), "--output-c", 3, 2, c, Layout::kRow);
  clgemm::writeResultNpy(dir.file("col.npy"), "--output-c", 3, 2, c, Layout::kCol);
  const clgemm::NpyMatrix row = clgemm::readNpy(dir.file("row.npy"), "--input-c");
  const clgemm::NpyMatrix col = clgemm::readNpy(dir.file("col.npy"), "--input-c");
  EXPECT_FALSE(row.fortran_order);
  EXPECT_TRUE(col.fortran_order);
  EXPECT_EQ(col.rows, 3u);
  EXPECT_EQ(col.cols, 2u);
  EXPECT_EQ(row.data, c);
  EXPECT_EQ(col.data, columnMajor(c, 3, 2));
}

}  // namespace
