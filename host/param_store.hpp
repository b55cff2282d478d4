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

// The folders searched for data/<sub> (params, peaks), most specific first: beside the kernels file
// in use, beside the executable, the source tree clgemm was built from.
std::vector<std::string> dataDirs(const std::string& kernels_origin, const std::string& sub);
inline std::vector<std::string> paramDirs(const std::string& kernels_origin) {
  return dataDirs(kernels_origin, "params");
}

// The .json files directly in `dir`, sorted so that a choice among equal entries is deterministic;
// none when it is not a readable directory.
std::vector<std::string> jsonFilesIn(const std::string& dir);

// The best entry for this device and kernel: same device name and driver if there is one, else the
// same device name with any driver. Unreadable or malformed files are skipped with a note on
// `warnings`. Returns false when nothing matches.
bool findTunedEntry(const std::vector<std::string>& dirs, const std::string& device,
                    const std::string& driver, const std::string& kernel, TunedEntry& entry,
                    std::vector<std::string>* warnings = nullptr);

}  // namespace clgemm
