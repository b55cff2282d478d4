// Platforms and devices: listing them for --list, picking one for --platform/--device, and the
// limits every launch is checked against.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "opencl/opencl.hpp"

namespace clgemm {

// A device's place on the PCI bus.
struct PciAddress {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
};

// "DDDD:BB:DD.F" in hexadecimal, the form of nvidia-smi and of CUDA's cudaDeviceGetByPCIBusId.
std::string pciBusId(const PciAddress& pci);

struct DeviceInfo {
  int platform_index = 0;
  int device_index = 0;
  std::string platform_name;
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string device_version;
  std::string type;  // "GPU", "CPU", "accelerator", ...
  bool is_gpu = false;
  unsigned compute_units = 0;
  unsigned clock_mhz = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t local_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: where a sub-buffer may start.
  std::uint64_t base_align_bytes = 128;
  std::size_t max_work_group_size = 0;
  std::array<std::size_t, 3> max_work_item_sizes{};
  bool has_fp64 = false;
  bool has_profiling = false;
  // NVIDIA devices that report it (cl_nv_device_attribute_query): compute capability major and
  // minor, which give the per-SM limits behind the occupancy figures; unset elsewhere.
  std::optional<int> nv_cc_major, nv_cc_minor;
  // Where the device sits on the PCI bus, which names the same GPU to CUDA (the cuBLAS baseline):
  // from cl_khr_pci_bus_info, else (NVIDIA drivers without it) cl_nv_device_attribute_query; unset
  // where the driver offers neither.
  std::optional<PciAddress> pci;
  // The architecture its compiler targets ("sm_90", "gfx90a", "intel-ip-12.55", pocl's
  // "skylake-avx512"), which tuned entries of other devices are matched by; empty where unknown
  // (device_class.hpp).
  std::string architecture;
  // Whether the vendor's compiler takes -cl-nv-verbose and reports registers (NVIDIA's driver).
  bool is_nvidia() const { return nv_cc_major.has_value(); }
};

// Reads the limits of one device.
DeviceInfo describeDevice(const cl::Device& device, int platform_index, int device_index);

// Writes every platform and device with its index and limits (--list). Throws RuntimeError when no
// OpenCL platform is installed.
void listDevices(std::ostream& out);

struct SelectedDevice {
  cl::Device device;
  DeviceInfo info;
};

// Every device on every platform, in --list order.
std::vector<SelectedDevice> allDevices();

// "\n  platform P device D: NAME (TYPE, PLATFORM)" for every device, for error messages.
std::string availableDevices();

// Picks a device. With neither index the first GPU on any platform, else the first device of any
// type. --device alone means that device on platform 0. Indices out of range are usage errors whose
// message lists what exists.
SelectedDevice selectDevice(std::optional<int> platform, std::optional<int> device);

// "1.5 GiB" style sizes for people.
std::string formatBytes(std::uint64_t bytes);

}  // namespace clgemm
