#include "run/timing.hpp"

#include <algorithm>
#include <chrono>

namespace clgemm {

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n == 0) return 0.0;
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double Timings::median() const { return medianOf(ms); }

std::optional<double> Timings::helperMedian() const {
  if (helper_ms.empty()) return std::nullopt;
  return medianOf(helper_ms);
}

double Timings::min() const { return ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end()); }

Timings timeHostCalls(int warmup, int reps, const std::function<void()>& prepare,
                      const std::function<void()>& call) {
  Timings timings;
  for (int i = 0; i < warmup + reps; ++i) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    call();
    const auto end = std::chrono::steady_clock::now();
    if (i >= warmup)
      timings.ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return timings;
}

}  // namespace clgemm
