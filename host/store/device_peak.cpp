#include "store/device_peak.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "store/param_store.hpp"

namespace clgemm {
namespace {

struct PeakEntry {
  std::string device, driver;
  DevicePeak peak;
};

std::optional<PeakEntry> readPeak(const std::string& path, std::vector<std::string>* warnings) {
  try {
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    PeakEntry e;
    e.device = doc.at("device").get<std::string>();
    e.driver = doc.value("driver", "");
    e.peak.gflops = doc.at("fp32_gflops").get<double>();
    e.peak.gbps = doc.at("bandwidth_gbs").get<double>();
    e.peak.file = path;
    if (!(e.peak.gflops > 0.0) || !(e.peak.gbps > 0.0))
      throw std::runtime_error("fp32_gflops and bandwidth_gbs must be positive");
    const auto fp64 = doc.find("fp64_gflops");
    if (fp64 != doc.end() && !fp64->is_null()) {
      e.peak.fp64_gflops = fp64->get<double>();
      if (!(*e.peak.fp64_gflops > 0.0))
        throw std::runtime_error("fp64_gflops must be positive or null");
    }
    return e;
  } catch (const std::exception& ex) {
    if (warnings) warnings->push_back("skipping " + path + ": " + ex.what());
    return std::nullopt;
  }
}

}  // namespace

std::optional<DevicePeak> findDevicePeak(const std::vector<std::string>& dirs,
                                         const std::string& device, const std::string& driver,
                                         std::vector<std::string>* warnings) {
  for (const auto& dir : dirs) {
    std::optional<DevicePeak> any_driver;
    for (const auto& path : jsonFilesIn(dir)) {
      const auto entry = readPeak(path, warnings);
      if (!entry || entry->device != device) continue;
      if (entry->driver == driver) return entry->peak;
      if (!any_driver) any_driver = entry->peak;
    }
    if (any_driver) return any_driver;
  }
  return std::nullopt;
}

std::vector<std::string> peakDirs(const std::string& store_option,
                                  const std::string& kernels_origin) {
  return storeThenDataDirs(store_option, kernels_origin, "peaks").dirs;
}

std::optional<DevicePeak> fp64Roofline(const DevicePeak& peak) {
  if (!peak.fp64_gflops) return std::nullopt;
  DevicePeak fp64 = peak;
  fp64.gflops = *peak.fp64_gflops;
  return fp64;
}

double rooflineBound(const DevicePeak& peak, double intensity) {
  return std::min(peak.gflops, intensity * peak.gbps);
}

}  // namespace clgemm
