// A device's FP32 peak and global memory bandwidth, the two lines of its roofline. Shipped in
// data/peaks/ for the devices we have measured, one small JSON per device:
//   {"device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
//    "fp32_gflops": 64900, "bandwidth_gbs": 3000, "measured": {...free-form notes...}}
// and, where measured, "fp64_gflops" (null or absent: unknown).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clgemm {

struct DevicePeak {
  double gflops = 0.0;  // FP32 multiply-add throughput, GFLOP/s
  // FP64's, where the entry has it (`clgemm peak` measures it on devices with cl_khr_fp64).
  std::optional<double> fp64_gflops;
  double gbps = 0.0;  // global memory bandwidth, GB/s
  std::string file;   // where it was read from
};

// The entry for this device in the first of `dirs` that has one: the same driver if there is one,
// else any driver (peaks change little between drivers). Malformed files are skipped with a note
// on `warnings`.
std::optional<DevicePeak> findDevicePeak(const std::vector<std::string>& dirs,
                                         const std::string& device, const std::string& driver,
                                         std::vector<std::string>* warnings = nullptr);

// Where peaks are looked for, first match wins: the user's store (`store_option`, see
// user_store.hpp), then data/peaks beside the kernels file, the executable and the source tree.
std::vector<std::string> peakDirs(const std::string& store_option,
                                  const std::string& kernels_origin);

// The roofline of FP64 work on this device: the FP64 peak in place of the FP32 one, or nothing
// where the entry has no FP64 peak.
std::optional<DevicePeak> fp64Roofline(const DevicePeak& peak);

// The highest GFLOP/s a kernel of `intensity` flops per global byte can reach on this device.
double rooflineBound(const DevicePeak& peak, double intensity);

}  // namespace clgemm
