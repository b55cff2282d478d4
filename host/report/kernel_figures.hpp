// What a built kernel costs on its device, for the ladder's resource columns: the work-group and
// memory figures the OpenCL driver reports, the registers and spills NVIDIA's ptxas reports under
// -cl-nv-verbose, and the theoretical occupancy they imply where the device's limits are known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "opencl/device.hpp"
#include "opencl/opencl.hpp"
#include "registry/kernels.hpp"
#include "report/occupancy.hpp"

namespace clgemm {

struct KernelFigures {
  std::size_t group_items = 0;         // work-items per work-group in this launch
  std::size_t max_group_items = 0;     // CL_KERNEL_WORK_GROUP_SIZE
  std::size_t preferred_multiple = 0;  // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
  std::uint64_t local_bytes = 0;       // CL_KERNEL_LOCAL_MEM_SIZE
  std::uint64_t private_bytes = 0;     // CL_KERNEL_PRIVATE_MEM_SIZE
  std::optional<int> registers;        // per work-item (ptxas; NVIDIA only)
  std::optional<int> spill_bytes;      // spill stores + spill loads (ptxas; NVIDIA only)
  std::optional<Occupancy> occupancy;  // where the device's per-compute-unit limits are known
};

// Queries the built `kernel` (function `entry`) for a launch of `shape`; `build_log` is searched
// for ptxas's report.
KernelFigures kernelFigures(const cl::Kernel& kernel, const cl::Device& device,
                            const DeviceInfo& info, const LaunchShape& shape,
                            const std::string& entry, const std::string& build_log);

// The local memory a work-group may declare in its kernel (__local arrays, the only kind kernels.cl
// has): CL_DEVICE_LOCAL_MEM_SIZE, except on an NVIDIA GPU whose compute capability the occupancy
// table knows, where it is CUDA's per-block maximum (227 KiB on sm_90). NVIDIA's OpenCL reports
// 48 KiB, which binds __local kernel arguments only: on an H100 (driver 580) kernels with 228000
// bytes of __local arrays built and ran correctly, and ptxas refused 240000 ("0x38c00 max").
std::uint64_t groupLocalMemLimit(const DeviceInfo& info);

// The options that make the device's compiler report register use ("-cl-nv-verbose" on NVIDIA),
// or "" where there is no such report.
std::string registerReportOption(const DeviceInfo& info);

}  // namespace clgemm
