#include "run/timing.hpp"

#include <algorithm>
#include <chrono>

namespace clgemm {

double Timings::median() const {
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  if (n == 0) return 0.0;
  return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
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
