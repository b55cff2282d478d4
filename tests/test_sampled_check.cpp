// The sampled check (sampled_check.hpp) on its own, without OpenCL: a correct C passes at odd
// sizes and with beta != 0, the sample always holds the edge rows, and wrong values are caught
// both in sampled rows (element by element) and in rows outside the sample (through C*x).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "check/reference.hpp"
#include "check/result_check.hpp"
#include "check/sampled_check.hpp"
#include "check/verify.hpp"
#include "problem/problem.hpp"

namespace {

using clgemm::computeReference;
using clgemm::computeSampledReference;
using clgemm::makeRandomProblem;
using clgemm::Problem;
using clgemm::SampledReference;
using clgemm::Verification;
using clgemm::verifySampled;

constexpr int kM = 150, kN = 37, kK = 129;
constexpr std::size_t kRows = 16, kVectors = 2;
constexpr std::uint64_t kSeed = 7;

// What a correct FP32 kernel would produce: the double reference rounded to float (and held as
// doubles, as the runners return every result).
std::vector<double> correctC(const Problem& p) {
  const clgemm::Reference ref = computeReference(p);
  std::vector<double> c(ref.c.size());
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = double(float(ref.c[i]));
  return c;
}

bool sampled(const SampledReference& ref, std::size_t row) {
  return std::find(ref.rows.begin(), ref.rows.end(), row) != ref.rows.end();
}

// A row in the middle of C that the sample left out.
std::size_t unsampledRow(const SampledReference& ref, std::size_t m) {
  for (std::size_t i = m / 2; i < m; ++i)
    if (!sampled(ref, i)) return i;
  ADD_FAILURE() << "every row is in the sample";
  return 0;
}

class SampledCheck : public ::testing::TestWithParam<float> {};

TEST_P(SampledCheck, ACorrectResultPasses) {
  const float beta = GetParam();
  const Problem p = makeRandomProblem(kM, kN, kK, 1.5f, beta, 11);
  if (beta != 0.0f) ASSERT_EQ(p.c0.size(), std::size_t(kM) * kN);
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  ASSERT_EQ(ref.rows.size(), kRows);
  ASSERT_EQ(ref.x.size(), kVectors);
  ASSERT_EQ(ref.x_ref.size(), kVectors);
  ASSERT_EQ(ref.x_ref[0].size(), std::size_t(kM));
  const Verification v = verifySampled(ref, correctC(p));
  EXPECT_TRUE(v.passed) << v.describe();
  EXPECT_EQ(v.failures, 0u);
  EXPECT_LT(v.max_ratio, clgemm::kErrorRatioThreshold);
}

TEST_P(SampledCheck, AWrongSampledElementFails) {
  const float beta = GetParam();
  const Problem p = makeRandomProblem(kM, kN, kK, 1.0f, beta, 12);
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  std::vector<double> c = correctC(p);
  const std::size_t row = kM - 1, col = 5;
  c[row * kN + col] += 10.0f;
  const Verification v = verifySampled(ref, c);
  EXPECT_FALSE(v.passed);
  EXPECT_GE(v.failures, 1u);
  EXPECT_GE(v.max_ratio, clgemm::kErrorRatioThreshold);
  EXPECT_EQ(v.worst_row, row);
  const std::string text = v.describe();
  EXPECT_NE(text.find("C["), std::string::npos) << text;
}

TEST_P(SampledCheck, AWrongElementOutsideTheSampleFailsThroughCx) {
  const float beta = GetParam();
  const Problem p = makeRandomProblem(kM, kN, kK, 1.0f, beta, 13);
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  const std::size_t row = unsampledRow(ref, kM);
  ASSERT_FALSE(sampled(ref, row));
  std::vector<double> c = correctC(p);
  c[row * kN + 20] = 1e3f;
  const Verification v = verifySampled(ref, c);
  EXPECT_FALSE(v.passed);
  EXPECT_GE(v.failures, 1u);
  EXPECT_EQ(v.worst_row, row);
  const std::string text = v.describe();
  EXPECT_NE(text.find("C*x"), std::string::npos) << text;
  EXPECT_NE(text.find("row " + std::to_string(row)), std::string::npos) << text;
}

TEST_P(SampledCheck, ANaNOutsideTheSampleFails) {
  const float beta = GetParam();
  const Problem p = makeRandomProblem(kM, kN, kK, 1.0f, beta, 14);
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  const std::size_t row = unsampledRow(ref, kM);
  std::vector<double> c = correctC(p);
  c[row * kN + 3] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = verifySampled(ref, c);
  EXPECT_FALSE(v.passed);
  EXPECT_GE(v.failures, 1u);
  EXPECT_TRUE(std::isinf(v.max_ratio)) << v.max_ratio;
  EXPECT_NE(v.describe().find("C*x"), std::string::npos) << v.describe();
}

INSTANTIATE_TEST_SUITE_P(Beta, SampledCheck, ::testing::Values(0.0f, 0.5f), [](const auto& info) {
  return info.param == 0.0f ? std::string("beta0") : std::string("beta0p5");
});

TEST(SampledRows, IncludeTheEdgesSortedAndDistinct) {
  const Problem p = makeRandomProblem(kM, kN, kK, 1.0f, 0.0f, 21);
  for (std::uint64_t seed : {1u, 2u, 3u, 99u}) {
    const SampledReference ref = computeSampledReference(p, kRows, 1, seed);
    ASSERT_EQ(ref.rows.size(), kRows);
    EXPECT_EQ(ref.rows.front(), 0u);
    EXPECT_EQ(ref.rows.back(), std::size_t(kM - 1));
    EXPECT_TRUE(std::is_sorted(ref.rows.begin(), ref.rows.end()));
    EXPECT_EQ(std::set<std::size_t>(ref.rows.begin(), ref.rows.end()).size(), ref.rows.size());
    for (std::size_t r : ref.rows) EXPECT_LT(r, std::size_t(kM));
    EXPECT_EQ(ref.c.size(), kRows * kN);
    EXPECT_EQ(ref.magnitude.size(), kRows * kN);
  }
}

TEST(SampledRows, AskingForAtLeastMRowsGivesAllRows) {
  const Problem p = makeRandomProblem(9, 4, 5, 1.0f, 0.0f, 22);
  for (std::size_t rows : {9u, 10u, 64u}) {
    const SampledReference ref = computeSampledReference(p, rows, 1, kSeed);
    std::vector<std::size_t> all(9);
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    EXPECT_EQ(ref.rows, all) << rows << " rows asked for";
  }
}

TEST(SampledRows, SampledValuesMatchTheFullReference) {
  const Problem p = makeRandomProblem(kM, kN, kK, -0.75f, 0.5f, 23);
  const clgemm::Reference full = computeReference(p);
  const SampledReference ref = computeSampledReference(p, kRows, 1, kSeed);
  for (std::size_t r = 0; r < ref.rows.size(); ++r) {
    for (std::size_t j = 0; j < std::size_t(kN); ++j) {
      const std::size_t i = ref.rows[r];
      EXPECT_NEAR(ref.c[r * kN + j], full.c[i * kN + j], 1e-9) << i << "," << j;
      EXPECT_NEAR(ref.magnitude[r * kN + j], full.magnitude[i * kN + j], 1e-9) << i << "," << j;
    }
  }
}

// A NaN in A spreads over its whole row of C. A C with NaN exactly where the reference has it
// passes; real numbers there fail.
TEST(SampledNaNInput, OutsideTheSample) {
  Problem p = makeRandomProblem(kM, kN, kK, 1.0f, 0.0f, 31);
  const SampledReference clean = computeSampledReference(p, kRows, kVectors, kSeed);
  const std::size_t row = unsampledRow(clean, kM);
  p.a[row * kK + 17] = std::numeric_limits<float>::quiet_NaN();
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  ASSERT_EQ(ref.rows, clean.rows) << "the sample must not depend on the values";
  ASSERT_FALSE(sampled(ref, row));
  const std::vector<double> c = correctC(p);
  for (std::size_t j = 0; j < std::size_t(kN); ++j)
    ASSERT_TRUE(std::isnan(c[row * kN + j])) << "reference row " << row << " col " << j;
  ASSERT_TRUE(std::isnan(ref.x_ref[0][row]));

  const Verification good = verifySampled(ref, c);
  EXPECT_TRUE(good.passed) << good.describe();

  // The row computed as if A had no NaN: every NaN replaced by a number.
  std::vector<double> wrong = c;
  for (std::size_t j = 0; j < std::size_t(kN); ++j) wrong[row * kN + j] = 0.0f;
  const Verification bad = verifySampled(ref, wrong);
  EXPECT_FALSE(bad.passed);
  EXPECT_GE(bad.failures, 1u);
  EXPECT_TRUE(std::isinf(bad.max_ratio)) << bad.max_ratio;
  EXPECT_EQ(bad.worst_row, row);
}

TEST(SampledNaNInput, InASampledRow) {
  Problem p = makeRandomProblem(kM, kN, kK, 1.0f, 0.5f, 32);
  const std::size_t row = kM - 1;  // always sampled
  p.a[row * kK + 3] = std::numeric_limits<float>::quiet_NaN();
  const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
  ASSERT_TRUE(sampled(ref, row));
  const std::vector<double> c = correctC(p);
  ASSERT_TRUE(std::isnan(c[row * kN + 8]));
  EXPECT_TRUE(verifySampled(ref, c).passed) << verifySampled(ref, c).describe();

  std::vector<double> wrong = c;
  wrong[row * kN + 8] = 0.0f;
  const Verification bad = verifySampled(ref, wrong);
  EXPECT_FALSE(bad.passed);
  EXPECT_GE(bad.failures, 1u);
  EXPECT_NE(bad.describe().find("C[" + std::to_string(row) + ",8]"), std::string::npos)
      << bad.describe();
}

TEST(ResultCheckKind, FollowsTheMode) {
  const Problem p = makeRandomProblem(40, 30, 20, 1.0f, 0.0f, 41);
  const std::vector<double> c = correctC(p);
  const clgemm::ResultCheck sampled(p, clgemm::CheckMode::kSampled, kSeed);
  EXPECT_EQ(sampled.kind(), "sampled");
  EXPECT_TRUE(sampled(c).passed);
  const clgemm::ResultCheck full(p, clgemm::CheckMode::kFull, kSeed);
  EXPECT_EQ(full.kind(), "full");
  EXPECT_TRUE(full(c).passed);
  // 40*30*20 multiply-adds is far below kFullCheckMaxMacs.
  ASSERT_LT(40.0 * 30 * 20, clgemm::kFullCheckMaxMacs);
  const clgemm::ResultCheck automatic(p, clgemm::CheckMode::kAuto, kSeed);
  EXPECT_EQ(automatic.kind(), "full");

  // Both kinds reject a wrong value in row 0, which the sample always holds.
  std::vector<double> wrong = c;
  wrong[7] += 5.0f;
  EXPECT_FALSE(sampled(wrong).passed);
  EXPECT_FALSE(full(wrong).passed);
}

TEST(ResultCheckKind, DescribeCheckSaysWhatIsCompared) {
  EXPECT_NE(clgemm::describeCheck("sampled").find("verified on a sample"), std::string::npos);
  EXPECT_EQ(clgemm::describeCheck("full").find("sample"), std::string::npos);
}

// ------------------------------------------------------------------------------------------------
// FP64: the sample compensated as the full reference is, and judged in DBL_EPSILON units.

constexpr clgemm::Precision kFp64 = clgemm::Precision::kFp64;

// What a correct DGEMM computes: each product and sum rounded once to double.
std::vector<double> plainDoubleC(const Problem& p) {
  std::vector<double> c(std::size_t(p.m) * p.n);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      double sum = 0.0;
      for (int q = 0; q < p.k; ++q) sum += p.a[i * p.k + q] * p.b[q * p.n + j];
      c[i * p.n + j] = p.alpha * sum + (p.beta != 0.0 ? p.beta * p.c0[i * p.n + j] : 0.0);
    }
  return c;
}

TEST(SampledFp64, RowsAreTheFullCompensatedReference) {
  const Problem p = makeRandomProblem(kM, kN, kK, -0.75, 0.5, 23, {}, kFp64);
  const clgemm::Reference full = computeReference(p);
  const SampledReference ref = computeSampledReference(p, kRows, 1, kSeed);
  EXPECT_TRUE(ref.compensated);
  for (std::size_t r = 0; r < ref.rows.size(); ++r)
    for (std::size_t j = 0; j < std::size_t(kN); ++j) {
      const std::size_t i = ref.rows[r];
      // The same Dot2 sums in the same order: the same bits.
      EXPECT_EQ(ref.c[r * kN + j], full.c[i * kN + j]) << i << "," << j;
    }
}

TEST(SampledFp64, ACorrectResultPassesOneWrongElementFails) {
  for (double beta : {0.0, 0.5}) {
    SCOPED_TRACE(beta);
    const Problem p = makeRandomProblem(kM, kN, kK, 1.5, beta, 41, {}, kFp64);
    const SampledReference ref = computeSampledReference(p, kRows, kVectors, kSeed);
    const std::vector<double> c = plainDoubleC(p);
    const Verification good = verifySampled(ref, c, clgemm::kErrorRatioThreshold, DBL_EPSILON);
    EXPECT_TRUE(good.passed) << good.describe();
    EXPECT_LT(good.max_ratio, 4.0);

    // In a sampled row: off by 1e-10 of itself, invisible in FP32 units.
    std::vector<double> wrong = c;
    const std::size_t last = kM - 1;
    wrong[last * kN + 5] *= 1.0 + 1e-10;
    Verification bad = verifySampled(ref, wrong, clgemm::kErrorRatioThreshold, DBL_EPSILON);
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.worst_row, last);
    EXPECT_NE(bad.describe().find("C[" + std::to_string(last) + ",5]"), std::string::npos)
        << bad.describe();
    EXPECT_TRUE(verifySampled(ref, wrong, clgemm::kErrorRatioThreshold, FLT_EPSILON).passed);

    // Outside the sample: caught through C*x.
    const std::size_t row = unsampledRow(ref, kM);
    wrong = c;
    wrong[row * kN + 20] += 1e-9;
    bad = verifySampled(ref, wrong, clgemm::kErrorRatioThreshold, DBL_EPSILON);
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.worst_row, row);
    EXPECT_NE(bad.describe().find("C*x"), std::string::npos) << bad.describe();

    // ResultCheck takes DBL_EPSILON from the problem.
    const clgemm::ResultCheck check(p, clgemm::CheckMode::kSampled, kSeed);
    EXPECT_TRUE(check(c).passed) << check(c).describe();
    EXPECT_FALSE(check(wrong).passed);
  }
}

}  // namespace
