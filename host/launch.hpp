// Everything between a built kernel and its timings: checking the launch against the device and the
// variant's constraints before anything is enqueued, then warm-up and timed repetitions.
#pragma once

#include <functional>
#include <vector>

#include "device.hpp"
#include "kernel_figures.hpp"
#include "kernels.hpp"
#include "opencl.hpp"
#include "timing.hpp"

namespace clgemm {

// Before building: the variant's own constraints, the work-group shape against the device's limits
// and the local memory the parameters ask for. Each violation is a usage error naming the defines.
void checkVariantConfig(const DeviceInfo& device, const Variant& variant,
                        const ResolvedDefines& defines, const LaunchShape& shape);

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
};

// Runs `warmup` untimed and `reps` timed repetitions of `launches` (in order: a helper kernel, then
// the GEMM), timed with profiling events from the start of the first launch to the end of the
// last. `prepare` is enqueued before every repetition (it resets or poisons C) and is not part of
// the timed interval.
Timings timeKernels(cl::CommandQueue& queue, const std::vector<Launch>& launches, int warmup,
                    int reps, const std::function<void()>& prepare);

}  // namespace clgemm
