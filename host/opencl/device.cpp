#include "opencl/device.hpp"

#include <cstdio>
#include <sstream>
#include <vector>

#include "opencl/cl_check.hpp"
#include "opencl/device_class.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

std::string deviceTypeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

// Trailing NULs are common in driver strings; they would end up in CSV and JSON.
std::string clean(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

// One cl_uint attribute of cl_nv_device_attribute_query, or nothing where the driver refuses it.
std::optional<unsigned> nvidiaAttribute(const cl::Device& device, cl_device_info name) {
  cl_uint value = 0;
  if (clGetDeviceInfo(device(), name, sizeof value, &value, nullptr) != CL_SUCCESS)
    return std::nullopt;
  return unsigned(value);
}

// cl_nv_device_attribute_query's compute capability, and its PCI location where the driver lacks
// cl_khr_pci_bus_info, where the driver offers the extension.
void readNvidiaAttributes(const cl::Device& device, const std::string& extensions, DeviceInfo& d) {
  if (extensions.find("cl_nv_device_attribute_query") == std::string::npos) return;
  // From cl_ext.h (the PCI ones are not in every version of it); spelled out so the build does not
  // depend on that header's vintage.
  constexpr cl_device_info kComputeCapabilityMajor = 0x4000, kComputeCapabilityMinor = 0x4001,
                           kPciBusId = 0x4008, kPciSlotId = 0x4009, kPciDomainId = 0x400A;
  const auto major = nvidiaAttribute(device, kComputeCapabilityMajor);
  const auto minor = nvidiaAttribute(device, kComputeCapabilityMinor);
  if (major && minor) {
    d.nv_cc_major = int(*major);
    d.nv_cc_minor = int(*minor);
  }
  if (d.pci) return;
  const auto bus = nvidiaAttribute(device, kPciBusId);
  const auto slot = nvidiaAttribute(device, kPciSlotId);
  if (bus && slot) {
    // The slot is the PCI device number: on an H100 at 0000:00:06.0 (driver 580) it reads 6, not
    // device << 3 | function as some tools take it. Older drivers do not report the domain.
    d.pci = PciAddress{nvidiaAttribute(device, kPciDomainId).value_or(0), *bus, *slot, 0};
  }
}

// cl_khr_pci_bus_info's address, where the driver offers the extension.
void readPciBusInfo(const cl::Device& device, const std::string& extensions, DeviceInfo& d) {
  if (extensions.find("cl_khr_pci_bus_info") == std::string::npos) return;
  // CL_DEVICE_PCI_BUS_INFO_KHR and cl_device_pci_bus_info_khr, spelled out like the NVIDIA ones.
  constexpr cl_device_info kPciBusInfo = 0x410F;
  struct {
    cl_uint domain, bus, device, function;
  } info{};
  if (clGetDeviceInfo(device(), kPciBusInfo, sizeof info, &info, nullptr) == CL_SUCCESS)
    d.pci = PciAddress{info.domain, info.bus, info.device, info.function};
}

// cl_intel_device_attribute_query's IP version (a cl_version), where the driver offers it.
std::optional<unsigned> intelIpVersion(const cl::Device& device, const std::string& extensions) {
  if (extensions.find("cl_intel_device_attribute_query") == std::string::npos) return std::nullopt;
  constexpr cl_device_info kIpVersion = 0x4250;  // CL_DEVICE_IP_VERSION_INTEL
  cl_uint value = 0;
  if (clGetDeviceInfo(device(), kIpVersion, sizeof value, &value, nullptr) != CL_SUCCESS)
    return std::nullopt;
  return unsigned(value);
}

std::vector<cl::Platform> platforms() {
  std::vector<cl::Platform> result;
  try {
    cl::Platform::get(&result);
  } catch (const cl::Error& e) {
    // The ICD loader reports an empty registry as an error rather than as zero platforms.
    if (e.err() != -1001) rethrowClError(e);
  }
  if (result.empty()) {
    throw RuntimeError(
        "no OpenCL platform found: install a driver (for the CPU: Debian's pocl-opencl-icd) and "
        "check /etc/OpenCL/vendors");
  }
  return result;
}

std::vector<cl::Device> devicesOf(const cl::Platform& platform) {
  std::vector<cl::Device> result;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &result);
  } catch (const cl::Error& e) {
    if (e.err() != CL_DEVICE_NOT_FOUND) rethrowClError(e);
  }
  return result;
}

std::string deviceSummary(const DeviceInfo& d) {
  std::ostringstream s;
  s << "platform " << d.platform_index << " device " << d.device_index << ": " << d.name << " ("
    << d.type << ", " << d.platform_name << ")";
  return s.str();
}

}  // namespace

std::vector<SelectedDevice> allDevices() {
  std::vector<SelectedDevice> out;
  const auto all = platforms();
  for (std::size_t p = 0; p < all.size(); ++p) {
    const auto devices = devicesOf(all[p]);
    for (std::size_t d = 0; d < devices.size(); ++d)
      out.push_back({devices[d], describeDevice(devices[d], int(p), int(d))});
  }
  return out;
}

std::string availableDevices() {
  std::ostringstream s;
  for (const auto& d : allDevices()) s << "\n  " << deviceSummary(d.info);
  return s.str();
}

std::string formatBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    ++unit;
  }
  std::ostringstream s;
  s.precision(unit == 0 ? 0 : 1);
  s << std::fixed << value << " " << units[unit];
  return s.str();
}

std::string pciBusId(const PciAddress& pci) {
  char text[40];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", pci.domain, pci.bus, pci.device,
                pci.function);
  return text;
}

DeviceInfo describeDevice(const cl::Device& device, int platform_index, int device_index) {
  try {
    DeviceInfo d;
    d.platform_index = platform_index;
    d.device_index = device_index;
    d.platform_name =
        clean(cl::Platform(device.getInfo<CL_DEVICE_PLATFORM>()).getInfo<CL_PLATFORM_NAME>());
    d.name = clean(device.getInfo<CL_DEVICE_NAME>());
    d.vendor = clean(device.getInfo<CL_DEVICE_VENDOR>());
    d.driver_version = clean(device.getInfo<CL_DRIVER_VERSION>());
    d.device_version = clean(device.getInfo<CL_DEVICE_VERSION>());
    const auto type = device.getInfo<CL_DEVICE_TYPE>();
    d.type = deviceTypeName(type);
    d.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    d.compute_units = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    d.clock_mhz = device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    d.global_mem_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    d.local_mem_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    d.max_alloc_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    d.base_align_bytes = device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
    d.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    const auto sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    for (std::size_t i = 0; i < 3 && i < sizes.size(); ++i) d.max_work_item_sizes[i] = sizes[i];
    d.has_fp64 = device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
    d.has_profiling =
        (device.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_PROFILING_ENABLE) != 0;
    const std::string extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
    readPciBusInfo(device, extensions, d);
    readNvidiaAttributes(device, extensions, d);
    d.architecture = deviceArchitecture(d, intelIpVersion(device, extensions));
    return d;
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
}

void listDevices(std::ostream& out) {
  const auto all = platforms();
  for (std::size_t p = 0; p < all.size(); ++p) {
    out << "platform " << p << ": " << clean(all[p].getInfo<CL_PLATFORM_NAME>()) << " ("
        << clean(all[p].getInfo<CL_PLATFORM_VENDOR>()) << ", "
        << clean(all[p].getInfo<CL_PLATFORM_VERSION>()) << ")\n";
    const auto devices = devicesOf(all[p]);
    if (devices.empty()) out << "  (no devices)\n";
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const DeviceInfo d = describeDevice(devices[i], int(p), int(i));
      out << "  device " << i << ": " << d.name << "\n"
          << "    type " << d.type << ", " << d.compute_units << " compute units at " << d.clock_mhz
          << " MHz, " << d.device_version << ", driver " << d.driver_version << "\n"
          << "    global memory " << formatBytes(d.global_mem_bytes) << " (max allocation "
          << formatBytes(d.max_alloc_bytes) << "), local memory " << formatBytes(d.local_mem_bytes)
          << "\n"
          << "    max work-group size " << d.max_work_group_size << ", max work-item sizes "
          << d.max_work_item_sizes[0] << " x " << d.max_work_item_sizes[1] << " x "
          << d.max_work_item_sizes[2] << ", fp64 " << (d.has_fp64 ? "yes" : "no") << ", profiling "
          << (d.has_profiling ? "yes" : "no") << "\n";
      if (d.nv_cc_major)
        out << "    compute capability " << *d.nv_cc_major << "." << *d.nv_cc_minor << "\n";
      if (!d.architecture.empty()) out << "    architecture " << d.architecture << "\n";
      if (d.pci) out << "    PCI " << pciBusId(*d.pci) << "\n";
    }
  }
}

SelectedDevice selectDevice(std::optional<int> platform, std::optional<int> device) {
  const auto all = platforms();
  if (!platform && !device) {
    // First GPU anywhere, else the first device of any type.
    for (std::size_t p = 0; p < all.size(); ++p) {
      const auto devices = devicesOf(all[p]);
      for (std::size_t d = 0; d < devices.size(); ++d) {
        if (devices[d].getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU)
          return {devices[d], describeDevice(devices[d], int(p), int(d))};
      }
    }
    for (std::size_t p = 0; p < all.size(); ++p) {
      const auto devices = devicesOf(all[p]);
      if (!devices.empty()) return {devices[0], describeDevice(devices[0], int(p), 0)};
    }
    throw RuntimeError("no OpenCL device found on any platform");
  }
  const int p = platform.value_or(0);
  if (p < 0 || p >= int(all.size())) {
    throw UsageError("--platform " + std::to_string(p) +
                     " is out of range; available devices:" + availableDevices());
  }
  const auto devices = devicesOf(all[std::size_t(p)]);
  const int d = device.value_or(0);
  if (d < 0 || d >= int(devices.size())) {
    throw UsageError("--device " + std::to_string(d) + " is out of range on platform " +
                     std::to_string(p) + "; available devices:" + availableDevices());
  }
  return {devices[std::size_t(d)], describeDevice(devices[std::size_t(d)], p, d)};
}

}  // namespace clgemm
