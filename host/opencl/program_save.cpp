#include "opencl/program_save.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "opencl/cl_check.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"

namespace clgemm {
namespace {

const char* const kOption = "--save-programs";

// FNV-1a, 64 bits: stable across compilers and runs, unlike std::hash.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// PTX is text that declares its version and target; NVIDIA's binary also ends in NUL padding.
bool looksLikePtx(const std::string& bytes) {
  return bytes.find(".version") != std::string::npos && bytes.find(".target") != std::string::npos;
}

}  // namespace

std::string savedProgramStem(const std::string& options, const std::string& device_name) {
  std::string kernel = "program";
  const std::string marker = "-D KERNEL_";
  if (const auto at = options.find(marker); at != std::string::npos) {
    const auto begin = at + marker.size();
    const auto end = options.find(' ', begin);
    kernel = options.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(device_name + "\n" + options)));
  return kernel + "-" + hash;
}

void prepareSavedProgramsDir(const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw UsageError(std::string(kOption) + " '" + dir + "' is a file, not a folder");
  std::filesystem::create_directories(dir, ec);
  if (ec) throw UsageError(std::string(kOption) + ": cannot create '" + dir + "': " + ec.message());
  checkWritable((std::filesystem::path(dir) / "probe").string(), kOption);
}

void saveBuiltProgram(const BuiltProgram& built, const cl::Device& device, const std::string& dir) {
  std::string bytes;
  try {
    const auto binaries = built.program.getInfo<CL_PROGRAM_BINARIES>();
    if (!binaries.empty()) bytes.assign(binaries.front().begin(), binaries.front().end());
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  const bool ptx = looksLikePtx(bytes);
  if (ptx) bytes.erase(std::remove(bytes.begin(), bytes.end(), '\0'), bytes.end());
  std::string device_name;
  try {
    device_name = device.getInfo<CL_DEVICE_NAME>();
  } catch (const cl::Error& e) {
    rethrowClError(e);
  }
  const std::filesystem::path stem =
      std::filesystem::path(dir) / savedProgramStem(built.options, device_name);
  writeFileAtomically(stem.string() + (ptx ? ".ptx" : ".bin"), kOption, [&](std::ostream& out) {
    out.write(bytes.data(), std::streamsize(bytes.size()));
  });
  writeFileAtomically(stem.string() + ".txt", kOption, [&](std::ostream& out) {
    out << "device: " << device_name << "\noptions: " << built.options << "\n\ncompiler log:\n"
        << built.log << "\n";
  });
}

}  // namespace clgemm
