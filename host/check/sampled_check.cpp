#include "check/sampled_check.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "check/reference.hpp"

namespace clgemm {
namespace {

std::vector<std::size_t> chooseRows(std::size_t m, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> rows;
  if (count >= m) {
    for (std::size_t i = 0; i < m; ++i) rows.push_back(i);
    return rows;
  }
  // The edges are where tiled kernels go wrong most often, so they are always in.
  rows = {0, m - 1};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(1, m - 2);
  while (rows.size() < count) {
    const std::size_t r = pick(rng);
    if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The reference of one row of C and its magnitudes, accumulated in double (FP64: compensated).
void referenceRow(const Problem& p, std::size_t i, double* c, double* magnitude) {
  const std::size_t n = std::size_t(p.n), k = std::size_t(p.k);
  std::vector<double> lo(n, 0.0);
  const bool compensated = p.precision == Precision::kFp64;
  std::fill(c, c + n, 0.0);
  std::fill(magnitude, magnitude + n, 0.0);
  for (std::size_t kk = 0; kk < k; ++kk) {
    const double a = p.a[i * k + kk], abs_a = std::fabs(a);
    const double* brow = &p.b[kk * n];
    if (compensated) {
      for (std::size_t j = 0; j < n; ++j) {
        addProduct(c[j], lo[j], a, brow[j]);
        magnitude[j] += abs_a * std::fabs(brow[j]);
      }
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        c[j] += a * brow[j];
        magnitude[j] += abs_a * std::fabs(brow[j]);
      }
    }
  }
  for (std::size_t j = 0; j < n; ++j) {
    const double c0 = p.beta != 0.0 ? p.c0[i * n + j] : 0.0;
    c[j] = std::fma(p.alpha, c[j], std::fma(p.alpha, lo[j], p.beta * c0));
    magnitude[j] = std::fabs(p.alpha) * magnitude[j] + std::fabs(p.beta) * std::fabs(c0);
  }
}

// y = M * x for a rows x cols matrix, in double (compensated: as Dot2 sums).
std::vector<double> times(const std::vector<double>& matrix, std::size_t rows, std::size_t cols,
                          const std::vector<double>& x, bool absolute, bool compensated) {
  std::vector<double> y(rows, 0.0);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(rows); ++i) {
    double sum = 0.0, lo = 0.0;
    const double* row = &matrix[std::size_t(i) * cols];
    for (std::size_t j = 0; j < cols; ++j) {
      const double value = absolute ? std::fabs(row[j]) : row[j];
      if (compensated)
        addProduct(sum, lo, value, x[j]);
      else
        sum += value * x[j];
    }
    y[std::size_t(i)] = sum + lo;
  }
  return y;
}

}  // namespace

SampledReference computeSampledReference(const Problem& p, std::size_t rows, std::size_t vectors,
                                         std::uint64_t seed) {
  const std::size_t m = std::size_t(p.m), n = std::size_t(p.n), k = std::size_t(p.k);
  SampledReference ref;
  ref.n = n;
  ref.rows = chooseRows(m, rows, seed);
  ref.c.resize(ref.rows.size() * n);
  ref.magnitude.resize(ref.rows.size() * n);
#pragma omp parallel for schedule(dynamic, 1)
  for (long r = 0; r < long(ref.rows.size()); ++r)
    referenceRow(p, ref.rows[std::size_t(r)], &ref.c[std::size_t(r) * n],
                 &ref.magnitude[std::size_t(r) * n]);

  const bool dot2 = p.precision == Precision::kFp64;
  ref.compensated = dot2;
  const std::vector<double> ones_n(n, 1.0);
  // |alpha||A|(|B|1) + |beta||C0|1: the same for every sign vector.
  ref.x_magnitude = times(p.a, m, k, times(p.b, k, n, ones_n, true, false), true, false);
  const std::vector<double> abs_c0 =
      p.beta != 0.0 ? times(p.c0, m, n, ones_n, true, false) : std::vector<double>(m, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    ref.x_magnitude[i] = std::fabs(p.alpha) * ref.x_magnitude[i] + std::fabs(p.beta) * abs_c0[i];

  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (std::size_t v = 0; v < vectors; ++v) {
    std::vector<double> x(n);
    for (auto& value : x) value = (rng() & 1) ? 1.0 : -1.0;
    std::vector<double> y = times(p.a, m, k, times(p.b, k, n, x, false, dot2), false, dot2);
    const std::vector<double> c0x =
        p.beta != 0.0 ? times(p.c0, m, n, x, false, dot2) : std::vector<double>(m, 0.0);
    for (std::size_t i = 0; i < m; ++i) y[i] = std::fma(p.alpha, y[i], p.beta * c0x[i]);
    ref.x.push_back(std::move(x));
    ref.x_ref.push_back(std::move(y));
  }
  return ref;
}

Verification verifySampled(const SampledReference& ref, const std::vector<double>& c,
                           double threshold, double eps) {
  Verification v;
  v.threshold = threshold;
  const std::size_t n = ref.n, m = n ? c.size() / n : 0;
  double worst = -1.0;
  auto consider = [&](double ratio) {
    if (ratio >= threshold) ++v.failures;
    const bool is_worst = ratio > worst;
    if (is_worst) worst = ratio;
    return is_worst;
  };
  for (std::size_t r = 0; r < ref.rows.size(); ++r) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = ref.rows[r];
      const double got = c[i * n + j];
      if (consider(errorRatio(got, ref.c[r * n + j], ref.magnitude[r * n + j], eps))) {
        v.worst_row = i;
        v.worst_col = j;
        v.worst_value = got;
        v.worst_expected = ref.c[r * n + j];
        v.worst_detail.clear();
      }
    }
  }
  for (std::size_t t = 0; t < ref.x.size(); ++t) {
    const std::vector<double> y = times(c, m, n, ref.x[t], false, ref.compensated);
    for (std::size_t i = 0; i < m; ++i) {
      // A NaN or Inf in C shows as NaN or Inf in y.
      const double diff = std::fabs(y[i] - ref.x_ref[t][i]);
      double ratio;
      if (std::isnan(ref.x_ref[t][i]) || std::isinf(ref.x_ref[t][i]))
        ratio = errorRatio(y[i], ref.x_ref[t][i], ref.x_magnitude[i], eps);
      else if (!std::isfinite(y[i]))
        ratio = std::numeric_limits<double>::infinity();
      else
        ratio = diff == 0.0                 ? 0.0
                : ref.x_magnitude[i] == 0.0 ? std::numeric_limits<double>::infinity()
                                            : diff / (eps * ref.x_magnitude[i]);
      if (consider(ratio)) {
        std::ostringstream s;
        s << "row " << i << " of C*x (random sign vector " << t + 1 << ") = " << y[i]
          << " but alpha*A*(B*x) + beta*C0*x = " << ref.x_ref[t][i] << " (error ratio " << ratio
          << ")";
        v.worst_row = i;
        v.worst_detail = s.str();
      }
    }
  }
  v.max_ratio = worst < 0.0 ? 0.0 : worst;
  v.passed = v.failures == 0;
  return v;
}

}  // namespace clgemm
