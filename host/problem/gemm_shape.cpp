#include "problem/gemm_shape.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "util/errors.hpp"

namespace clgemm {
namespace {

// The stored matrix of a logical rows x cols operand op(X): X is op's transpose where `op_t`, and
// column-major X is stored transposed (both: row-major again); ld as given, or the least.
MatrixStorage storageOf(int rows, int cols, bool op_t, bool col, int ld,
                        const std::string& option) {
  MatrixStorage s{rows, cols, 0, col != op_t};
  const int least = std::max(1, s.lineLength());
  if (ld == 0) {
    s.ld = least;
  } else if (ld < least) {
    // In the caller's terms: X's size and the lines (rows, or columns in column-major) it is kept
    // in.
    const std::string matrix(1, char(std::toupper(option.back())));  // --lda: A
    const int x_rows = op_t ? cols : rows, x_cols = op_t ? rows : cols;
    throw UsageError(option + " " + std::to_string(ld) + " is less than " + std::to_string(least) +
                     ", the length of " + matrix + "'s " + (col ? "columns" : "rows") + " (" +
                     matrix + " is " + std::to_string(x_rows) + " x " + std::to_string(x_cols) +
                     ", " + (col ? "column" : "row") + "-major): give at least " +
                     std::to_string(least) + " or leave it out (packed)");
  } else {
    s.ld = ld;
  }
  return s;
}

}  // namespace

namespace {

// A value of type T with these bits, and whether a value has them: the canaries are bit patterns.
template <typename T, typename Bits>
T withBits(Bits bits) {
  static_assert(sizeof(T) == sizeof(Bits));
  T value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

template <typename T, typename Bits>
bool hasBits(T value, Bits bits) {
  return std::memcmp(&value, &bits, sizeof value) == 0;
}

}  // namespace

float canaryValue() { return withBits<float>(kCanaryBits); }
bool isCanary(float value) { return hasBits(value, kCanaryBits); }
double canaryValue64() { return withBits<double>(kCanaryBits64); }
bool isCanary64(double value) { return hasBits(value, kCanaryBits64); }

std::string layoutName(Layout layout) { return layout == Layout::kRow ? "row" : "col"; }
std::string transName(Trans trans) { return trans == Trans::kN ? "n" : "t"; }

std::string GemmShape::transPair() const {
  return std::string(trans_a == Trans::kN ? "N" : "T") + (trans_b == Trans::kN ? "N" : "T");
}

std::string shapeLabel(const GemmShape& shape) {
  std::string label = layoutName(shape.layout) + " " + shape.transPair();
  if (shape.lda) label += " lda=" + std::to_string(shape.lda);
  if (shape.ldb) label += " ldb=" + std::to_string(shape.ldb);
  if (shape.ldc) label += " ldc=" + std::to_string(shape.ldc);
  return label;
}

GemmStorage gemmStorage(int m, int n, int k, const GemmShape& shape) {
  const bool col = shape.layout == Layout::kCol;
  return {storageOf(m, k, shape.trans_a == Trans::kT, col, shape.lda, "--lda"),
          storageOf(k, n, shape.trans_b == Trans::kT, col, shape.ldb, "--ldb"),
          storageOf(m, n, false, col, shape.ldc, "--ldc")};
}

RowMajorGemm rowMajorGemm(int m, int n, int k, const GemmStorage& storage) {
  if (!storage.c.transposed) return {m, n, k, storage.a, storage.b, storage.c, false};
  return {
      n,   m, k, storage.b.transposedView(), storage.a.transposedView(), storage.c.transposedView(),
      true};
}

HostMatrix storeMatrix(const std::vector<double>& logical, const MatrixStorage& s,
                       Precision precision) {
  HostMatrix stored(precision, s.count());
  for (std::size_t i = 0; i < stored.size(); ++i) stored.setCanary(i);
  const std::size_t rows = std::size_t(s.rows), cols = std::size_t(s.cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) stored.set(s.at(r, c), logical[r * cols + c]);
  return stored;
}

namespace {

template <typename T>
void gatherTyped(const T* stored, const MatrixStorage& s, std::vector<double>& logical) {
  const std::size_t rows = std::size_t(s.rows), cols = std::size_t(s.cols);
  logical.resize(rows * cols);
  // Along the stored lines, so the reads stream.
  if (s.transposed) {
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t r = 0; r < rows; ++r) logical[r * cols + c] = stored[s.at(r, c)];
  } else {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) logical[r * cols + c] = stored[s.at(r, c)];
  }
}

}  // namespace

void gatherMatrix(const void* stored, Precision precision, const MatrixStorage& s,
                  std::vector<double>& logical) {
  if (precision == Precision::kFp64)
    gatherTyped(static_cast<const double*>(stored), s, logical);
  else
    gatherTyped(static_cast<const float*>(stored), s, logical);
}

void gatherMatrix(const HostMatrix& stored, const MatrixStorage& s, std::vector<double>& logical) {
  gatherMatrix(stored.data(), stored.precision(), s, logical);
}

std::vector<double> gatherMatrix(const HostMatrix& stored, const MatrixStorage& s) {
  std::vector<double> logical;
  gatherMatrix(stored, s, logical);
  return logical;
}

}  // namespace clgemm
