// Verification for sizes where the full double reference would take minutes: a sample of rows of
// C checked element by element against the double reference, plus the random-vector product test
// (Freivalds; the check BLIS's test suite uses) on every row: C*x against alpha*A*(B*x) +
// beta*C0*x for random sign vectors x. Both use the netlib error ratio and its threshold; the
// vector test's magnitude is |alpha||A|(|B||x|) + |beta||C0||x|, which bounds the rounding a
// correct C can show in C*x, so a correct C always passes and a wrong row shows up unless its
// errors are small against that whole row's magnitude.
#pragma once

#include <cstdint>
#include <vector>

#include "check/verify.hpp"
#include "problem/problem.hpp"

namespace clgemm {

struct SampledReference {
  std::size_t n = 0;
  bool compensated = false;                // FP64: products summed as Dot2 does (reference.hpp)
  std::vector<std::size_t> rows;           // the sampled rows, ascending
  std::vector<double> c;                   // their reference values, rows.size() x n
  std::vector<double> magnitude;           // and magnitudes
  std::vector<std::vector<double>> x;      // the random sign vectors, n each
  std::vector<std::vector<double>> x_ref;  // alpha*A*(B*x) + beta*C0*x, m each
  std::vector<double> x_magnitude;         // |alpha||A|(|B|1) + |beta||C0|1, m (x is +-1)
};

// `rows` rows (all of them when M is smaller) including the first and the last, the rest drawn
// with `seed`; `vectors` sign vectors.
SampledReference computeSampledReference(const Problem& problem, std::size_t rows,
                                         std::size_t vectors, std::uint64_t seed);

Verification verifySampled(const SampledReference& ref, const std::vector<double>& c,
                           double threshold = kErrorRatioThreshold, double eps = kFp32Epsilon);

}  // namespace clgemm
