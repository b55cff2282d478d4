// A device's class: what a tuned entry from another device has in common with this one. Tuned
// parameters carry across devices of one architecture far better than the kernel's defaults do (the
// H100's best entry gives an H200 47 TFLOP/s where the defaults give 34), so where no entry names
// the device, the nearest entry of the same class serves (param_store.hpp). The classes, from the
// closest: the same architecture (and device type), then the same vendor and device type.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "opencl/device.hpp"

namespace clgemm {

struct DeviceClass {
  std::string vendor;        // "NVIDIA", "AMD", "Intel", else CL_DEVICE_VENDOR as the driver says
  std::string type;          // "GPU", "CPU", ...
  std::string architecture;  // see deviceArchitecture; empty when the driver does not say
  unsigned compute_units = 0;
  std::uint64_t local_mem_bytes = 0;
};

// The vendor as one word, whoever's driver reports it: "NVIDIA Corporation" and "NVIDIA";
// "Advanced Micro Devices, Inc.", "AuthenticAMD" (pocl on an AMD CPU) and "AMD"; "Intel(R)
// Corporation" and "GenuineIntel". Anything else is returned as it is.
std::string vendorFamily(const std::string& cl_vendor);

// The architecture a device's compiler targets, from what its driver reports:
//   NVIDIA  "sm_90" from cl_nv_device_attribute_query's compute capability;
//   AMD     "gfx90a", the gfx target AMD's drivers give as the device name (features cut off);
//   Intel   "intel-ip-12.55" from cl_intel_device_attribute_query's IP version (major.minor);
//   pocl    the LLVM CPU target in its device name: "skylake-avx512" in
//           "pthread-skylake-avx512-Intel(R) Xeon(R) ...", "znver3" in "cpu-znver3-AMD EPYC ...".
// Empty where none of these applies. `intel_ip_version` is CL_DEVICE_IP_VERSION_INTEL where read.
std::string deviceArchitecture(const DeviceInfo& device,
                               std::optional<unsigned> intel_ip_version = std::nullopt);

DeviceClass classOf(const DeviceInfo& device);

// How a tuned entry's device relates to this one, from the closest.
enum class ClassMatch {
  kDevice,        // the same device name (any driver)
  kArchitecture,  // another device of the same type and architecture
  kVendor,        // another device of the same vendor and type
  kNone
};

// How `entry` (the class of the device an entry was tuned on) relates to `device`, by class alone.
ClassMatch classMatch(const DeviceClass& entry, const DeviceClass& device);

// Among entries of one class match, how far apart two devices' sizes are: the log ratios of their
// compute units and local memory, 0 for the same; unknown figures (0) count as far.
double hardwareDistance(const DeviceClass& a, const DeviceClass& b);

// Why an entry of `entry`'s class serves `device`, for the report: "same architecture sm_90",
// "same vendor and type: AMD GPU".
std::string classMatchReason(ClassMatch match, const DeviceClass& entry);

// The "class" object of a tuned entry, and back (a missing field stays empty or 0).
nlohmann::json classJson(const DeviceClass& c);
DeviceClass classFromJson(const nlohmann::json& j);

}  // namespace clgemm
