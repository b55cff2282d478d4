#include "report/line_schedule.hpp"

#include <algorithm>
#include <functional>
#include <queue>

namespace clgemm {

double lineMakespan(const std::vector<LineRun>& runs, long long places) {
  if (places < 1) return 0.0;
  // The times the busy places become free, soonest first; a place never used is free at 0.
  std::priority_queue<double, std::vector<double>, std::greater<double>> free_at;
  long long started = 0;
  double end = 0.0;
  for (const LineRun& run : runs) {
    for (long long i = 0; i < run.count; ++i, ++started) {
      double start = 0.0;
      if (started >= places) {
        start = free_at.top();
        free_at.pop();
      }
      free_at.push(start + run.length);
      end = std::max(end, start + run.length);
    }
  }
  return end;
}

}  // namespace clgemm
