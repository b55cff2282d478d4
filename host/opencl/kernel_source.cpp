#include "opencl/kernel_source.hpp"

#include <dlfcn.h>
#include <link.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "util/errors.hpp"

// The path from the installed library folder to the installed share/clgemm, set by CMake from
// GNUInstallDirs ("../share/clgemm"; "../../share/clgemm" where the libdir is lib/<multiarch>).
#ifndef CLGEMM_SHARE_FROM_LIBDIR
#define CLGEMM_SHARE_FROM_LIBDIR "../share/clgemm"
#endif

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

std::string moduleDir() {
  // dladdr names the object that holds this very function. Its dli_fname is not used for the
  // executable: glibc gives argv[0] there, which may be relative or a name found on PATH; the
  // executable's link map has an empty name instead, and /proc/self/exe says where it is.
  Dl_info info{};
  void* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&moduleDir), &info, &map, RTLD_DL_LINKMAP) != 0 && map) {
    const char* name = static_cast<const link_map*>(map)->l_name;
    if (name && *name) {
      // The library's real folder: libclgemm.so is a link to libclgemm.so.0.1 in the same folder
      // in an install, but a user may link it from elsewhere; share/clgemm is beside the file.
      std::error_code ec;
      const fs::path real = fs::canonical(name, ec);
      return (ec ? fs::absolute(name, ec) : real).parent_path().string();
    }
  }
  return executableDir();
}

std::vector<std::string> shippedFileDirs(const std::string& exe_dir, const std::string& module_dir,
                                         const std::string& share_from_libdir) {
  std::vector<std::string> dirs;
  auto add = [&dirs](const fs::path& dir) {
    const std::string d = dir.lexically_normal().string();
    for (const auto& have : dirs)
      if (have == d) return;
    dirs.push_back(d);
  };
  if (!exe_dir.empty()) add(exe_dir);
  if (!module_dir.empty()) {
    add(module_dir);
    add(fs::path(module_dir) / ".." / "share" / "clgemm");
    if (!share_from_libdir.empty()) add(fs::path(module_dir) / share_from_libdir);
  }
  // lexically_normal keeps a trailing separator from "a/.."; the folders compare without it.
  for (auto& d : dirs)
    if (d.size() > 1 && d.back() == '/') d.pop_back();
  return dirs;
}

std::vector<std::string> shippedFileDirs() {
  return shippedFileDirs(executableDir(), moduleDir(), CLGEMM_SHARE_FROM_LIBDIR);
}

KernelSource findKernelSource(const std::vector<std::string>& dirs, const std::string& source_dir) {
  KernelSource source;
  std::vector<fs::path> candidates;
  for (const auto& dir : dirs) candidates.push_back(fs::path(dir) / "kernels.cl");
  // The source tree after the shipped copies: an installed library must not read the tree it
  // was built from, which may have moved on since.
  if (!source_dir.empty()) candidates.push_back(fs::path(source_dir) / "kernels.cl");
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

KernelSource loadKernelSource(const std::string& user_file) {
  if (!user_file.empty()) {
    KernelSource source;
    std::error_code ec;
    if (fs::is_directory(user_file, ec) || !readFile(user_file, source.text))
      throw UsageError("--kernels: cannot read kernel file '" + user_file + "'");
    source.origin = user_file;
    return source;
  }
#ifdef CLGEMM_SOURCE_DIR
  return findKernelSource(shippedFileDirs(), CLGEMM_SOURCE_DIR);
#else
  return findKernelSource(shippedFileDirs(), "");
#endif
}

}  // namespace clgemm
