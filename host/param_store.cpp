#include "param_store.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <system_error>

#include "kernel_source.hpp"
#include "user_store.hpp"

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
  std::error_code ec;
  if (fs::is_regular_file(kernels_origin, ec))
    dirs.push_back((fs::path(kernels_origin).parent_path() / "data" / sub).string());
  const std::string exe_dir = executableDir();
  if (!exe_dir.empty()) dirs.push_back((fs::path(exe_dir) / "data" / sub).string());
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

bool findTunedEntry(const std::vector<std::string>& dirs, const std::string& device,
                    const std::string& driver, const std::string& kernel, const Shape& size,
                    TunedEntry& entry, std::vector<std::string>* warnings) {
  for (std::size_t d = 0; d < dirs.size(); ++d) {
    std::optional<TunedEntry> best;
    for (const auto& path : jsonFilesIn(dirs[d])) {
      TunedEntry candidate;
      if (!readEntry(path, candidate, warnings)) continue;
      if (candidate.device != device || candidate.kernel != kernel) continue;
      candidate.dir_index = d;
      if (!best) {
        best = candidate;
        continue;
      }
      // Same driver first, then the nearest size; among equals the first file in name order.
      const bool same = candidate.driver == driver, best_same = best->driver == driver;
      if (same != best_same) {
        if (same) best = candidate;
        continue;
      }
      if (sizeDistance(candidate, size) < sizeDistance(*best, size)) best = candidate;
    }
    if (best) {
      entry = *best;
      return true;
    }
  }
  return false;
}

std::string tunedEntryFileName(const std::string& device, const std::string& driver,
                               const std::string& kernel, const Shape& size) {
  return fileSlug(device) + "-" + fileSlug(driver) + "-" + kernel + "-" + shapeText(size) + ".json";
}

}  // namespace clgemm
