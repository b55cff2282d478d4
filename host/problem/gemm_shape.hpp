// How a BLAS caller lays out a GEMM: row- or column-major, op(A) and op(B) as stored or
// transposed, and leading dimensions larger than a row. clgemm keeps every problem's matrices in
// two forms: the logical ones (op(A) as M x K, op(B) as K x N, C as M x N, packed row-major), which
// the reference and verification read, and the stored ones, laid out as the caller's program
// would hold them, which every variant is given. MatrixStorage maps one to the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "problem/host_matrix.hpp"

namespace clgemm {

// A quiet NaN with a payload no arithmetic produces, in the guards around every matrix
// (check/memory_check.hpp) and in the gaps between stored lines: a write into one changes its
// bits, and a read of one that reaches C makes a NaN that verification fails.
inline constexpr std::uint32_t kCanaryBits = 0x7FC0FFEEu;
float canaryValue();
bool isCanary(float value);
// The same for doubles, in the gaps of FP64 matrices (guards are bytes: they keep the float
// pattern whatever the precision).
inline constexpr std::uint64_t kCanaryBits64 = 0x7FF8C0FFEEC0FFEEull;
double canaryValue64();
bool isCanary64(double value);

enum class Layout { kRow, kCol };
enum class Trans { kN, kT };

// "row" / "col", "n" / "t": as the options take them and the reports print them.
std::string layoutName(Layout layout);
std::string transName(Trans trans);

// One matrix as it lies in memory: logical element (r, c) of a rows x cols matrix is at
// `transposed ? c * ld + r : r * ld + c`. A stored line (a row, or a column when transposed) is
// ld floats long; the floats past the matrix's own in each line are the gap.
struct MatrixStorage {
  int rows = 0, cols = 0;
  int ld = 0;
  bool transposed = false;
  // Elements before (0, 0) in its buffer: 0 in the command line's problems, the caller's offset
  // in the library's (clgemmSgemm's a_offset ...). count() and at() are relative to it.
  int offset = 0;

  // The length of a line, the least ld may be.
  int lineLength() const { return transposed ? rows : cols; }
  std::size_t lines() const { return std::size_t(transposed ? cols : rows); }
  // Floats the stored matrix spans, gaps included (the last line's too).
  std::size_t count() const { return lines() * std::size_t(ld); }
  std::size_t at(std::size_t r, std::size_t c) const {
    return transposed ? c * std::size_t(ld) + r : r * std::size_t(ld) + c;
  }
  bool hasGaps() const { return ld > lineLength(); }
  // Row-major with no gaps: the stored matrix is the logical one.
  bool packedRowMajor() const { return !transposed && !hasGaps(); }
  // The same memory read as the transposed matrix (cols x rows).
  MatrixStorage transposedView() const { return {cols, rows, ld, !transposed, offset}; }
};

// What the caller chose; leading dimensions 0 mean packed (the least allowed).
struct GemmShape {
  Layout layout = Layout::kRow;
  Trans trans_a = Trans::kN, trans_b = Trans::kN;
  int lda = 0, ldb = 0, ldc = 0;

  // Row-major, NN, packed: the one shape every variant of clgemm's first versions handled.
  bool isDefault() const {
    return layout == Layout::kRow && trans_a == Trans::kN && trans_b == Trans::kN && lda == 0 &&
           ldb == 0 && ldc == 0;
  }
  // "NN", "TN", ...: op(A) then op(B), as BLAS names the cases.
  std::string transPair() const;
};

// "col TN lda=40": the parts that differ from the default (row, NN, packed), for progress lines.
std::string shapeLabel(const GemmShape& shape);

// The three matrices of an m x n x k problem stored as `shape` says. A's stored matrix is m x k
// (k x m when transposed by op), B's k x n (n x k), C's m x n; column-major stores each transposed.
// The leading dimensions are the shape's, or the least where 0. Throws UsageError naming the
// option (--lda, --ldb, --ldc) when one is below its least.
struct GemmStorage {
  MatrixStorage a, b, c;
};
GemmStorage gemmStorage(int m, int n, int k, const GemmShape& shape);

// The problem as a row-major one, which is what the OpenCL kernels compute. Column-major C is the
// transpose of a row-major n x m matrix C' = op(B)^T op(A)^T, so the two operands swap places
// (`swapped`: the kernel's A is the caller's B) and each is read as its transpose; the memory is
// the same. Row-major problems pass through.
struct RowMajorGemm {
  int m = 0, n = 0, k = 0;
  MatrixStorage a, b, c;  // c is never transposed
  bool swapped = false;
};
RowMajorGemm rowMajorGemm(int m, int n, int k, const GemmStorage& storage);

// The stored form of a logical rows x cols row-major matrix in `precision`: each element placed
// as `storage` says (rounded to float for FP32), the gaps holding the precision's canary.
HostMatrix storeMatrix(const std::vector<double>& logical, const MatrixStorage& storage,
                       Precision precision);
// The logical matrix (row-major, packed) of a stored one, into `logical` (resized); `stored`
// holds storage.count() elements of `precision`.
void gatherMatrix(const void* stored, Precision precision, const MatrixStorage& storage,
                  std::vector<double>& logical);
void gatherMatrix(const HostMatrix& stored, const MatrixStorage& storage,
                  std::vector<double>& logical);
std::vector<double> gatherMatrix(const HostMatrix& stored, const MatrixStorage& storage);

}  // namespace clgemm
