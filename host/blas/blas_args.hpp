// The argument checks of the BLAS entry points, as pure functions: which parameter netlib's
// reference BLAS (SGEMM/DGEMM) and netlib's CBLAS (cblas_sgemm/cblas_dgemm) report as illegal, so
// the shim rejects exactly the calls they reject, with the same number, before anything else.
#pragma once

#include <cstdint>

namespace clgemm::blas {

// CBLAS's enum values (cblas.h), the same as clgemm.h's.
inline constexpr int kCblasRowMajor = 101, kCblasColMajor = 102;
inline constexpr int kCblasNoTrans = 111, kCblasTrans = 112, kCblasConjTrans = 113;

// netlib's INFO for SGEMM/DGEMM: 0 when legal, else the first failing check in reference BLAS's
// order: 1 TRANSA not one of N n T t C c, 2 TRANSB, 3 M < 0, 4 N < 0, 5 K < 0,
// 8 LDA < max(1, rows of the stored A), 10 LDB < max(1, rows of the stored B), 13 LDC < max(1, M).
// The Fortran source tests them as one IF ... ELSE IF chain, so the first failing check in this
// order wins (M < 0 with a bad LDC is 3).
int gemmInfo(char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k,
             std::int64_t lda, std::int64_t ldb, std::int64_t ldc);

// The parameter number netlib's CBLAS reports for cblas_sgemm/cblas_dgemm (1 layout, 2 TransA,
// 3 TransB, 4 M, 5 N, 6 K, 9 lda, 11 ldb, 14 ldc; 0 when legal). netlib checks the layout and the
// transposes itself, then hands the rest to the Fortran SGEMM, adding 1 for the layout parameter;
// in row-major it calls SGEMM on the transposed problem (B and A swapped, N for M), so SGEMM's
// checks run in that order (N before M, ldb before lda) and cblas_xerbla swaps the numbers back
// (4 <-> 5, 9 <-> 11). This is the number after that swap: the parameter that is wrong.
int cblasGemmInfo(int layout, int transa, int transb, std::int64_t m, std::int64_t n,
                  std::int64_t k, std::int64_t lda, std::int64_t ldb, std::int64_t ldc);

// What netlib's cblas_sgemm hands cblas_xerbla for the parameter `info` (from cblasGemmInfo): in
// row-major, with the global RowMajorStrg set, the number before its swap (4 <-> 5, 9 <-> 11),
// which every cblas_xerbla that reads RowMajorStrg (netlib's, and its CBLAS tests') swaps back.
int cblasXerblaInfo(int info, bool row_major);

// netlib's quick return: nothing is read or written when M or N is 0, or when the product
// vanishes (alpha == 0 or K == 0) and beta == 1.
template <typename T>
bool isQuickReturn(std::int64_t m, std::int64_t n, std::int64_t k, T alpha, T beta) {
  return m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1));
}

// A Fortran TRANS character as a transpose flag (N n: false; T t C c: true); only for legal ones.
inline bool isTransposed(char trans) { return trans != 'N' && trans != 'n'; }

}  // namespace clgemm::blas
