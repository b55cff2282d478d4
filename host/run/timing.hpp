// Timings of repeated runs and the host-clock timer used for CPU paths and libraries.
#pragma once

#include <functional>
#include <vector>

namespace clgemm {

struct Timings {
  std::vector<double> ms;  // one entry per timed repetition
  double median() const;
  double min() const;
};

// Runs prepare(); call(); `warmup` times untimed, then `reps` times with a steady clock around
// call() alone (prepare resets C and is not counted).
Timings timeHostCalls(int warmup, int reps, const std::function<void()>& prepare,
                      const std::function<void()>& call);

}  // namespace clgemm
