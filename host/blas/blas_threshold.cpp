#include "blas/blas_threshold.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "store/param_store.hpp"
#include "store/user_store.hpp"

namespace clgemm::blas {

ThresholdEnv parseThresholdEnv(const char* value) {
  ThresholdEnv env;
  if (!value || !*value) return env;
  const std::string text = value;
  // Digits only: strtoull would take "-1" (as 2^64 - 1), "1e6" (as 1) or " 5".
  if (text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    env.warning = "CLGEMM_BLAS_THRESHOLD='" + text +
                  "' is not a non-negative integer m*n*k (0: every call on the device); ignored";
    return env;
  }
  env.value = std::stoull(text);
  return env;
}

std::string thresholdRecordName(const std::string& device_name, Precision precision) {
  return fileSlug(device_name) + "-" + precisionName(precision) + ".json";
}

namespace {

// One record, or nothing when the file is not one for `precision` (unreadable, not JSON, another
// precision, no device name).
struct Parsed {
  std::string device, driver;
  ThresholdRecord record;
};
std::optional<Parsed> readRecord(const std::string& file, Precision precision) {
  try {
    std::ifstream in(file);
    const nlohmann::json j = nlohmann::json::parse(in);
    if (!j.is_object() || !j.contains("device") || !j.contains("threshold")) return std::nullopt;
    if (j.value("precision", std::string("fp32")) != precisionName(precision)) return std::nullopt;
    Parsed p;
    p.device = j.at("device").get<std::string>();
    p.driver = j.value("driver", std::string());
    p.record.file = file;
    const auto& t = j.at("threshold");
    if (t.is_number_unsigned())
      p.record.threshold = t.get<std::uint64_t>();
    else if (!t.is_null())
      return std::nullopt;
    return p;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<ThresholdRecord> findThresholdRecord(const std::vector<std::string>& dirs,
                                                   const DeviceInfo& device, Precision precision) {
  for (const auto& dir : dirs) {
    std::optional<ThresholdRecord> same_name;
    for (const auto& file : jsonFilesIn(dir)) {
      const auto p = readRecord(file, precision);
      if (!p || p->device != device.name) continue;
      if (p->driver == device.driver_version) return p->record;
      if (!same_name) same_name = p->record;
    }
    if (same_name) return same_name;
  }
  return std::nullopt;
}

Threshold chooseThreshold(const ThresholdEnv& env, const std::vector<std::string>& dirs,
                          const DeviceInfo& device, Precision precision) {
  Threshold t;
  if (env.value) {
    t.min_mnk = *env.value;
    t.source = "CLGEMM_BLAS_THRESHOLD";
    return t;
  }
  if (const auto record = findThresholdRecord(dirs, device, precision)) {
    t.never = !record->threshold;
    t.min_mnk = record->threshold.value_or(0);
    t.source = record->file;
    return t;
  }
  if (device.is_gpu) {
    // An unmeasured guess: from about 256^3 the copies over PCIe and the launch cost little
    // beside the GEMM on a discrete GPU. `clgemm blas-threshold` measures the real one.
    t.min_mnk = std::uint64_t(256) * 256 * 256;
    t.source = "default for a GPU (unmeasured)";
  } else {
    // A CPU device (pocl) runs on the same cores as the system BLAS, which is faster there.
    t.never = true;
    t.source = "default for a " + device.type + " device: never";
  }
  return t;
}

}  // namespace clgemm::blas
