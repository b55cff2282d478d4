#include "report/kernel_figures.hpp"

#include <algorithm>

#include "opencl/cl_check.hpp"
#include "report/ptxas_report.hpp"

namespace clgemm {

std::string registerReportOption(const DeviceInfo& info) {
  return info.is_nvidia() ? "-cl-nv-verbose" : "";
}

std::uint64_t groupLocalMemLimit(const DeviceInfo& info) {
  if (info.nv_cc_major && info.nv_cc_minor) {
    if (const auto limits = nvidiaComputeUnitLimits(*info.nv_cc_major, *info.nv_cc_minor))
      return std::max(info.local_mem_bytes, limits->max_local_per_group);
  }
  return info.local_mem_bytes;
}

KernelFigures kernelFigures(const cl::Kernel& kernel, const cl::Device& device,
                            const DeviceInfo& info, const LaunchShape& shape,
                            const std::string& entry, const std::string& build_log) {
  KernelFigures f;
  f.group_items = shape.local[0] * shape.local[1];
  try {
    f.max_group_items = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    f.preferred_multiple =
        kernel.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
    f.local_bytes = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
    f.private_bytes = kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device);
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  if (const auto reported = findPtxasFunction(parsePtxasReport(build_log), entry)) {
    f.registers = reported->registers;
    f.spill_bytes = reported->spill_store_bytes + reported->spill_load_bytes;
  }
  // Without the register count the figure would overstate what fits, so none is given.
  if (info.nv_cc_major && f.registers) {
    if (const auto limits = nvidiaComputeUnitLimits(*info.nv_cc_major, *info.nv_cc_minor)) {
      KernelUse use;
      use.group_items = int(f.group_items);
      use.registers_per_item = f.registers;
      use.local_bytes = f.local_bytes;
      f.occupancy = theoreticalOccupancy(*limits, use);
    }
  }
  return f;
}

}  // namespace clgemm
