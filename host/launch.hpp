// Everything between a built kernel and its timings: checking the launch against the device and the
// variant's constraints before anything is enqueued, then warm-up and timed repetitions.
#pragma once

#include <functional>
#include <vector>

#include "device.hpp"
#include "kernels.hpp"
#include "opencl.hpp"
#include "timing.hpp"

namespace clgemm {

// Before building: the variant's own constraints, the work-group shape against the device's limits
// and the local memory the parameters ask for. Each violation is a usage error naming the defines.
void checkVariantConfig(const DeviceInfo& device, const Variant& variant,
                        const ResolvedDefines& defines, const LaunchShape& shape);

// After building: the work-group size against what the compiled kernel allows
// (CL_KERNEL_WORK_GROUP_SIZE, which register use can lower below the device maximum) and the local
// memory it really uses.
void checkBuiltKernel(const cl::Kernel& kernel, const cl::Device& device, const DeviceInfo& info,
                      const Variant& variant, const LaunchShape& shape);

// Runs `warmup` untimed and `reps` timed launches, timed with profiling events (kernel time).
// `prepare` is enqueued before every launch (it resets or poisons C) and is not part of the timed
// interval.
Timings timeKernel(cl::CommandQueue& queue, const cl::Kernel& kernel, const LaunchShape& shape,
                   int warmup, int reps, const std::function<void()>& prepare);

}  // namespace clgemm
