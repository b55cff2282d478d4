#include "problem/problem.hpp"

#include <limits>

namespace clgemm {
namespace {

// splitmix64: fast, good enough for test data, identical on every platform (std:: distributions
// are not specified bit-for-bit).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniformSigned() {
    return float(next() >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 random bits -> [-1, 1)
  }
  double uniformSignedDouble() {
    const std::uint64_t z = next();
    return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;  // 53 random bits -> [-1, 1)
  }

 private:
  std::uint64_t state_;
};

std::vector<double> randomMatrix(std::size_t count, Random& random, Precision precision) {
  std::vector<double> v(count);
  for (auto& x : v)
    x = precision == Precision::kFp64 ? random.uniformSignedDouble() : random.uniformSigned();
  return v;
}

}  // namespace

Problem makeRandomProblem(int m, int n, int k, double alpha, double beta, std::uint64_t seed,
                          const GemmShape& shape, Precision precision) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  p.precision = precision;
  Random random(seed);
  p.a = randomMatrix(std::size_t(m) * std::size_t(k), random, precision);
  p.b = randomMatrix(std::size_t(k) * std::size_t(n), random, precision);
  if (beta != 0.0) p.c0 = randomMatrix(std::size_t(m) * std::size_t(n), random, precision);
  applyShape(p, shape);
  return p;
}

GemmShape resolvedShape(const Problem& p) {
  const GemmStorage s = p.storage();
  GemmShape shape = p.shape;
  shape.lda = s.a.ld;
  shape.ldb = s.b.ld;
  shape.ldc = s.c.ld;
  return shape;
}

void applyShape(Problem& p, const GemmShape& shape) {
  p.shape = shape;
  const GemmStorage s = p.storage();  // checks the leading dimensions
  if (p.precision == Precision::kFp32) {
    for (auto* logical : {&p.a, &p.b, &p.c0})
      for (double& x : *logical) x = double(float(x));
    // Through a volatile float: GCC 12.2 at -O2 drops `p.alpha = double(float(p.alpha))` here
    // (next to the loops above), leaving alpha and beta unrounded (tests/test_verify.cpp's
    // RandomProblem.Fp32RoundsAlphaAndBetaFp64KeepsThem).
    for (double* scalar : {&p.alpha, &p.beta}) {
      volatile float rounded = float(*scalar);
      *scalar = rounded;
    }
  }
  p.a_stored = storeMatrix(p.a, s.a, p.precision);
  p.b_stored = storeMatrix(p.b, s.b, p.precision);
  p.c0_stored = p.c0.empty() ? HostMatrix() : storeMatrix(p.c0, s.c, p.precision);
}

HostMatrix initialStoredC(const Problem& p) {
  const MatrixStorage c = p.storage().c;
  if (p.beta != 0.0) return p.storedC0();
  if (!c.hasGaps()) return {};
  HostMatrix stored(p.precision, c.count());
  for (std::size_t i = 0; i < stored.size(); ++i) stored.setCanary(i);
  for (std::size_t r = 0; r < std::size_t(c.rows); ++r)
    for (std::size_t col = 0; col < std::size_t(c.cols); ++col)
      stored.set(c.at(r, col), std::numeric_limits<double>::quiet_NaN());
  return stored;
}

}  // namespace clgemm
