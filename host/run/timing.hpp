// Timings of repeated runs and the host-clock timer used for CPU paths and libraries.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace clgemm {

struct Timings {
  std::vector<double> ms;  // one entry per timed repetition
  // Per timed repetition, the part of ms its helper kernels took (copies, packing passes): only
  // for OpenCL kernels that launch helpers, empty otherwise.
  std::vector<double> helper_ms;
  double median() const;
  double min() const;
  std::optional<double> helperMedian() const;  // nothing where no helper ran
};

// The median of `values` (0 for none).
double medianOf(std::vector<double> values);

// Runs prepare(); call(); `warmup` times untimed, then `reps` times with a steady clock around
// call() alone (prepare resets C and is not counted).
Timings timeHostCalls(int warmup, int reps, const std::function<void()>& prepare,
                      const std::function<void()>& call);

}  // namespace clgemm
