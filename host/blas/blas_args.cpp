#include "blas/blas_args.hpp"

#include <algorithm>

namespace clgemm::blas {

namespace {

bool legalTrans(char t) {
  return t == 'N' || t == 'n' || t == 'T' || t == 't' || t == 'C' || t == 'c';
}

}  // namespace

int gemmInfo(char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k,
             std::int64_t lda, std::int64_t ldb, std::int64_t ldc) {
  // Rows of the stored A and B: op(A) is M x K, op(B) is K x N (reference SGEMM's NROWA, NROWB).
  const std::int64_t nrowa = isTransposed(transa) ? k : m;
  const std::int64_t nrowb = isTransposed(transb) ? n : k;
  if (!legalTrans(transa)) return 1;
  if (!legalTrans(transb)) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < std::max<std::int64_t>(1, nrowa)) return 8;
  if (ldb < std::max<std::int64_t>(1, nrowb)) return 10;
  if (ldc < std::max<std::int64_t>(1, m)) return 13;
  return 0;
}

namespace {

char fortranTrans(int t) { return t == kCblasNoTrans ? 'N' : t == kCblasTrans ? 'T' : 'C'; }
bool legalCblasTrans(int t) {
  return t == kCblasNoTrans || t == kCblasTrans || t == kCblasConjTrans;
}

}  // namespace

int cblasXerblaInfo(int info, bool row_major) {
  if (!row_major) return info;
  switch (info) {
    case 4:
      return 5;
    case 5:
      return 4;
    case 9:
      return 11;
    case 11:
      return 9;
    default:
      return info;
  }
}

int cblasGemmInfo(int layout, int transa, int transb, std::int64_t m, std::int64_t n,
                  std::int64_t k, std::int64_t lda, std::int64_t ldb, std::int64_t ldc) {
  if (layout != kCblasColMajor && layout != kCblasRowMajor) return 1;
  if (!legalCblasTrans(transa)) return 2;
  if (!legalCblasTrans(transb)) return 3;
  if (layout == kCblasColMajor) {
    const int info = gemmInfo(fortranTrans(transa), fortranTrans(transb), m, n, k, lda, ldb, ldc);
    return info == 0 ? 0 : info + 1;
  }
  // Row-major: netlib calls SGEMM(TransB, TransA, N, M, K, alpha, B, ldb, A, lda, beta, C, ldc).
  const int info = gemmInfo(fortranTrans(transb), fortranTrans(transa), n, m, k, ldb, lda, ldc);
  return info == 0 ? 0 : cblasXerblaInfo(info + 1, true);
}

}  // namespace clgemm::blas
