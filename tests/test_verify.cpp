// The reference and the error ratio that every result is judged by. If these are wrong every
// other test is meaningless, so they are checked against values worked out by hand.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "check/reference.hpp"
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

}  // namespace
