// Measures an OpenCL device's FP32 (and FP64, where it has it) multiply-add throughput and global
// memory read bandwidth with
// the probe kernels in kernels.cl's peak-probe section (clpeak's method; see their comments there).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "session/cl_session.hpp"

namespace clgemm {

struct PeakMeasurement {
  std::map<int, double> fma_gflops;  // by vector width (1, 2, 4, 8, 16): median GFLOP/s
  int best_width = 0;
  double gflops = 0.0;  // the best of fma_gflops
  // The same in FP64, on devices that report it (cl_khr_fp64); empty and 0 elsewhere.
  std::map<int, double> fp64_fma_gflops;
  int fp64_best_width = 0;
  double fp64_gflops = 0.0;
  double gbps = 0.0;                 // median read bandwidth, GB/s (1e9 bytes)
  std::size_t fma_items = 0;         // work-items of each multiply-add launch
  std::uint64_t fma_iterations = 0;  // loop trips of the widest probe, after calibration
  std::uint64_t read_bytes = 0;      // bytes read by each bandwidth launch
  int reps = 0;
};

// `reps` timed launches of each probe after calibration and a warm-up; `step` is called as each
// probe starts, with what it measures.
PeakMeasurement measurePeak(ClSession& session, int reps,
                            const std::function<void(const std::string&)>& step);

// How many probe steps measurePeak announces through `step` on a device with or without FP64.
int peakSteps(bool has_fp64);

}  // namespace clgemm
