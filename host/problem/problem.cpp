#include "problem/problem.hpp"

#include <algorithm>
#include <limits>

namespace clgemm {
namespace {

// splitmix64: fast, good enough for test data, identical on every platform (std:: distributions
// are not specified bit-for-bit).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  float uniformSigned() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return float(z >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 random bits -> [-1, 1)
  }

 private:
  std::uint64_t state_;
};

std::vector<float> randomMatrix(std::size_t count, Random& random) {
  std::vector<float> v(count);
  for (auto& x : v) x = random.uniformSigned();
  return v;
}

}  // namespace

Problem makeRandomProblem(int m, int n, int k, float alpha, float beta, std::uint64_t seed) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.beta = beta;
  Random random(seed);
  p.a = randomMatrix(std::size_t(m) * std::size_t(k), random);
  p.b = randomMatrix(std::size_t(k) * std::size_t(n), random);
  if (beta != 0.0f) p.c0 = randomMatrix(std::size_t(m) * std::size_t(n), random);
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
  const float gap = canaryValue();
  p.a_stored = s.a.packedRowMajor() ? std::vector<float>{} : storeMatrix(p.a, s.a, gap);
  p.b_stored = s.b.packedRowMajor() ? std::vector<float>{} : storeMatrix(p.b, s.b, gap);
  p.c0_stored =
      s.c.packedRowMajor() || p.c0.empty() ? std::vector<float>{} : storeMatrix(p.c0, s.c, gap);
}

std::vector<float> initialStoredC(const Problem& p) {
  const MatrixStorage c = p.storage().c;
  if (p.beta != 0.0f) return p.storedC0();
  if (!c.hasGaps()) return {};
  std::vector<float> stored(c.count(), canaryValue());
  for (std::size_t r = 0; r < std::size_t(c.rows); ++r)
    for (std::size_t col = 0; col < std::size_t(c.cols); ++col)
      stored[c.at(r, col)] = std::numeric_limits<float>::quiet_NaN();
  return stored;
}

std::uint64_t largestMatrixBytes(int m, int n, int k) {
  const std::uint64_t um = std::uint64_t(m), un = std::uint64_t(n), uk = std::uint64_t(k);
  return std::max({um * uk, uk * un, um * un}) * sizeof(float);
}

}  // namespace clgemm
