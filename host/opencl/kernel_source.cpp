#include "opencl/kernel_source.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "util/errors.hpp"

namespace clgemm {
namespace {

namespace fs = std::filesystem;

bool readFile(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return false;
  text = s.str();
  return true;
}

}  // namespace

std::string executableDir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : self.parent_path().string();
}

KernelSource loadKernelSource(const std::string& user_file) {
  KernelSource source;
  if (!user_file.empty()) {
    std::error_code ec;
    if (fs::is_directory(user_file, ec) || !readFile(user_file, source.text))
      throw UsageError("--kernels: cannot read kernel file '" + user_file + "'");
    source.origin = user_file;
    return source;
  }
  std::vector<fs::path> candidates;
  const std::string exe_dir = executableDir();
  if (!exe_dir.empty()) candidates.push_back(fs::path(exe_dir) / "kernels.cl");
#ifdef CLGEMM_SOURCE_DIR
  candidates.push_back(fs::path(CLGEMM_SOURCE_DIR) / "kernels.cl");
#endif
  for (const auto& path : candidates) {
    if (readFile(path, source.text)) {
      source.origin = path.string();
      return source;
    }
  }
  source.text = kEmbeddedKernels;
  source.origin = "embedded copy";
  return source;
}

}  // namespace clgemm
