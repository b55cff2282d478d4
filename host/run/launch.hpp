// Everything between a built kernel and its timings: checking the launch against the device and the
// variant's constraints before anything is enqueued, then warm-up and timed repetitions.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "registry/kernels.hpp"
#include "report/kernel_figures.hpp"
#include "run/timing.hpp"

namespace clgemm {

// Why a configuration cannot launch on a device, found before building.
struct ConfigIssue {
  std::string kind;     // "work-group size" or "local memory", for the tuner's summary
  std::string message;  // names the defines to change
};

// The work-group shape against the device's limits and the local memory the parameters ask for,
// in elements of `element_bytes` (elementBytes(precision): an FP64 build needs twice the FP32
// local memory).
std::optional<ConfigIssue> findConfigIssue(const DeviceInfo& device, const Variant& variant,
                                           const ResolvedDefines& defines, const LaunchShape& shape,
                                           std::size_t element_bytes);

// Before building: findConfigIssue's problem, if any, as a usage error.
void checkVariantConfig(const DeviceInfo& device, const Variant& variant,
                        const ResolvedDefines& defines, const LaunchShape& shape,
                        std::size_t element_bytes);

// After building, with the kernel's figures (kernelFigures): whether one work-group fits a compute
// unit where registers and limits are known (NVIDIA), else the work-group size against
// CL_KERNEL_WORK_GROUP_SIZE (which register use can lower below the device maximum); and the local
// memory the compiled kernel really uses.
void checkBuiltKernel(const DeviceInfo& info, const Variant& variant, const LaunchShape& shape,
                      const KernelFigures& figures);

// One kernel launch of a repetition, its arguments already set.
struct Launch {
  cl::Kernel kernel;
  LaunchShape shape;
  // A helper around the GEMM kernel (a copy, B's transpose, a packing pass, the tensor map's
  // address): timed with the GEMM, and its own time also reported apart (Timings::helper_ms).
  bool helper = false;
};

// Milliseconds from the start of `from` to the end of `to`, by their profiling events (one device's
// clock: both on the same device).
double eventSpanMs(const cl::Event& from, const cl::Event& to);

// Enqueues `launches` in order without waiting, the first after the events in `wait` (if any);
// returns the first launch's event and the last's, and every launch's in `events` if given (the
// others get none on an in-order queue).
std::pair<cl::Event, cl::Event> enqueueLaunches(cl::CommandQueue& queue,
                                                const std::vector<Launch>& launches,
                                                const std::vector<cl::Event>* wait = nullptr,
                                                std::vector<cl::Event>* events = nullptr);

// Runs `warmup` untimed and `reps` timed repetitions of `launches` (in order: a helper kernel, then
// the GEMM), timed with profiling events from the start of the first launch to the end of the
// last, with events on those two alone; where some launches are helpers, also the sum of their own
// spans per repetition (helper_ms), from `reps` runs more with an event on every launch. `prepare`
// is enqueued before every repetition (it resets or poisons C) and is not part of the timed
// interval.
Timings timeKernels(cl::CommandQueue& queue, const std::vector<Launch>& launches, int warmup,
                    int reps, const std::function<void()>& prepare);

}  // namespace clgemm
