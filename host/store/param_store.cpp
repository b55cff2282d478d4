#include "store/param_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <system_error>
#include <tuple>

#include "opencl/kernel_source.hpp"
#include "store/user_store.hpp"

namespace clgemm {
namespace {

namespace fs = std::filesystem;

bool readEntry(const fs::path& path, TunedEntry& entry, std::vector<std::string>* warnings) {
  try {
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    entry.file = path.string();
    entry.device = doc.at("device").get<std::string>();
    entry.driver = doc.value("driver", "");
    entry.kernel = doc.at("kernel").get<std::string>();
    entry.size.reset();
    if (doc.contains("size")) {
      const auto& s = doc.at("size");
      entry.size = Shape{s.at("m").get<int>(), s.at("n").get<int>(), s.at("k").get<int>()};
      if (entry.size->m < 1 || entry.size->n < 1 || entry.size->k < 1)
        throw std::runtime_error("size m, n, k must be positive");
    }
    entry.trans = doc.value("trans", "NN");
    if (!validTransKey(entry.trans))
      throw std::runtime_error("trans '" + entry.trans + "' is not NN, TN, NT or TT");
    const std::string precision = doc.value("precision", "fp32");
    if (precision != "fp32" && precision != "fp64")
      throw std::runtime_error("precision '" + precision + "' is not fp32 or fp64");
    entry.precision = precision == "fp64" ? Precision::kFp64 : Precision::kFp32;
    entry.tuned_on.reset();
    if (doc.contains("class")) entry.tuned_on = classFromJson(doc.at("class"));
    entry.defines.clear();
    for (const auto& [name, value] : doc.at("defines").items())
      entry.defines[name] = value.is_string() ? value.get<std::string>() : value.dump();
    return true;
  } catch (const std::exception& e) {
    if (warnings) warnings->push_back("skipping " + path.string() + ": " + e.what());
    return false;
  }
}

// How far an entry's size is from the problem's, by the log of their multiply-add counts: 0 for
// the same size; an entry for any size ranks after every sized one.
double sizeDistance(const TunedEntry& entry, const Shape& size) {
  if (!entry.size) return std::numeric_limits<double>::infinity();
  if (*entry.size == size) return 0.0;
  auto macs = [](const Shape& s) { return double(s.m) * double(s.n) * double(s.k); };
  // Never 0 for a different shape, so the exact match always wins.
  return std::abs(std::log(macs(*entry.size) / macs(size))) + 1e-9;
}

}  // namespace

std::vector<std::string> dataDirs(const std::string& kernels_origin, const std::string& sub) {
  std::vector<std::string> dirs;
  if (const char* data = std::getenv("CLGEMM_DATA"); data && *data) {
    if (std::string(data) != "none") dirs.push_back((fs::path(data) / sub).string());
    return dirs;
  }
  std::error_code ec;
  if (fs::is_regular_file(kernels_origin, ec))
    dirs.push_back((fs::path(kernels_origin).parent_path() / "data" / sub).string());
  // Then the folders kernels.cl is looked for in (beside the executable, beside libclgemm.so,
  // an install's share/clgemm), so an installed CLI or library finds the entries shipped with it
  // even when its kernels come from --kernels; the source tree last, as for the kernels.
  for (const auto& dir : shippedFileDirs()) {
    const std::string d = (fs::path(dir) / "data" / sub).string();
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  }
#ifdef CLGEMM_SOURCE_DIR
  dirs.push_back((fs::path(CLGEMM_SOURCE_DIR) / "data" / sub).string());
#endif
  return dirs;
}

SearchDirs storeThenDataDirs(const std::string& store_option, const std::string& kernels_origin,
                             const std::string& sub) {
  SearchDirs p;
  p.dirs = dataDirs(kernels_origin, sub);
  const std::string user = userStoreSubdir(userStoreDir(store_option), sub);
  if (!user.empty()) {
    p.dirs.insert(p.dirs.begin(), user);
    p.store_dirs = 1;
  }
  return p;
}

std::vector<std::string> jsonFilesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& f : fs::directory_iterator(dir, ec))
    if (f.path().extension() == ".json") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string TunedEntry::matchReason() const {
  if (match == ClassMatch::kDevice) return "same device";
  return tuned_on ? classMatchReason(match, *tuned_on) : "";
}

std::vector<TunedEntry> rankedTunedEntries(const std::vector<std::string>& dirs,
                                           const DeviceInfo& device, const std::string& kernel,
                                           const Shape& size, std::vector<std::string>* warnings,
                                           const std::string& trans, Precision precision) {
  std::vector<TunedEntry> own, borrowed;  // in folder and name order
  const DeviceClass here = classOf(device);
  for (std::size_t d = 0; d < dirs.size(); ++d) {
    for (const auto& path : jsonFilesIn(dirs[d])) {
      TunedEntry candidate;
      if (!readEntry(path, candidate, warnings) || candidate.kernel != kernel) continue;
      // Parameters tuned in the other precision never serve (see param_store.hpp).
      if (candidate.precision != precision) continue;
      // Another transpose's parameters were tuned for other loads; only NN stands in for any.
      if (candidate.trans != trans && candidate.trans != "NN") continue;
      candidate.dir_index = d;
      if (candidate.device == device.name) {
        candidate.match = ClassMatch::kDevice;
        own.push_back(std::move(candidate));
      } else if (candidate.tuned_on) {
        candidate.match = classMatch(*candidate.tuned_on, here);
        if (candidate.match != ClassMatch::kNone) borrowed.push_back(std::move(candidate));
      }
    }
  }
  // stable_sort keeps name order among equals, so the choice is deterministic. This device's own:
  // the first folder holding any, then the same driver, then the nearest size.
  auto own_rank = [&](const TunedEntry& e) {
    return std::make_tuple(e.dir_index, e.driver != device.driver_version, sizeDistance(e, size));
  };
  std::stable_sort(own.begin(), own.end(), [&](const TunedEntry& a, const TunedEntry& b) {
    return own_rank(a) < own_rank(b);
  });
  // Its class's: the closest class, the nearest hardware, the earlier folder, the nearest size.
  auto class_rank = [&](const TunedEntry& e) {
    return std::make_tuple(int(e.match), hardwareDistance(*e.tuned_on, here), e.dir_index,
                           sizeDistance(e, size));
  };
  std::stable_sort(borrowed.begin(), borrowed.end(), [&](const TunedEntry& a, const TunedEntry& b) {
    return class_rank(a) < class_rank(b);
  });
  own.insert(own.end(), borrowed.begin(), borrowed.end());
  // The same transposes first, each part in the order above: a borrowed TN entry knows more of a
  // TN problem than this device's own NN one.
  std::stable_partition(own.begin(), own.end(),
                        [&](const TunedEntry& e) { return e.trans == trans; });
  return own;
}

bool findTunedEntry(const std::vector<std::string>& dirs, const DeviceInfo& device,
                    const std::string& kernel, const Shape& size, TunedEntry& entry,
                    std::vector<std::string>* warnings, const std::string& trans,
                    Precision precision) {
  const auto ranked = rankedTunedEntries(dirs, device, kernel, size, warnings, trans, precision);
  if (ranked.empty()) return false;
  entry = ranked.front();
  return true;
}

std::string tunedEntryFileName(const std::string& device, const std::string& driver,
                               const std::string& kernel, const Shape& size,
                               const std::string& trans, Precision precision) {
  const std::string key = (precision == Precision::kFp64 ? precisionName(precision) + "-" : "") +
                          (trans == "NN" ? "" : fileSlug(trans) + "-");
  return fileSlug(device) + "-" + fileSlug(driver) + "-" + kernel + "-" + key + shapeText(size) +
         ".json";
}

bool validTransKey(const std::string& trans) {
  return trans == "NN" || trans == "TN" || trans == "NT" || trans == "TT";
}

}  // namespace clgemm
