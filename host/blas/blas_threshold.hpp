// The shim's threshold: a call goes to the device when m * n * k reaches it, else to the system
// BLAS. Where it comes from, highest first: $CLGEMM_BLAS_THRESHOLD, the record that
// `clgemm blas-threshold` measured for this device and precision (the user's store, then the
// shipped data/blas/), else a default by device type.
//
// Record format (<store>/blas/<device slug>-<precision>.json, and data/blas/):
//   {"device": "pthread-skylake-avx512-AMD EPYC", "driver": "3.1+debian", "platform": "...",
//    "precision": "fp32", "threshold": null | 110592, "threshold_n": null | 48,
//    "system_blas": "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
//    "date": "...", "command": "clgemm blas-threshold ...",
//    "measured": [{"n": 16, "system_ms": 0.01, "device_ms": 0.5, "device_wins": false,
//                  "err_ratio": 0.4}, ...]}
// "threshold" null means the device never won: every call stays on the system BLAS.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opencl/device.hpp"
#include "problem/precision.hpp"

namespace clgemm::blas {

// The threshold in use. `never` keeps every call on the system BLAS; else calls with
// m * n * k >= `min_mnk` go to the device.
struct Threshold {
  bool never = false;
  std::uint64_t min_mnk = 0;
  std::string source;  // "CLGEMM_BLAS_THRESHOLD", the record's file, "default for a GPU", ...
  bool onDevice(std::uint64_t mnk) const { return !never && mnk >= min_mnk; }
};

// $CLGEMM_BLAS_THRESHOLD: a non-negative integer (0: every call to the device). Unset or empty:
// nothing. Anything else: nothing, and `warning` names the value.
struct ThresholdEnv {
  std::optional<std::uint64_t> value;
  std::string warning;
};
ThresholdEnv parseThresholdEnv(const char* value);

// A measured record for this device and precision: in the first of `dirs` that has one, the
// record of this device name and driver, else of this device name under another driver.
struct ThresholdRecord {
  std::string file;
  std::optional<std::uint64_t> threshold;  // unset: never
};
std::optional<ThresholdRecord> findThresholdRecord(const std::vector<std::string>& dirs,
                                                   const DeviceInfo& device, Precision precision);

// The threshold for this device and precision: the environment's value, the record's, else the
// default for the device's type.
Threshold chooseThreshold(const ThresholdEnv& env, const std::vector<std::string>& dirs,
                          const DeviceInfo& device, Precision precision);

// "<device slug>-<fp32|fp64>.json": the record's file name.
std::string thresholdRecordName(const std::string& device_name, Precision precision);

}  // namespace clgemm::blas
