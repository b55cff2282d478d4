#include "run/launch.hpp"

#include <algorithm>

#include "opencl/cl_check.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string shapeText(const LaunchShape& shape) {
  return std::to_string(shape.local[0]) + " x " + std::to_string(shape.local[1]) + " (" +
         shape.local_from + ")";
}

}  // namespace

std::optional<ConfigIssue> findConfigIssue(const DeviceInfo& device, const Variant& variant,
                                           const ResolvedDefines& defines, const LaunchShape& shape,
                                           std::size_t element_bytes) {
  const std::size_t items = shape.local[0] * shape.local[1];
  if (items > device.max_work_group_size) {
    return ConfigIssue{"work-group size", variant.name + ": work-group " + shapeText(shape) +
                                              " = " + std::to_string(items) +
                                              " work-items exceeds the device's maximum of " +
                                              std::to_string(device.max_work_group_size) +
                                              "; change " + shape.local_from};
  }
  for (int dim = 0; dim < 2; ++dim) {
    if (shape.local[std::size_t(dim)] > device.max_work_item_sizes[std::size_t(dim)]) {
      return ConfigIssue{"work-group size",
                         variant.name + ": work-group " + shapeText(shape) + " has " +
                             std::to_string(shape.local[std::size_t(dim)]) +
                             " work-items in dimension " + std::to_string(dim) +
                             ", over the device's limit of " +
                             std::to_string(device.max_work_item_sizes[std::size_t(dim)]) +
                             "; change " + shape.local_from};
    }
  }
  const std::size_t local_bytes = variant.local_mem_bytes(defines, element_bytes);
  const std::uint64_t local_limit = groupLocalMemLimit(device);
  if (local_bytes > local_limit) {
    std::string names;
    for (const auto& p : variant.params) names += (names.empty() ? "" : "/") + p.name;
    return ConfigIssue{"local memory", variant.name + ": the tiles need " +
                                           std::to_string(local_bytes) + " bytes of local memory" +
                                           (element_bytes == sizeof(double) ? " in fp64" : "") +
                                           ", a work-group may have " +
                                           std::to_string(local_limit) +
                                           "; make the tiles smaller (" + names + ")"};
  }
  return std::nullopt;
}

void checkVariantConfig(const DeviceInfo& device, const Variant& variant,
                        const ResolvedDefines& defines, const LaunchShape& shape,
                        std::size_t element_bytes) {
  if (const auto issue = findConfigIssue(device, variant, defines, shape, element_bytes))
    throw UsageError(issue->message);
}

void checkBuiltKernel(const DeviceInfo& info, const Variant& variant, const LaunchShape& shape,
                      const KernelFigures& figures) {
  const std::size_t items = shape.local[0] * shape.local[1];
  if (figures.occupancy) {
    // Registers and local memory known: whether one group fits a compute unit is exact. NVIDIA's
    // CL_KERNEL_WORK_GROUP_SIZE is not (it says 256 for kernels that launch and verify with 1024
    // work-items on an H100), so it is not asked here.
    if (figures.occupancy->groups_per_unit == 0) {
      throw UsageError(variant.name + ": work-group " + shapeText(shape) + " = " +
                       std::to_string(items) + " work-items" +
                       (figures.registers
                            ? " at " + std::to_string(*figures.registers) + " registers each"
                            : std::string()) +
                       " does not fit one compute unit (" + figures.occupancy->limited_by +
                       "); change " + shape.local_from + " or make the tiles smaller");
    }
  } else if (items > figures.max_group_items) {
    throw UsageError(
        variant.name + ": work-group " + shapeText(shape) + " = " + std::to_string(items) +
        " work-items, but the compiled kernel allows " + std::to_string(figures.max_group_items) +
        " (CL_KERNEL_WORK_GROUP_SIZE, lowered by its register use); change " + shape.local_from);
  }
  const std::uint64_t local_limit = groupLocalMemLimit(info);
  if (figures.local_bytes > local_limit) {
    throw UsageError(variant.name + ": the compiled kernel uses " +
                     std::to_string(figures.local_bytes) +
                     " bytes of local memory, a work-group may have " +
                     std::to_string(local_limit) + "; make the tiles smaller");
  }
}

double eventSpanMs(const cl::Event& from, const cl::Event& to) {
  const cl_ulong start = from.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = to.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return double(end - start) * 1e-6;
}

std::pair<cl::Event, cl::Event> enqueueLaunches(cl::CommandQueue& queue,
                                                const std::vector<Launch>& launches,
                                                const std::vector<cl::Event>* wait,
                                                std::vector<cl::Event>* events) {
  // An event only where something reads it: the first launch's and the last's (the span, the
  // caller's completion), every one where the caller asks, and each launch's for the next on an
  // out-of-order queue (a copy, then the GEMM that reads it; an in-order queue implies that). On
  // NVIDIA's driver a launch that returns an event on a profiling queue keeps the host 13-14 us,
  // one without 5.5 (H200, 580.159.04; docs/performance.md, session 24).
  const bool chain = (queue.getInfo<CL_QUEUE_PROPERTIES>() &
                      cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) != 0;
  cl::Event first, last;
  if (events) events->clear();
  std::vector<cl::Event> previous;
  for (std::size_t l = 0; l < launches.size(); ++l) {
    const LaunchShape& shape = launches[l].shape;
    const bool is_last = l + 1 == launches.size();
    cl::Event event;
    queue.enqueueNDRangeKernel(
        launches[l].kernel, cl::NullRange, cl::NDRange(shape.global[0], shape.global[1]),
        cl::NDRange(shape.local[0], shape.local[1]), l == 0 ? wait : (chain ? &previous : nullptr),
        l == 0 || is_last || events || chain ? &event : nullptr);
    if (l == 0) first = event;
    if (is_last) last = event;
    if (events) events->push_back(event);
    if (chain) previous = {event};
  }
  return {first, last};
}

Timings timeKernels(cl::CommandQueue& queue, const std::vector<Launch>& launches, int warmup,
                    int reps, const std::function<void()>& prepare) {
  Timings timings;
  const bool helpers =
      std::any_of(launches.begin(), launches.end(), [](const Launch& l) { return l.helper; });
  try {
    for (int i = 0; i < warmup + reps; ++i) {
      prepare();
      const auto [first, last] = enqueueLaunches(queue, launches);
      last.wait();  // the queue is in order: the last launch ends after the others
      if (i >= warmup) timings.ms.push_back(eventSpanMs(first, last));
    }
    // The helpers' own spans from runs of their own, with an event on every launch: the timed
    // runs above carry only the two they need, so that the host's time per launch (13-14 us with
    // a profiling event on NVIDIA's driver, 5.5 without) leaves the GPU idle less after a short
    // helper. ms - helper_ms is then the GEMM kernel's time and the gaps between the launches.
    std::vector<cl::Event> events;
    for (int i = 0; helpers && i < reps; ++i) {
      prepare();
      enqueueLaunches(queue, launches, nullptr, &events).second.wait();
      double helper_ms = 0.0;
      for (std::size_t l = 0; l < launches.size(); ++l)
        if (launches[l].helper) helper_ms += eventSpanMs(events[l], events[l]);
      timings.helper_ms.push_back(helper_ms);
    }
    queue.finish();
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  return timings;
}

}  // namespace clgemm
