// The problem given as .npy files (--input-a, --input-b, --input-c), in any shape of the run, and
// its result written back (--output-c). Each file holds its matrix as the caller's program stores
// it: A's file is M x K, or K x M with --trans-a t (op(A) is its transpose); B's is K x N, or N x K
// with --trans-b t; C's is M x N. A Fortran-order file is column-major data and goes with
// --layout col, a C-order one with --layout row; a file of one row or one column is both (NumPy
// saves those as C order even from numpy.asfortranarray).
#pragma once

#include <string>
#include <vector>

#include "commands/run_options.hpp"
#include "problem/problem.hpp"
#include "util/npy.hpp"

namespace clgemm {

// The logical op(A), op(B) and C0 built from the files as `shape` says, then stored as the shape
// and its leading dimensions say (applyShape: an --lda larger than the file's lines leaves gaps).
// The problem's precision is the run's (--precision, one value): a file of the other dtype is
// refused naming it, its dtype and the fix. Throws UsageError (exit 2) naming the file and the
// option when a file's order disagrees with --layout, when the files' sizes disagree with each
// other or with -m/-n/-k, or when a leading dimension is below its least.
Problem loadProblem(const Options& o, const GemmShape& shape);

// The shape the files are read in: the run's one combination of --layout, --trans-a, --trans-b
// and the leading dimensions. A list for any of the three is refused: the files are one problem.
GemmShape inputShape(const Options& o);

// Writes the logical result C (m x n, row-major) to `path` as the caller's program would hold it:
// C order for --layout row, Fortran order for --layout col (packed: --ldc's gaps are not part of
// the matrix NumPy sees), float64 for an FP64 run and float32 for an FP32 one.
void writeResultNpy(const std::string& path, const std::string& what, int m, int n,
                    const std::vector<double>& logical_c, Layout layout, Precision precision);

}  // namespace clgemm
