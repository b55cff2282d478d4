#include "check/verify.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <sstream>

namespace clgemm {
double errorRatio(double got, double expected, double magnitude, double eps) {
  if (std::isnan(expected)) return std::isnan(got) ? 0.0 : std::numeric_limits<double>::infinity();
  if (std::isinf(expected)) return got == expected ? 0.0 : std::numeric_limits<double>::infinity();
  if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
  const double diff = std::fabs(got - expected);
  if (diff == 0.0) return 0.0;
  if (magnitude == 0.0) return std::numeric_limits<double>::infinity();
  return diff / (eps * magnitude);
}

Verification verify(const Reference& ref, const std::vector<double>& c, std::size_t n,
                    double threshold, double eps) {
  Verification v;
  v.threshold = threshold;
  double worst = -1.0;
  std::size_t worst_index = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double ratio = errorRatio(c[i], ref.c[i], ref.magnitude[i], eps);
    if (ratio >= threshold) ++v.failures;
    if (ratio > worst) {
      worst = ratio;
      worst_index = i;
    }
  }
  v.max_ratio = worst < 0.0 ? 0.0 : worst;
  v.passed = v.failures == 0;
  if (!c.empty()) {
    v.worst_row = worst_index / n;
    v.worst_col = worst_index % n;
    v.worst_value = c[worst_index];
    v.worst_expected = ref.c[worst_index];
  }
  return v;
}

std::string Verification::describe() const {
  std::ostringstream s;
  if (!worst_detail.empty()) {
    s << worst_detail << "; " << failures << " check(s) at or over the threshold " << threshold;
    return s.str();
  }
  s << "C[" << worst_row << "," << worst_col << "] = " << worst_value << " but the reference is "
    << worst_expected << " (error ratio " << max_ratio << "); " << failures
    << " element(s) at or over the threshold " << threshold;
  return s.str();
}

}  // namespace clgemm
