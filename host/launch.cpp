#include "launch.hpp"

#include <algorithm>

#include "cl_check.hpp"
#include "errors.hpp"

namespace clgemm {
namespace {

std::string shapeText(const LaunchShape& shape) {
  return std::to_string(shape.local[0]) + " x " + std::to_string(shape.local[1]) + " (" +
         shape.local_from + ")";
}

}  // namespace

void checkVariantConfig(const DeviceInfo& device, const Variant& variant,
                        const ResolvedDefines& defines, const LaunchShape& shape) {
  const std::size_t items = shape.local[0] * shape.local[1];
  if (items > device.max_work_group_size) {
    throw UsageError(variant.name + ": work-group " + shapeText(shape) + " = " +
                     std::to_string(items) + " work-items exceeds the device's maximum of " +
                     std::to_string(device.max_work_group_size) + "; change " + shape.local_from);
  }
  for (int dim = 0; dim < 2; ++dim) {
    if (shape.local[std::size_t(dim)] > device.max_work_item_sizes[std::size_t(dim)]) {
      throw UsageError(variant.name + ": work-group " + shapeText(shape) + " has " +
                       std::to_string(shape.local[std::size_t(dim)]) + " work-items in dimension " +
                       std::to_string(dim) + ", over the device's limit of " +
                       std::to_string(device.max_work_item_sizes[std::size_t(dim)]) + "; change " +
                       shape.local_from);
    }
  }
  const std::size_t local_bytes = variant.local_mem_bytes(defines);
  if (local_bytes > device.local_mem_bytes) {
    std::string names;
    for (const auto& p : variant.params) names += (names.empty() ? "" : "/") + p.name;
    throw UsageError(variant.name + ": the tiles need " + std::to_string(local_bytes) +
                     " bytes of local memory, the device has " +
                     std::to_string(device.local_mem_bytes) + "; make the tiles smaller (" + names +
                     ")");
  }
}

void checkBuiltKernel(const cl::Kernel& kernel, const cl::Device& device, const DeviceInfo& info,
                      const Variant& variant, const LaunchShape& shape) {
  try {
    const std::size_t allowed = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    const std::size_t items = shape.local[0] * shape.local[1];
    if (items > allowed) {
      throw UsageError(
          variant.name + ": work-group " + shapeText(shape) + " = " + std::to_string(items) +
          " work-items, but the compiled kernel allows " + std::to_string(allowed) +
          " (CL_KERNEL_WORK_GROUP_SIZE, lowered by its register use); change " + shape.local_from);
    }
    const cl_ulong local = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
    if (local > info.local_mem_bytes) {
      throw UsageError(variant.name + ": the compiled kernel uses " + std::to_string(local) +
                       " bytes of local memory, the device has " +
                       std::to_string(info.local_mem_bytes) + "; make the tiles smaller");
    }
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

Timings timeKernel(cl::CommandQueue& queue, const cl::Kernel& kernel, const LaunchShape& shape,
                   int warmup, int reps, const std::function<void()>& prepare) {
  const cl::NDRange global(shape.global[0], shape.global[1]);
  const cl::NDRange local(shape.local[0], shape.local[1]);
  Timings timings;
  try {
    for (int i = 0; i < warmup + reps; ++i) {
      prepare();
      cl::Event event;
      queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &event);
      event.wait();
      if (i < warmup) continue;
      const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
      const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
      timings.ms.push_back(double(end - start) * 1e-6);
    }
    queue.finish();
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  return timings;
}

}  // namespace clgemm
