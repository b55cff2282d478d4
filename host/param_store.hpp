// Tuned parameters per device: small JSON files, one per (device, kernel), shipped in data/params/
// for the devices we have measured. A kernel run without -D for a parameter takes the value from a
// matching entry before falling back to the kernel's default, and the report says so (source
// "data").
//
// Entry format (data/params/<anything>.json):
//   {"device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "kernel": "best",
//    "defines": {"BM": 128, ...}, "measured": {...free-form notes...}}
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clgemm {

struct TunedEntry {
  std::string file;  // where it was read from, for messages
  std::string device, driver, kernel;
  std::map<std::string, std::string> defines;
};

// The folders searched for data/params, most specific first: beside the kernels file in use, beside
// the executable, the source tree clgemm was built from.
std::vector<std::string> paramDirs(const std::string& kernels_origin);

// The best entry for this device and kernel: same device name and driver if there is one, else the
// same device name with any driver. Unreadable or malformed files are skipped with a note on
// `warnings`. Returns false when nothing matches.
bool findTunedEntry(const std::vector<std::string>& dirs, const std::string& device,
                    const std::string& driver, const std::string& kernel, TunedEntry& entry,
                    std::vector<std::string>* warnings = nullptr);

}  // namespace clgemm
