// The reference and the error ratio that every result is judged by. If these are wrong every
// other test is meaningless, so they are checked against values worked out by hand.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "check/reference.hpp"
#include "check/result_check.hpp"
#include "check/verify.hpp"
#include "problem/problem.hpp"

namespace {

clgemm::Problem twoByTwo(float alpha, float beta) {
  clgemm::Problem p;
  p.m = p.n = p.k = 2;
  p.alpha = alpha;
  p.beta = beta;
  p.a = {1, 2, 3, 4};
  p.b = {5, -6, 7, 8};
  if (beta != 0.0f) p.c0 = {1, 1, -2, 0.5f};
  return p;
}

TEST(Reference, MatchesAHandComputedProduct) {
  // A*B = [1*5+2*7, 1*-6+2*8; 3*5+4*7, 3*-6+4*8] = [19, 10; 43, 14]
  const auto ref = clgemm::computeReference(twoByTwo(1.0f, 0.0f));
  EXPECT_EQ(ref.c, (std::vector<double>{19, 10, 43, 14}));
  // |A||B| = [19, 22; 43, 50]
  EXPECT_EQ(ref.magnitude, (std::vector<double>{19, 22, 43, 50}));
}

TEST(Reference, AppliesAlphaAndBeta) {
  const auto ref = clgemm::computeReference(twoByTwo(2.0f, -0.5f));
  EXPECT_EQ(ref.c, (std::vector<double>{38 - 0.5, 20 - 0.5, 86 + 1, 28 - 0.25}));
  EXPECT_EQ(ref.magnitude, (std::vector<double>{38 + 0.5, 44 + 0.5, 86 + 1, 100 + 0.25}));
}

TEST(Reference, OddSizesCoverEveryRow) {
  // 7 rows: the reference works in blocks of 4 rows, so the last block is partial.
  const auto p = clgemm::makeRandomProblem(7, 3, 5, 1.0f, 0.0f, 1);
  const auto ref = clgemm::computeReference(p);
  for (int i = 0; i < 7; ++i) {
    for (int j = 0; j < 3; ++j) {
      double sum = 0;
      for (int k = 0; k < 5; ++k) sum += double(p.a[i * 5 + k]) * double(p.b[k * 3 + j]);
      EXPECT_DOUBLE_EQ(ref.c[i * 3 + j], sum) << i << "," << j;
    }
  }
}

TEST(Verify, ExactResultPasses) {
  const auto ref = clgemm::computeReference(twoByTwo(1.0f, 0.0f));
  const auto v = clgemm::verify(ref, {19, 10, 43, 14}, 2);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.max_ratio, 0.0);
}

TEST(Verify, RatioIsErrorOverEpsTimesMagnitude) {
  const auto ref = clgemm::computeReference(twoByTwo(1.0f, 0.0f));
  // C[1,1] off by 4 ulps of 50 (the magnitude): ratio = 4*eps*... / (eps*50) computed exactly.
  const float off = 14.0f + 50.0f * FLT_EPSILON * 4.0f;
  const auto v = clgemm::verify(ref, {19, 10, 43, off}, 2);
  EXPECT_TRUE(v.passed);
  EXPECT_NEAR(v.max_ratio, (double(off) - 14.0) / (FLT_EPSILON * 50.0), 1e-9);
  EXPECT_EQ(v.worst_row, 1u);
  EXPECT_EQ(v.worst_col, 1u);
}

TEST(Verify, ErrorAtTheThresholdFailsAndIsLocated) {
  const auto ref = clgemm::computeReference(twoByTwo(1.0f, 0.0f));
  const auto v = clgemm::verify(ref, {19, 10.001f, 43, 14}, 2);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.failures, 1u);
  EXPECT_EQ(v.worst_row, 0u);
  EXPECT_EQ(v.worst_col, 1u);
  EXPECT_GE(v.max_ratio, clgemm::kErrorRatioThreshold);
  EXPECT_NE(v.describe().find("C[0,1]"), std::string::npos);
}

TEST(Verify, UnwrittenPoisonedElementFails) {
  const auto ref = clgemm::computeReference(twoByTwo(1.0f, 0.0f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto v = clgemm::verify(ref, {19, 10, nan, 14}, 2);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.worst_row, 1u);
  EXPECT_EQ(v.worst_col, 0u);
  EXPECT_TRUE(std::isinf(v.max_ratio));
}

TEST(Verify, NanAndInfInTheInputsMustPropagate) {
  auto p = twoByTwo(1.0f, 0.0f);
  p.a[0] = std::numeric_limits<float>::quiet_NaN();  // row 0 of C becomes NaN
  p.a[3] = std::numeric_limits<float>::infinity();   // row 1: 3*b + inf*b
  const auto ref = clgemm::computeReference(p);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(clgemm::verify(ref, {nan, nan, inf, inf}, 2).passed);
  EXPECT_FALSE(clgemm::verify(ref, {0, nan, inf, inf}, 2).passed);     // NaN expected
  EXPECT_FALSE(clgemm::verify(ref, {nan, nan, -inf, inf}, 2).passed);  // wrong sign of Inf
}

TEST(Verify, ZeroMagnitudeNeedsAnExactZero) {
  clgemm::Problem p;
  p.m = p.n = p.k = 1;
  p.a = {0};
  p.b = {3};
  const auto ref = clgemm::computeReference(p);
  EXPECT_TRUE(clgemm::verify(ref, {0}, 1).passed);
  EXPECT_FALSE(clgemm::verify(ref, {1e-30f}, 1).passed);
}

// ------------------------------------------------------------------------------------------------
// FP64: a reference more exact than double (Dot2-compensated sums) and the error in DBL_EPSILON.

using clgemm::Precision;

TEST(AddProduct, KeepsTheSumsRoundingErrorThatADoubleLoses) {
  // 2^60 + 1 needs 61 bits: a double sum of 2^60, 1 and -2^60 gives 0, Dot2 the exact 1.
  const double big = std::ldexp(1.0, 60);
  double hi = 0.0, lo = 0.0, plain = 0.0;
  for (const auto& [a, b] : {std::pair{big, 1.0}, std::pair{1.0, 1.0}, std::pair{-big, 1.0}}) {
    clgemm::addProduct(hi, lo, a, b);
    plain += a * b;
  }
  EXPECT_EQ(plain, 0.0);
  EXPECT_EQ(hi + lo, 1.0);
}

TEST(AddProduct, KeepsTheProductsRoundingError) {
  // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60, of which a double keeps 1 + 2^-29; subtracting that leaves
  // 0 in double arithmetic and 2^-60 in Dot2's.
  const double x = 1.0 + std::ldexp(1.0, -30);
  const double rounded = 1.0 + std::ldexp(1.0, -29);
  double hi = 0.0, lo = 0.0;
  clgemm::addProduct(hi, lo, x, x);
  clgemm::addProduct(hi, lo, -rounded, 1.0);
  EXPECT_EQ(x * x - rounded, 0.0);
  EXPECT_EQ(hi + lo, std::ldexp(1.0, -60));
}

clgemm::Problem dotProblem(const std::vector<double>& a, const std::vector<double>& b,
                           Precision precision) {
  clgemm::Problem p;
  p.m = p.n = 1;
  p.k = int(a.size());
  p.precision = precision;
  p.a = a;  // 1 x k
  p.b = b;  // k x 1
  return p;
}

// computeReference compensates FP64 problems only: an FP32 result's own error (2^29 times a
// double's) swamps what plain double sums lose, so FP32 keeps the cheaper sum.
TEST(Reference, Fp64SumsAreCompensatedFp32SumsArePlainDouble) {
  const double big = std::ldexp(1.0, 60);  // a float too, so the FP32 problem is a real one
  const std::vector<double> a = {big, 1.0, -big}, b = {1.0, 1.0, 1.0};
  EXPECT_EQ(clgemm::computeReference(dotProblem(a, b, Precision::kFp64)).c,
            std::vector<double>{1.0});
  EXPECT_EQ(clgemm::computeReference(dotProblem(a, b, Precision::kFp32)).c,
            std::vector<double>{0.0});
}

// The exact value of sum_q a_q b_q, rounded once to double, for values that are multiples of
// 2^-52 in [-1, 1] (makeRandomProblem's FP64 draws): each product is an integer below 2^104 times
// 2^-104, so a sum of up to 2^22 of them is exact in a 128-bit integer, whose conversion to double
// rounds to nearest.
double exactDot(const double* a, const double* b, std::size_t b_stride, std::size_t k) {
  __int128 sum = 0;
  for (std::size_t q = 0; q < k; ++q) {
    const double sa = std::ldexp(a[q], 52), sb = std::ldexp(b[q * b_stride], 52);
    const auto ia = std::int64_t(sa), ib = std::int64_t(sb);
    EXPECT_EQ(double(ia), sa) << "not a multiple of 2^-52: " << a[q];
    EXPECT_EQ(double(ib), sb) << "not a multiple of 2^-52: " << b[q * b_stride];
    sum += __int128(ia) * ib;
  }
  return std::ldexp(double(sum), -104);
}

// Distance in units of the last place of `exact`.
double ulpsFrom(double got, double exact) {
  const double ulp = std::nextafter(std::fabs(exact), INFINITY) - std::fabs(exact);
  return std::fabs(got - exact) / ulp;
}

// At K = 4096 a double sum of random products loses several digits of the smaller elements; the
// FP64 reference still gives every element within one unit of the exact value rounded (Dot2's
// bound: half a unit plus about (K eps)^2 of the magnitude). Were the reference a plain double sum,
// a DGEMM as accurate as it could be would be judged against a value itself several units off.
TEST(Reference, Fp64IsFaithfulToTheExactProductWherePlainDoubleIsNot) {
  const int m = 6, n = 40, k = 4096;
  const clgemm::Problem p = clgemm::makeRandomProblem(m, n, k, 1.0, 0.0, 77, {}, Precision::kFp64);
  const clgemm::Reference ref = clgemm::computeReference(p);
  double worst_ref = 0.0, worst_plain = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const double exact = exactDot(&p.a[std::size_t(i) * k], &p.b[std::size_t(j)], n, k);
      double plain = 0.0;
      for (int q = 0; q < k; ++q)
        plain += p.a[std::size_t(i) * k + q] * p.b[std::size_t(q) * n + j];
      worst_ref = std::max(worst_ref, ulpsFrom(ref.c[i * n + j], exact));
      worst_plain = std::max(worst_plain, ulpsFrom(plain, exact));
    }
  EXPECT_LE(worst_ref, 1.0);
  // What the compensation buys at this K (the test's premise, not the reference's property).
  EXPECT_GT(worst_plain, 8.0);
}

// A C that is the FP64 reference with one element moved.
struct Fp64Case {
  clgemm::Problem problem;
  clgemm::Reference ref;
  static constexpr int kM = 17, kN = 13, kK = 29;
  static constexpr std::size_t kRow = 5, kCol = 7, kAt = kRow * kN + kCol;
};

Fp64Case fp64Case() {
  Fp64Case f;
  f.problem = clgemm::makeRandomProblem(Fp64Case::kM, Fp64Case::kN, Fp64Case::kK, 1.5, -0.5, 8, {},
                                        Precision::kFp64);
  f.ref = clgemm::computeReference(f.problem);
  return f;
}

TEST(VerifyFp64, AFewUlpsPassAnErrorOf1e10RelativeFails) {
  const Fp64Case f = fp64Case();
  // Every element 4 ulps off: a ratio of at most 4 (ulp(c) <= eps |c| <= eps * magnitude).
  std::vector<double> c = f.ref.c;
  for (double& x : c)
    for (int u = 0; u < 4; ++u) x = std::nextafter(x, INFINITY);
  const auto few =
      clgemm::verify(f.ref, c, Fp64Case::kN, clgemm::kErrorRatioThreshold, DBL_EPSILON);
  EXPECT_TRUE(few.passed) << few.describe();
  EXPECT_GT(few.max_ratio, 0.0);
  EXPECT_LE(few.max_ratio, 4.0);

  // One element off by 1e-10 of itself: about 4.5e5 in DBL_EPSILON units, 1e-3 in FLT_EPSILON's
  // (which would have let it through).
  c = f.ref.c;
  c[Fp64Case::kAt] *= 1.0 + 1e-10;
  const auto off =
      clgemm::verify(f.ref, c, Fp64Case::kN, clgemm::kErrorRatioThreshold, DBL_EPSILON);
  EXPECT_FALSE(off.passed);
  EXPECT_EQ(off.failures, 1u);
  EXPECT_EQ(off.worst_row, Fp64Case::kRow);
  EXPECT_EQ(off.worst_col, Fp64Case::kCol);
  EXPECT_NEAR(off.max_ratio,
              clgemm::errorRatio(c[Fp64Case::kAt], f.ref.c[Fp64Case::kAt],
                                 f.ref.magnitude[Fp64Case::kAt], DBL_EPSILON),
              1e-6);
  EXPECT_GT(off.max_ratio, 1e3);
  EXPECT_TRUE(
      clgemm::verify(f.ref, c, Fp64Case::kN, clgemm::kErrorRatioThreshold, FLT_EPSILON).passed);
}

TEST(VerifyFp64, ErrorRatioIsInDblEpsilonUnits) {
  // 3 DBL_EPSILON off against a magnitude of 1: ratio 3; in FLT_EPSILON units 2^-29 of that.
  EXPECT_DOUBLE_EQ(clgemm::errorRatio(1.0 + 3 * DBL_EPSILON, 1.0, 1.0, DBL_EPSILON), 3.0);
  EXPECT_DOUBLE_EQ(clgemm::errorRatio(1.0 + 3 * DBL_EPSILON, 1.0, 1.0, FLT_EPSILON),
                   3.0 * DBL_EPSILON / FLT_EPSILON);
  EXPECT_EQ(clgemm::machineEpsilon(Precision::kFp64), DBL_EPSILON);
  EXPECT_EQ(clgemm::machineEpsilon(Precision::kFp32), FLT_EPSILON);
}

// A plain double GEMM (what a correct DGEMM computes: each product and sum rounded once) passes,
// against the full reference and the sampled one alike, through ResultCheck, which takes the
// precision's epsilon from the problem.
TEST(VerifyFp64, APlainDoubleProductPasses) {
  const Fp64Case f = fp64Case();
  const clgemm::Problem& p = f.problem;
  std::vector<double> c(std::size_t(p.m) * p.n);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      double sum = 0.0;
      for (int q = 0; q < p.k; ++q) sum += p.a[i * p.k + q] * p.b[q * p.n + j];
      c[i * p.n + j] = p.alpha * sum + p.beta * p.c0[i * p.n + j];
    }
  const auto v = clgemm::verify(f.ref, c, p.n, clgemm::kErrorRatioThreshold, DBL_EPSILON);
  EXPECT_TRUE(v.passed) << v.describe();
  EXPECT_LT(v.max_ratio, 4.0);
  for (const auto mode : {clgemm::CheckMode::kFull, clgemm::CheckMode::kSampled}) {
    const clgemm::ResultCheck check(p, mode, 3);
    EXPECT_TRUE(check(c).passed) << check.kind() << ": " << check(c).describe();
  }
}

// The planted fault: an FP64 problem computed in FP32 (its inputs rounded to float and the sums
// in float, as a kernel built without REAL=double would) is an FP32-accurate result. It passes
// when judged as FP32 and must fail as FP64, in verify and in ResultCheck's full and sampled
// checks.
TEST(VerifyFp64, AResultComputedInFloatFailsTheFp64Check) {
  const Fp64Case f = fp64Case();
  const clgemm::Problem& p = f.problem;
  std::vector<double> c(std::size_t(p.m) * p.n);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      float sum = 0.0f;
      for (int q = 0; q < p.k; ++q) sum += float(p.a[i * p.k + q]) * float(p.b[q * p.n + j]);
      c[i * p.n + j] = double(float(p.alpha) * sum + float(p.beta) * float(p.c0[i * p.n + j]));
    }
  const auto as_fp32 = clgemm::verify(f.ref, c, p.n, clgemm::kErrorRatioThreshold, FLT_EPSILON);
  EXPECT_TRUE(as_fp32.passed) << as_fp32.describe();
  const auto as_fp64 = clgemm::verify(f.ref, c, p.n, clgemm::kErrorRatioThreshold, DBL_EPSILON);
  EXPECT_FALSE(as_fp64.passed);
  EXPECT_GT(as_fp64.failures, c.size() / 2) << as_fp64.describe();
  EXPECT_GT(as_fp64.max_ratio, 1e6) << as_fp64.describe();
  for (const auto mode : {clgemm::CheckMode::kFull, clgemm::CheckMode::kSampled}) {
    const clgemm::ResultCheck check(p, mode, 3);
    EXPECT_FALSE(check(c).passed) << check.kind();
  }
  // Even the FP64 reference rounded to float, the best any FP32 result can be, fails.
  std::vector<double> rounded = f.ref.c;
  for (double& x : rounded) x = double(float(x));
  EXPECT_FALSE(
      clgemm::verify(f.ref, rounded, p.n, clgemm::kErrorRatioThreshold, DBL_EPSILON).passed);
}

TEST(RandomProblem, Fp64DrawsDoublesFp32DrawsFloats) {
  const auto fp64 = clgemm::makeRandomProblem(16, 16, 16, 1.0, 0.5, 3, {}, Precision::kFp64);
  const auto fp32 = clgemm::makeRandomProblem(16, 16, 16, 1.0, 0.5, 3, {}, Precision::kFp32);
  EXPECT_EQ(fp64.precision, Precision::kFp64);
  EXPECT_EQ(fp32.precision, Precision::kFp32);
  for (const auto* p : {&fp64, &fp32}) {
    const bool is64 = p->precision == Precision::kFp64;
    std::size_t not_float = 0, total = 0;
    for (const auto* matrix : {&p->a, &p->b, &p->c0}) {
      ASSERT_EQ(matrix->size(), 256u);
      for (double x : *matrix) {
        EXPECT_GE(x, -1.0);
        EXPECT_LT(x, 1.0);
        not_float += double(float(x)) != x;
        ++total;
      }
    }
    if (is64)
      EXPECT_GT(not_float, total * 99 / 100) << "FP64 values should need more than 24 bits";
    else
      EXPECT_EQ(not_float, 0u) << "FP32 values must be floats";
    // The stored matrices hold the same values in the precision's elements.
    ASSERT_EQ(p->storedA().precision(), p->precision);
    ASSERT_EQ(p->storedA().size(), p->a.size());
    for (std::size_t i = 0; i < p->a.size(); ++i) EXPECT_EQ(p->storedA().get(i), p->a[i]);
  }
}

// applyShape rounds an FP32 problem's alpha and beta (and given matrices) to float, so the
// reference multiplies what the kernels do; an FP64 problem keeps every bit.
TEST(RandomProblem, Fp32RoundsAlphaAndBetaFp64KeepsThem) {
  const double alpha = 0.1, beta = 1.0 / 3.0;
  const auto fp64 = clgemm::makeRandomProblem(4, 4, 4, alpha, beta, 3, {}, Precision::kFp64);
  const auto fp32 = clgemm::makeRandomProblem(4, 4, 4, alpha, beta, 3, {}, Precision::kFp32);
  EXPECT_EQ(fp64.alpha, alpha);
  EXPECT_EQ(fp64.beta, beta);
  EXPECT_EQ(fp32.alpha, double(float(alpha)));
  EXPECT_EQ(fp32.beta, double(float(beta)));
}

}  // namespace
