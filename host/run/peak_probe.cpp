#include "run/peak_probe.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

#include "opencl/cl_check.hpp"
#include "run/launch.hpp"

namespace clgemm {
namespace {

constexpr int kWidths[] = {1, 2, 4, 8, 16};
// Each probe launch is made at least this long, so launch overhead and timer resolution stay
// below a percent.
constexpr double kTargetMs = 20.0;
// Mads per loop trip per lane in peak_fma (8 x PEAK_MAD16).
constexpr double kMadsPerIteration = 128.0;
// The bandwidth buffer: far beyond any cache (the H100's L2 is 50 MB), small enough to allocate
// anywhere.
constexpr std::uint64_t kReadBytes = std::uint64_t(256) << 20;

// Every probe's launch: enough work-items to fill every compute unit several times over (2048 per
// compute unit is the most an NVIDIA SM holds resident, and plenty for a CPU thread).
LaunchShape probeShape(const DeviceInfo& info) {
  const std::size_t items = std::size_t(info.compute_units) * 2048;
  const std::size_t group = std::min<std::size_t>(256, info.max_work_group_size);
  LaunchShape shape;
  shape.global = {std::max(group, items / group * group), 1};
  shape.local = {group, 1};
  shape.local_from = "the probe";
  return shape;
}

cl::Kernel buildProbe(ClSession& session, const std::string& entry, const std::string& defines) {
  const BuiltProgram& built = session.programs().get("-D CLGEMM_ONE_KERNEL -D KERNEL_" + entry +
                                                     (defines.empty() ? "" : " " + defines));
  try {
    return cl::Kernel(built.program, entry.c_str());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

double medianMs(ClSession& session, const Launch& launch, int warmup, int reps) {
  return timeKernels(session.queue(), {launch}, warmup, reps, [] {}).median();
}

double measureFma(ClSession& session, const LaunchShape& shape, int width, bool fp64, int reps,
                  std::uint64_t& iterations, cl::Buffer& out) {
  Launch launch{buildProbe(session, "peak_fma",
                           "-D PEAK_WIDTH=" + std::to_string(width) +
                               " -D PEAK_DOUBLE=" + (fp64 ? "1" : "0")),
                shape};
  const std::size_t items = shape.global[0];
  try {
    launch.kernel.setArg(0, out);
    launch.kernel.setArg(1, 1.0001f);
    // Calibrate: grow the trip count until one launch takes kTargetMs.
    int trips = 8;
    while (true) {
      launch.kernel.setArg(2, trips);
      const double ms = medianMs(session, launch, 0, 1);
      if (ms >= kTargetMs || trips >= (1 << 24)) break;
      const double grow = ms > 0.0 ? std::clamp(kTargetMs * 1.2 / ms, 2.0, 64.0) : 64.0;
      trips = int(std::min(double(1 << 24), trips * grow));
    }
    iterations = std::uint64_t(trips);
    const double ms = medianMs(session, launch, 1, reps);
    return double(items) * double(trips) * kMadsPerIteration * 2.0 * width / (ms * 1e-3) * 1e-9;
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

double measureRead(ClSession& session, const LaunchShape& shape, int reps, std::uint64_t& bytes) {
  const DeviceInfo& info = session.info();
  Launch launch{buildProbe(session, "peak_read",
                           std::string("-D PEAK_CONTIGUOUS=") + (info.is_gpu ? "0" : "1")),
                shape};
  const std::size_t items = shape.global[0];
  const std::uint64_t budget =
      std::min({kReadBytes, info.max_alloc_bytes / 2, info.global_mem_bytes / 8});
  const std::uint64_t per_item = std::max<std::uint64_t>(1, budget / (items * 16));
  bytes = per_item * items * 16;
  try {
    cl::Buffer in(session.context(), CL_MEM_READ_ONLY, bytes);
    cl::Buffer out(session.context(), CL_MEM_WRITE_ONLY, items * sizeof(float));
    session.queue().enqueueFillBuffer(in, 1.0f, 0, bytes);
    launch.kernel.setArg(0, in);
    launch.kernel.setArg(1, out);
    launch.kernel.setArg(2, int(per_item));
    const double ms = medianMs(session, launch, 2, reps);
    return double(bytes) / (ms * 1e-3) * 1e-9;
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

}  // namespace

int peakSteps(bool has_fp64) {
  const int widths = int(std::size(kWidths));
  return widths * (has_fp64 ? 2 : 1) + 1;
}

PeakMeasurement measurePeak(ClSession& session, int reps,
                            const std::function<void(const std::string&)>& step) {
  PeakMeasurement m;
  m.reps = reps;
  const LaunchShape shape = probeShape(session.info());
  m.fma_items = shape.global[0];
  cl::Buffer out;  // PEAK_WIDTH values per work-item, for the widest probe in double
  try {
    out = cl::Buffer(session.context(), CL_MEM_WRITE_ONLY, m.fma_items * 16 * sizeof(double));
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  for (const bool fp64 : {false, true}) {
    if (fp64 && !session.info().has_fp64) break;
    const std::string type = fp64 ? "double" : "float";
    auto& by_width = fp64 ? m.fp64_fma_gflops : m.fma_gflops;
    double& best = fp64 ? m.fp64_gflops : m.gflops;
    int& best_width = fp64 ? m.fp64_best_width : m.best_width;
    for (const int width : kWidths) {
      step("multiply-add throughput, " + type +
           (width == 1 ? std::string() : std::to_string(width)));
      std::uint64_t iterations = 0;
      const double gflops = measureFma(session, shape, width, fp64, reps, iterations, out);
      if (!fp64) m.fma_iterations = iterations;
      by_width[width] = gflops;
      if (gflops > best) {
        best = gflops;
        best_width = width;
      }
    }
  }
  step("global memory read bandwidth");
  m.gbps = measureRead(session, shape, reps, m.read_bytes);
  return m;
}

}  // namespace clgemm
