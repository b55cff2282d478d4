#include "param_store.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "kernel_source.hpp"

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
    entry.defines.clear();
    for (const auto& [name, value] : doc.at("defines").items())
      entry.defines[name] = value.is_string() ? value.get<std::string>() : value.dump();
    return true;
  } catch (const std::exception& e) {
    if (warnings) warnings->push_back("skipping " + path.string() + ": " + e.what());
    return false;
  }
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
                    const std::string& driver, const std::string& kernel, TunedEntry& entry,
                    std::vector<std::string>* warnings) {
  bool found_any_driver = false;
  TunedEntry any_driver;
  for (const auto& dir : dirs) {
    for (const auto& path : jsonFilesIn(dir)) {
      TunedEntry candidate;
      if (!readEntry(path, candidate, warnings)) continue;
      if (candidate.device != device || candidate.kernel != kernel) continue;
      if (candidate.driver == driver) {
        entry = candidate;
        return true;
      }
      if (!found_any_driver) {
        any_driver = candidate;
        found_any_driver = true;
      }
    }
    // The first folder with a match for this device wins over later ones.
    if (found_any_driver) break;
  }
  if (found_any_driver) entry = any_driver;
  return found_any_driver;
}

}  // namespace clgemm
