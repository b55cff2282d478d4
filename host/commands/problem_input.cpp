#include "commands/problem_input.hpp"

#include <optional>
#include <utility>

#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string dims(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// A size set on the command line must agree with the one a .npy file implies.
void requireSame(const std::optional<int>& given, std::size_t from_file, const std::string& option,
                 const std::string& file_option) {
  if (given && std::size_t(*given) != from_file) {
    throw UsageError(option + " " + std::to_string(*given) + " conflicts with " + file_option +
                     ", which implies " + std::to_string(from_file));
  }
}

// The file's order must be the run's layout. A file of one row or one column has the same bytes
// in both orders, and numpy.save writes such an array as C order whatever its flags say, so it
// goes with either layout.
void requireOrder(const NpyMatrix& file, const std::string& option, const std::string& path,
                  Layout layout) {
  if (file.rows == 1 || file.cols == 1) return;
  if (file.fortran_order && layout == Layout::kRow) {
    throw UsageError(option + " '" + path +
                     "' is in Fortran order (column-major data), which goes with --layout col, "
                     "but this run is --layout row: give --layout col, or save a C-order copy "
                     "(numpy.ascontiguousarray)");
  }
  if (!file.fortran_order && layout == Layout::kCol) {
    throw UsageError(option + " '" + path +
                     "' is in C order (row-major data), which goes with --layout row, but this "
                     "run is --layout col: save it in Fortran order "
                     "(numpy.save(path, numpy.asfortranarray(x))), or give --layout row");
  }
}

// The file's dtype must be the run's precision: a float32 file in an FP64 run would be judged in
// DBL_EPSILON units with inputs carrying 24 bits (and the user asked for FP64 data, not floats
// widened), a float64 file in an FP32 run would be rounded silently.
void requireDtype(const NpyMatrix& file, const std::string& option, const std::string& path,
                  Precision precision) {
  const NpyDtype wanted = precision == Precision::kFp64 ? NpyDtype::kFloat64 : NpyDtype::kFloat32;
  if (file.dtype == wanted) return;
  const std::string fix =
      precision == Precision::kFp64
          ? "save it as float64 (a.astype(numpy.float64)), or give --precision fp32"
          : "give --precision fp64, or save it as float32 (a.astype(numpy.float32))";
  throw UsageError(option + " '" + path + "' holds " + npyDtypeName(file.dtype) + " (" +
                   npyDescr(file.dtype) + ") but this run is --precision " +
                   precisionName(precision) + ": " + fix);
}

// The file's matrix as a logical row-major one (its rows x cols, packed), whichever its order.
std::vector<double> rowMajorOf(const NpyMatrix& file) {
  if (!file.fortran_order) return file.data;
  const MatrixStorage column_major{int(file.rows), int(file.cols), int(file.rows), true};
  std::vector<double> logical;
  gatherMatrix(file.data.data(), Precision::kFp64, column_major, logical);
  return logical;
}

// op(X) of the file's matrix X: X itself, or its transpose (logical, row-major, packed).
std::vector<double> opOf(const NpyMatrix& file, Trans trans) {
  std::vector<double> x = rowMajorOf(file);
  if (trans == Trans::kN) return x;
  // X^T's element (r, c) is X's (c, r): X read as a transposed rows x cols matrix.
  const MatrixStorage x_as_transpose{int(file.cols), int(file.rows), int(file.cols), true};
  std::vector<double> transposed;
  gatherMatrix(x.data(), Precision::kFp64, x_as_transpose, transposed);
  return transposed;
}

// "4 x 5" and, when transposed, what op() makes of it, for messages.
std::string opText(const NpyMatrix& file, Trans trans, const std::string& matrix) {
  std::string text = dims(file.rows, file.cols);
  if (trans == Trans::kT)
    text += " (--trans-" + std::string(1, char(matrix[0] - 'A' + 'a')) + " t: op(" + matrix +
            ") is " + dims(file.cols, file.rows) + ")";
  return text;
}

}  // namespace

GemmShape inputShape(const Options& o) {
  const std::vector<GemmShape> shapes = gemmShapes(o);
  // options.cpp refuses the lists with a message naming them; this only guards the assumption.
  if (shapes.size() != 1)
    throw UsageError("--input-a is one problem: give one value to --layout, --trans-a, --trans-b");
  return shapes.front();
}

Problem loadProblem(const Options& o, const GemmShape& shape) {
  NpyMatrix a = readNpy(o.input_a, "--input-a");
  NpyMatrix b = readNpy(o.input_b, "--input-b");
  // options.cpp refuses a --precision list with --input-a: the files are one problem.
  const Precision precision = o.precisions.front();
  requireDtype(a, "--input-a", o.input_a, precision);
  requireDtype(b, "--input-b", o.input_b, precision);
  requireOrder(a, "--input-a", o.input_a, shape.layout);
  requireOrder(b, "--input-b", o.input_b, shape.layout);
  const bool a_t = shape.trans_a == Trans::kT, b_t = shape.trans_b == Trans::kT;
  const std::size_t m = a_t ? a.cols : a.rows, k = a_t ? a.rows : a.cols;
  const std::size_t b_k = b_t ? b.cols : b.rows, n = b_t ? b.rows : b.cols;
  if (b_k != k) {
    throw UsageError("--input-b '" + o.input_b + "' is " + opText(b, shape.trans_b, "B") +
                     " but --input-a is " + opText(a, shape.trans_a, "A") + ": " +
                     (b_t ? "B needs " + std::to_string(k) + " columns (--trans-b t)"
                          : "B needs " + std::to_string(k) + " rows"));
  }
  requireSame(o.m, m, "-m", "--input-a");
  requireSame(o.k, k, "-k", "--input-a");
  requireSame(o.n, n, "-n", "--input-b");
  Problem p;
  p.m = int(m);
  p.k = int(k);
  p.n = int(n);
  p.alpha = o.alpha;
  p.beta = o.beta;
  p.precision = precision;
  p.a = opOf(a, shape.trans_a);
  p.b = opOf(b, shape.trans_b);
  if (!o.input_c.empty()) {
    NpyMatrix c = readNpy(o.input_c, "--input-c");
    requireDtype(c, "--input-c", o.input_c, precision);
    requireOrder(c, "--input-c", o.input_c, shape.layout);
    if (c.rows != m || c.cols != n) {
      throw UsageError("--input-c '" + o.input_c + "' is " + dims(c.rows, c.cols) +
                       " but op(A) * op(B) is " + dims(m, n));
    }
    if (p.beta != 0.0) p.c0 = rowMajorOf(c);
  } else if (p.beta != 0.0) {
    // beta != 0 without a C: start from random C like a generated problem does.
    p.c0 = makeRandomProblem(p.m, p.n, 1, 0.0, 1.0, o.seed, {}, precision).c0;
  }
  applyShape(p, shape);  // the stored forms; refuses a leading dimension below the file's lines
  return p;
}

void writeResultNpy(const std::string& path, const std::string& what, int m, int n,
                    const std::vector<double>& logical_c, Layout layout, Precision precision) {
  // Fortran order for --layout col: C's columns one after the other (packed), as the caller's
  // column-major program holds it.
  std::vector<double> ordered = logical_c;
  if (layout == Layout::kCol) {
    const MatrixStorage column_major{m, n, m, true};
    const HostMatrix stored = storeMatrix(logical_c, column_major, Precision::kFp64);
    ordered.assign(stored.f64(), stored.f64() + stored.size());
  }
  const bool fortran = layout == Layout::kCol;
  if (precision == Precision::kFp64)
    writeNpy(path, what, std::size_t(m), std::size_t(n), ordered, fortran);
  else
    writeNpy(path, what, std::size_t(m), std::size_t(n),
             std::vector<float>(ordered.begin(), ordered.end()), fortran);
}

}  // namespace clgemm
